/**
 * The fast lane (native JSON.parse + the shape check over plain objects, event-fast-lane.ts) agrees with the strict
 * lane: whenever it takes an event, the strict loader accepts the same bytes and the shape check finds nothing, with
 * the same checked event; when it hands back canonical bytes, they are JSON.stringify of that event. Whole reports
 * over bytes (fast lane) and over the strictly parsed value (strict lane only) are identical: verdicts, findings,
 * digest. Checked on synthetic events and on thousands of edits aimed at what JSON.parse reads differently.
 */
import { describe, expect, test } from "vitest";
import { parseStrictJson } from "../../../src/json/parse.js";
import { collectShape } from "../../../src/json/shape-check.js";
import { scanContainer, valueEnd, type SliceFacts } from "../../../src/json/tokenizer.js";
import { fastEvent } from "../../../published/regional/event-fast-lane.js";
import { INDEX_DIALECT } from "../../../published/regional/index-dialect.js";
import { shapesFor } from "../../../published/regional/index-shape.js";
import { NEUTRAL_PROFILE } from "../../../published/regional/profiles.js";
import { withDigest } from "../../../published/regional/synthetic.js";
import { validateRegionalIndex } from "../../../published/regional/validate.js";
import { index, type Obj } from "./helpers.js";

const OPEN = { maxItems: Number.MAX_SAFE_INTEGER, maxMembers: Number.MAX_SAFE_INTEGER, maxBytes: Number.MAX_SAFE_INTEGER, maxDepth: 30, rootPath: "e" };
const encoder = new TextEncoder();
const decoder = new TextDecoder();
const shape = shapesFor(NEUTRAL_PROFILE.schema_version).event;

function lcg(seed: number): () => number {
  let s = seed;
  return () => (s = (s * 1103515245 + 12345) % 2147483648) / 2147483648;
}

/** Keys of every object in code-point order (the synthetic events use table order). */
function sorted(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(sorted);
  if (v === null || typeof v !== "object") return v;
  const out: Obj = {};
  for (const k of Object.keys(v).sort()) out[k] = sorted((v as Obj)[k]);
  return out;
}

/** The strict lane's verdict on one event text: the checked event, or undefined (not JSON, or a finding). */
function strictLane(b: Uint8Array): unknown {
  let v;
  try {
    v = parseStrictJson(b, OPEN);
  } catch {
    return undefined;
  }
  let found = 0;
  const typed = collectShape(shape, v, INDEX_DIALECT, () => found++, { memberOrder: "code-point" });
  return found === 0 ? typed : undefined;
}

/** The fast lane on one event text; undefined when it hands the event to the strict lane. */
function fastLane(b: Uint8Array) {
  const facts: SliceFacts = { plain: false, compact: false, members: 0 };
  const end = scanContainer(b, 0, facts);
  // Wherever the scan finds an end, it is the tokenizer's.
  if (end >= 0) expect(end).toBe(valueEnd(b, 0));
  if (end !== b.length || !facts.plain) return undefined;
  return fastEvent({ text: decoder.decode(b), bytes: b, members: facts.members, compact: facts.compact }, shape);
}

/** Asserts the lanes agree on `text`; returns whether the fast lane took it. */
function agree(text: string): boolean {
  const b = encoder.encode(text);
  const fast = fastLane(b);
  if (fast === undefined) return false;
  const strict = strictLane(b);
  expect(strict, text).toBeDefined();
  expect(JSON.stringify(fast.event)).toBe(JSON.stringify(strict));
  if (fast.canonical !== undefined) expect(decoder.decode(fast.canonical)).toBe(JSON.stringify(strict));
  return true;
}

const events = (index("bri", 12).events as Obj[]).map((e) => JSON.stringify(e));
const sortedEvents = (index("gwadar", 12).events as Obj[]).map((e) => JSON.stringify(sorted(e)));

/** Edits aimed at the differences between JSON.parse and the strict loader, and at canonical text. */
const EDITS: [RegExp | string, string][] = [
  ['"version_count":', '"version_count":1.0,"x":'],
  [/"version_count":(\d+)/, '"version_count":$1.0'],
  [/"version_count":(\d+)/, '"version_count":$1e0'],
  [/"version_count":(\d+)/, '"version_count":1E2'],
  [/"version_count":(\d+)/, '"version_count":-0'],
  [/"version_count":(\d+)/, '"version_count":12345678901234567'],
  [/"version_count":(\d+)/, '"version_count":9007199254740993'],
  [/"version_count":(\d+)/, '"version_count":123456789012345'],
  [/"version_count":(\d+)/, '"version_count":01'],
  [/"version_count":(\d+)/, '"version_count":NaN'],
  ['"headline":"', '"headline":"\\ud800'],
  ['"headline":"', '"headline":"\\udc00\\ud800'],
  ['"headline":"', '"headline":"\\ud83d\\ude00'],
  ['"headline":"', '"headline":"\\u00e9'],
  ['"headline":"', '"headline":"\\u001f'],
  ['"headline":"', '"headline":"\\u001F'],
  ['"headline":"', '"headline":"\\u000a'],
  ['"headline":"', '"headline":"\\n\\t\\"\\\\'],
  ['"headline":"', '"headline":"\\/'],
  ['"headline":"', '"headline":"\\x'],
  ['"headline":"', '"headline":"\u0001'],
  ['"headline":"', '"headline":"😀é'],
  ['{"', '{"headline":"twice","'],
  ['{"', '{"dek":null,"'],
  ['{"', '{"__proto__":{},"'],
  ['{"', '{"constructor":1,"'],
  ['{"', '{ "'],
  [",", ", "],
  [":", ":\n"],
  ['"english_translation":{', '"english_translation":{"title_en":"x",'],
  ['"publisher_links":[', '"publisher_links":[[[[[[[[[[[[[[[[[[1]]]]]]]]]]]]]]]]]],"x":['],
  ['"topics":[', '"topics":[1.5,'],
  ['"region_tags":[', '"region_tags":["bri",'],
];

function edit(text: string, [from, to]: [RegExp | string, string]): string {
  return typeof from === "string" ? text.replace(from, to) : text.replace(from, to);
}

describe("the fast lane agrees with the strict lane", () => {
  test("takes every synthetic event, and gives the canonical bytes of a sorted compact one", () => {
    for (const t of events) expect(agree(t)).toBe(true);
    for (const t of sortedEvents) {
      expect(agree(t)).toBe(true);
      expect(fastLane(encoder.encode(t))?.canonical).toBeDefined();
    }
    // Table order is not code-point order: no canonical bytes then.
    expect(fastLane(encoder.encode(events[0]))?.canonical).toBeUndefined();
  });

  test("on every targeted edit", () => {
    let taken = 0;
    for (const base of [...events, ...sortedEvents]) for (const e of EDITS) if (agree(edit(base, e))) taken++;
    // Some edits keep the event conforming (escapes, whitespace, a non-ASCII headline): the lane must take those.
    expect(taken).toBeGreaterThan(0);
  });

  test("on thousands of random one-character edits", () => {
    const rnd = lcg(11);
    const alphabet = ['"', ",", ":", "{", "}", "[", "]", " ", "x", "1", "0", "\\", "-", ".", "e", "E", "u", "d", "8", "N", "t", "\n", "\u0001", "é"];
    let taken = 0;
    for (let n = 0; n < 4000; n++) {
      const src = n % 2 ? events[n % events.length] : sortedEvents[n % sortedEvents.length];
      const k = Math.floor(rnd() * src.length);
      const ch = alphabet[Math.floor(rnd() * alphabet.length)];
      const mode = Math.floor(rnd() * 3);
      const t = mode === 0 ? src.slice(0, k) + ch + src.slice(k + 1) : mode === 1 ? src.slice(0, k) + ch + src.slice(k) : src.slice(0, k) + src.slice(k + 1);
      if (agree(t)) taken++;
    }
    expect(taken).toBeGreaterThan(0);
  });
});

describe("the scan's facts", () => {
  const facts = (t: string): SliceFacts => {
    const f: SliceFacts = { plain: false, compact: false, members: 0 };
    expect(scanContainer(encoder.encode(t), 0, f)).toBe(encoder.encode(t).length);
    return f;
  };

  test("refuses what JSON.parse reads differently, even where the shape would not notice", () => {
    for (const t of ['{"a":1.0}', '{"a":1e2}', '{"a":1E+2}', '{"a":-0}', '{"a":1234567890123456}', '{"a":-9007199254740993}', '["\\ud800"]', '["\\uDFFF"]', "[".repeat(17) + "]".repeat(17)]) {
      expect(facts(t).plain, t).toBe(false);
    }
    for (const t of ['{"a":123456789012345}', '{"a":-5}', '{"a":0}', '["\\ud83d"]'.replace("d83d", "00e9"), "[".repeat(16) + "]".repeat(16)]) {
      expect(facts(t).plain, t).toBe(true);
    }
  });

  test("counts members and tells canonical escapes and compact text", () => {
    expect(facts('{"a":{"b":1,"c":[{"d":2}]},"e":":"}').members).toBe(5);
    expect(facts('{"a":"\\n\\"\\u001f"}').compact).toBe(true);
    for (const t of ['{"a":"\\/"}', '{"a":"\\u001F"}', '{"a":"\\u000a"}', '{"a":"\\u00e9"}', '{"a": 1}', '{"a":1 }']) {
      expect(facts(t).compact, t).toBe(false);
    }
  });
});

describe("whole reports: bytes (fast lane) and the strictly parsed value (strict lane only) agree", () => {
  /** Replaces event `i`'s text in the index's JSON text. */
  function withEventText(o: Obj, i: number, text: string): Uint8Array {
    const marker = "__EVENT__";
    const copy = { ...o, events: (o.events as Obj[]).map((e, k) => (k === i ? marker : e)) };
    return encoder.encode(JSON.stringify(copy).replace(`"${marker}"`, () => text));
  }

  function same(b: Uint8Array): void {
    let value;
    try {
      value = parseStrictJson(b, { ...OPEN, maxDepth: 32, rootPath: "index" });
    } catch {
      return; // Load errors never reach the fast lane: load.test.ts covers them.
    }
    expect(validateRegionalIndex(b)).toEqual(validateRegionalIndex(value));
  }

  test("on a conforming index, unsorted and sorted, and on every targeted edit of one event", () => {
    const o = withDigest(index("bri", 8));
    const s = withDigest(sorted(o) as Obj);
    const plain = encoder.encode(JSON.stringify(o));
    const canonical = encoder.encode(JSON.stringify(s));
    expect(validateRegionalIndex(plain).content_sha256.status).toBe("verified");
    expect(validateRegionalIndex(canonical).content_sha256.status).toBe("verified");
    same(plain);
    same(canonical);
    for (const src of [o, s]) {
      EDITS.forEach((e, n) => same(withEventText(src, n % 8, edit(JSON.stringify((src.events as Obj[])[n % 8]), e))));
    }
  });
});
