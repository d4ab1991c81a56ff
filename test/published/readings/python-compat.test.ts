/** The Python behaviours the ledger rules depend on: splitlines, isspace, json.dumps (ASCII) and isoformat. */
import { describe, expect, test } from "vitest";
import { parseStrictJson } from "../../../src/json/parse.js";
import { parseEconDate, parseEconTimestamp } from "../../../published/readings/iso-time.js";
import { pythonAsciiJson } from "../../../published/readings/python-json.js";
import { pyIsBlank, pySplitlines } from "../../../published/readings/python-text.js";

test("str.splitlines()", () => {
  expect(pySplitlines("")).toEqual([]);
  expect(pySplitlines("a\n")).toEqual(["a"]);
  expect(pySplitlines("a\n\nb")).toEqual(["a", "", "b"]);
  expect(pySplitlines("\n")).toEqual([""]);
  expect(pySplitlines("a\r\nb\rc\u2028d\x0be\x1cf\x85g")).toEqual(["a", "b", "c", "d", "e", "f", "g"]);
  expect(pySplitlines("a\n\n")).toEqual(["a", ""]);
});

test("not str.strip()", () => {
  for (const s of ["", " ", "\t\n\r\x0b\x0c", "\x1c\x1f", "\xa0\u3000\u2007\u205f", "\u2028"]) expect(pyIsBlank(s), JSON.stringify(s)).toBe(true);
  for (const s of ["a", "\u200b", "\ufeff", " x "]) expect(pyIsBlank(s), JSON.stringify(s)).toBe(false);
});

test("json.dumps(sort_keys=True, separators=(',', ':')) with ensure_ascii", () => {
  // Expected strings are what CPython prints for the same input.
  const v = parseStrictJson('{"b":"\\u00e9\\u2028\\ud83d\\ude00\\u007f\\"\\\\\\n\\t\\b\\f\\u0001/","a":1.0,"c":[1e-05,100.0,1e22,-0.0,3],"\\u00e9":null,"B":true}');
  expect(pythonAsciiJson(v)).toBe(
    '{"B":true,"a":1.0,"b":"\\u00e9\\u2028\\ud83d\\ude00\\u007f\\"\\\\\\n\\t\\b\\f\\u0001/","c":[1e-05,100.0,1e+22,-0.0,3],"\\u00e9":null}',
  );
});

describe("datetime.fromisoformat(...).isoformat()", () => {
  test.each([
    ["2026-08-04T10:19:26.966884Z", "2026-08-04T10:19:26.966884+00:00"],
    ["2026-08-04T10:19:26.966884+00:00", "2026-08-04T10:19:26.966884+00:00"],
    ["2026-08-04T10:19:26.5Z", "2026-08-04T10:19:26.500000+00:00"],
    ["2026-08-04T10:19:26.000Z", "2026-08-04T10:19:26+00:00"],
    ["2026-08-04T10:19:26-00:00", "2026-08-04T10:19:26+00:00"],
    ["2026-08-04T10:19:26+05:30", "2026-08-04T10:19:26+05:30"],
    ["2026-08-04T10:19:26-03:00", "2026-08-04T10:19:26-03:00"],
  ])("%s → %s", (input, out) => expect(parseEconTimestamp(input)?.isoformat).toBe(out));

  test.each(["2026-08-04T10:19:26", "2026-08-04 10:19:26Z", "2026-08-04T24:00:00Z", "2026-08-04T10:19:60Z", "2026-02-29T00:00:00Z", "0000-01-01T00:00:00Z", "2026-08-04T10:19:26+24:00", "2026-08-04T10:19:26.1234567Z", 5])(
    "refuses %j",
    (input) => expect(parseEconTimestamp(input)).toBeUndefined(),
  );

  test("instants compare across offsets", () => {
    const a = parseEconTimestamp("2026-08-04T10:00:00+02:00")!;
    const b = parseEconTimestamp("2026-08-04T08:00:00Z")!;
    expect([a.seconds, a.micros]).toEqual([b.seconds, b.micros]);
  });
});

test("date.fromisoformat with the YYYY-MM-DD requirement", () => {
  expect(parseEconDate("2026-07-06")).toMatchObject({ ok: true });
  expect(parseEconDate("2024-02-29")).toMatchObject({ ok: true });
  for (const v of ["2026-02-29", "2026-7-06", "2026-13-01", "0000-01-01", "2026-07-06T00:00:00", "yesterday", 20260706, "2027W531", "2026-W54"]) {
    expect(parseEconDate(v), String(v)).toEqual({ ok: false, reason: "not-iso-date" });
  }
  for (const v of ["20260706", "2026-W28", "2026-W28-1", "2026W281", "2020-W53-7", "2026W531"]) {
    expect(parseEconDate(v), v).toEqual({ ok: false, reason: "not-yyyy-mm-dd" });
  }
});
