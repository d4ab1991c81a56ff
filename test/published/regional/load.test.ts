/**
 * The streaming loader accepts and rejects exactly what the strict loader does on the whole document, with the
 * same rule and message, and adds the JSON path. Checked on every truncation of a fixture and on thousands of
 * one-character edits, plus the byte-level rules (size cap, UTF-8, BOM).
 */
import { describe, expect, test } from "vitest";
import { JsonLoadError, parseStrictJson } from "../../../src/json/parse.js";
import { IndexLoadError, loadIndexBytes } from "../../../published/regional/load.js";
import { validateRegionalIndex } from "../../../published/regional/validate.js";
import { fixture } from "./helpers.js";

const OPEN = { maxItems: Number.MAX_SAFE_INTEGER, maxMembers: Number.MAX_SAFE_INTEGER, maxBytes: Number.MAX_SAFE_INTEGER, rootPath: "index" };
const encoder = new TextEncoder();

function whole(b: Uint8Array): string {
  try {
    parseStrictJson(b, OPEN);
    return "ok";
  } catch (e) {
    if (!(e instanceof JsonLoadError)) throw e;
    return `${e.rule}|${e.message}`;
  }
}

function streamed(b: Uint8Array): string {
  try {
    const loaded = loadIndexBytes(b, Number.MAX_SAFE_INTEGER);
    if (loaded.kind === "object" && loaded.events) for (let i = 0; i < loaded.events.count; i++) loaded.events.get(i);
    return "ok";
  } catch (e) {
    if (!(e instanceof IndexLoadError)) throw e;
    return `${e.failure.rule}|${e.failure.message}`;
  }
}

/** Deterministic pseudo-random numbers (no flaky seeds). */
function lcg(seed: number): () => number {
  let s = seed;
  return () => (s = (s * 1103515245 + 12345) % 2147483648) / 2147483648;
}

describe("the streaming loader agrees with the strict loader", () => {
  // The two-event base of the broken fixtures: every construct of the format, small enough to cut everywhere.
  const compactText = fixture("broken/top-extra-property.json").toString("utf8").replace(',"unexpected":true', "");
  const text = JSON.stringify(JSON.parse(compactText), null, 1);

  test("on every truncation of an index (pretty and compact)", () => {
    for (const t of [text, compactText]) {
      const b = encoder.encode(t);
      for (let k = 0; k <= b.length; k += 1) expect(streamed(b.subarray(0, k)), `truncated at ${k}`).toBe(whole(b.subarray(0, k)));
    }
  });

  test("on thousands of one-character edits", () => {
    const rnd = lcg(7);
    const alphabet = ['"', ",", ":", "{", "}", "[", "]", " ", "x", "1", "0", "\\", "-", ".", "e", "N", "I", "t", "\n", "\u0001", "é", "😀", "\uFEFF"];
    for (let n = 0; n < 3000; n++) {
      const src = n % 2 ? text : compactText;
      const k = Math.floor(rnd() * src.length);
      const ch = alphabet[Math.floor(rnd() * alphabet.length)];
      const mode = rnd();
      const edited = mode < 0.33 ? src.slice(0, k) + ch + src.slice(k + 1) : mode < 0.66 ? src.slice(0, k) + ch + src.slice(k) : src.slice(0, k) + src.slice(k + 1);
      const b = encoder.encode(edited);
      expect(streamed(b), `edit ${n} at ${k} ${JSON.stringify(ch)}`).toBe(whole(b));
    }
  });

  test("on duplicate keys, depth, surrogates, numbers and roots", () => {
    const cases = [
      '{"a":1,"a":2}',
      '{"a":1,"\\u0061":2}',
      '{"events":[],"events":[]}',
      '{"events":[{"x":1,"x":2}]}',
      '{"events":[1,2,3,{"deep":' + "[".repeat(40) + "]".repeat(40) + "}]}",
      '{"x":' + "[".repeat(31) + "]".repeat(31) + "}",
      '{"x":' + "[".repeat(32) + "]".repeat(32) + "}",
      '{"events":[' + "[".repeat(30) + "]".repeat(30) + "]}",
      '{"events":[' + "[".repeat(31) + "]".repeat(31) + "]}",
      '{"\\ud800":1}',
      '{"a":"\\udc00"}',
      '{"events":[12345678901234567]}',
      '{"events":[1e999]}',
      '{"events":[-Infinity]}',
      '{"a":NaN}',
      '{"a":Infinity}',
      '{"a":-}',
      '{"a":01}',
      '{"a":1.}',
      '{"a":1e}',
      '{"a":tru}',
      '{"a":nul}',
      '[1,2]',
      '"text"',
      "",
      "   ",
      "{}",
      "{} x",
      '{"events":[1,]}',
      '{"events":[1 2]}',
      '{"a" 1}',
      '{"a":1,}',
      '{1:2}',
      '{"a\u0001":1}',
      '{"events":["\u0001"]}',
    ];
    for (const c of cases) expect(streamed(encoder.encode(c)), c).toBe(whole(encoder.encode(c)));
  });

  test("on bytes that are not UTF-8, and a BOM", () => {
    const bad = new Uint8Array([...encoder.encode('{"label":"'), 0xff, ...encoder.encode('"')]);
    expect(streamed(bad)).toBe(whole(bad));
    expect(streamed(bad)).toMatch(/^utf8\|JSON is not UTF-8/);
    const bom = new Uint8Array([0xef, 0xbb, 0xbf, ...encoder.encode("{}")]);
    expect(streamed(bom)).toBe(whole(bom));
    // UTF-8 is checked before syntax, as the strict loader does: the invalid byte wins over the earlier error.
    const both = new Uint8Array([...encoder.encode('{"a":x, "b":"'), 0xc3, 0x28, ...encoder.encode('"}')]);
    expect(streamed(both)).toBe(whole(both));
  });
});

describe("load errors in reports", () => {
  test("the size cap is checked first, with a size message", () => {
    const report = validateRegionalIndex(fixture("valid/bri.json"), { maxBytes: 100 });
    expect(report.errors).toEqual([
      { path: "index", rule: "json-size", message: expect.stringMatching(/^index: input is \d+ bytes, over the cap of 100 bytes$/) },
    ]);
    expect(report.content_sha256.status).toBe("not_checked");
  });

  test("syntax errors name the innermost path and a document position", () => {
    const t = fixture("valid/gwadar.json").toString("utf8");
    const cut = t.slice(0, t.indexOf('"version_ids"', t.indexOf('"events"')) + 20);
    const report = validateRegionalIndex(cut);
    expect(report.errors[0].rule).toBe("json-syntax");
    expect(report.errors[0].path).toBe("index.events[0].version_ids[0]");
    expect(report.errors[0].message).toMatch(new RegExp(`Expecting value: line \\d+ column \\d+ \\(char ${cut.length}\\)$`));
  });

  test("a number out of range inside an event gets its path", () => {
    const t = JSON.stringify(JSON.parse(fixture("valid/gwadar.json").toString("utf8")));
    const report = validateRegionalIndex(t.replace('"version_count":1', '"version_count":123456789012345678'));
    expect(report.errors).toEqual([
      { path: "index.events[0].version_count", rule: "json-integer-range", message: "index.events[0].version_count: JSON integer exceeds the I-JSON interoperable range" },
    ]);
  });
});
