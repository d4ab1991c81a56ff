/**
 * A message that is a long list of phone numbers separated by commas (issue 18, found by an attack run: such a 52 KB
 * message took 123 s, a 1 MiB one did not finish). Digits after a comma are the next number, not an extension, so
 * the search goes on after each number; it must read the library's lazy search only up to the next number, not every
 * match in the rest of the text again. Counted, not timed: the number of matches the library hands out.
 */
import { expect, test, vi } from "vitest";

const pulled = vi.hoisted(() => ({ count: 0 }));

vi.mock("libphonenumber-js/max", async (importOriginal) => {
  const real = await importOriginal<typeof import("libphonenumber-js/max")>();
  const counted: typeof real.searchPhoneNumbersInText = (text, options) => {
    const inner = real.searchPhoneNumbersInText(text, options);
    return {
      [Symbol.iterator]() {
        const it = inner[Symbol.iterator]();
        return {
          next() {
            const r = it.next();
            if (r.done !== true) pulled.count++;
            return r;
          },
          [Symbol.iterator]() {
            return this;
          },
        };
      },
    } as ReturnType<typeof real.searchPhoneNumbersInText>;
  };
  // The eager search is counted too: every match it returns was searched for.
  const findNumbers = ((text: string, options: Parameters<typeof real.findNumbers>[1]) => {
    const found = real.findNumbers(text, options as never);
    pulled.count += found.length;
    return found;
  }) as typeof real.findNumbers;
  return { ...real, searchPhoneNumbersInText: counted, findNumbers };
});

const { extractIocs } = await import("../../../capsules/assess/iocs.js");

test.each([", ", "; ", ",", " ; "])("a list of 200 numbers (the 256-per-kind limit is not reached) separated by %j: each found, the library's matches read about once each", (separator) => {
  const numbers = Array.from({ length: 200 }, (_, i) => `98${String(765_000 + i).padStart(6, "0")}${10 + (i % 90)}`);
  pulled.count = 0;
  const found = extractIocs(`call ${numbers.join(separator)} now`).iocs.phones;
  expect(found).toEqual(numbers);
  // Each number is handed out once as a "number with an extension" and once more as the number after the restart
  // (at most); the quadratic search handed out every later match again after each number (~20,000 here).
  expect(pulled.count).toBeLessThanOrEqual(2 * numbers.length + 2);
});
