/**
 * The byte lane (one pass over an event's bytes, event-byte-lane.ts over src/json/byte-shape-check.ts) agrees with
 * the strict lane: whenever it takes an event, the strict loader accepts the same bytes and the shape check finds
 * nothing; the canonical text it writes is the canonical text of the strictly parsed event; the facts it gives the
 * consistency checks are the checked event's. Whole reports over bytes (byte lane first) and over the strictly
 * parsed value (strict lane only) are identical. Checked on synthetic events, targeted edits, thousands of random
 * edits, and generated near-canonical and non-canonical events (fast-check). Also: the byte rules of `text` and
 * `any` against the dialect, the URI fast path against the full parser, and the id table against a Map.
 */
import fc from "fast-check";
import { describe, expect, test } from "vitest";
import { ByteShapeChecker } from "../../../src/json/byte-shape-check.js";
import { parseStrictJson } from "../../../src/json/parse.js";
import { array, bool, float, int, object, record, str } from "../../../src/json/shape.js";
import { collectShape } from "../../../src/json/shape-check.js";
import { canonicalJsonText } from "../../../published/regional/canonical-digest.js";
import { byteEvent, byteRule, writeByteEventCanonical } from "../../../published/regional/event-byte-lane.js";
import { IdTable } from "../../../published/regional/id-table.js";
import { INDEX_DIALECT } from "../../../published/regional/index-dialect.js";
import { shapesFor } from "../../../published/regional/index-shape.js";
import { NEUTRAL_PROFILE, PUBLISHER_PROFILE } from "../../../published/regional/profiles.js";
import { buildSyntheticIndex, withDigest } from "../../../published/regional/synthetic.js";
import { isIri, isSimpleUri, isUri } from "../../../published/regional/uri.js";
import { validateRegionalIndex } from "../../../published/regional/validate.js";
import { index, type Obj } from "./helpers.js";

const OPEN = { maxItems: Number.MAX_SAFE_INTEGER, maxMembers: Number.MAX_SAFE_INTEGER, maxBytes: Number.MAX_SAFE_INTEGER, maxDepth: 30, rootPath: "e" };
const decoder = new TextDecoder();
const shapes = [shapesFor(NEUTRAL_PROFILE.schema_version).event, shapesFor(PUBLISHER_PROFILE.schema_version).event];

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

/** What the consistency checks read of a checked event (consistency.ts, EventFacts). */
function factsOf(ev: Obj) {
  return {
    event_id: ev.event_id,
    current_in_wire: ev.current_in_wire,
    event_page_available: ev.event_page_available,
    version_count: ev.version_count,
    version_ids: ev.version_ids,
    first_recorded_at: ev.first_recorded_at,
    last_recorded_at: ev.last_recorded_at,
    published_at: ev.published_at,
    region_tags: ev.region_tags,
    source_ids: ev.source_ids,
    source_names: ev.source_names,
    publisher_links: (ev.publisher_links as Obj[]).map((l) => ({ source_id: l.source_id })),
    english_translation: ev.english_translation === null ? null : { translation_id: ev.english_translation.translation_id, public_url: ev.english_translation.public_url },
  };
}

/** Asserts the lanes agree on `text` for every profile's shape; returns whether the byte lane took it (for any). */
function agree(text: string, pad = ""): boolean {
  // The event sits inside a larger buffer, as in an index (the lane must keep to its span).
  const b = Buffer.from(`${pad}${text}${pad ? "]" : ""}`, "utf8");
  const start = Buffer.byteLength(pad);
  const end = start + Buffer.byteLength(text);
  let took = false;
  for (const shape of shapes) {
    const facts = byteEvent({ bytes: b, start, end }, shape);
    if (facts === undefined) continue;
    took = true;
    let value;
    try {
      value = parseStrictJson(b.subarray(start, end), OPEN);
    } catch (e) {
      throw new Error(`the byte lane took what the strict loader refuses (${(e as Error).message}): ${text}`);
    }
    const found: string[] = [];
    const typed = collectShape(shape, value, INDEX_DIALECT, (v) => found.push(v.rule));
    expect(found, text).toEqual([]);
    expect(facts).toEqual(factsOf(typed as Obj));
    let written = "";
    writeByteEventCanonical(shape, { bytes: (x) => (written += decoder.decode(x)) });
    expect(written, text).toBe(canonicalJsonText(value));
  }
  return took;
}

const events = [...(index("bri", 12).events as Obj[]), ...(buildSyntheticIndex({ region: "myanmar", events: 6, profile: PUBLISHER_PROFILE }).events as Obj[])].map((e) => JSON.stringify(e));
const sortedEvents = (index("gwadar", 12).events as Obj[]).map((e) => JSON.stringify(sorted(e)));

/** Edits aimed at what the byte lane reads itself: grammar, escapes, numbers, keys, order, whitespace, formats. */
const EDITS: [RegExp | string, string][] = [
  [/"version_count":(\d+)/, '"version_count":$1.0'],
  [/"version_count":(\d+)/, '"version_count":$1e0'],
  [/"version_count":(\d+)/, '"version_count":-0'],
  [/"version_count":(\d+)/, '"version_count":-1'],
  [/"version_count":(\d+)/, '"version_count":0'],
  [/"version_count":(\d+)/, '"version_count":01'],
  [/"version_count":(\d+)/, '"version_count":123456789012345'],
  [/"version_count":(\d+)/, '"version_count":1234567890123456'],
  [/"version_count":(\d+)/, '"version_count":"1"'],
  ['"headline":"', '"headline":"\\ud800'],
  ['"headline":"', '"headline":"\\ud83d\\ude00'],
  ['"headline":"', '"headline":"\\u00e9'],
  ['"headline":"', '"headline":"\\u001f'],
  ['"headline":"', '"headline":"\\u001F'],
  ['"headline":"', '"headline":"\\u000a'],
  ['"headline":"', '"headline":"\\u0008'],
  ['"headline":"', '"headline":"\\u007f'],
  ['"headline":"', '"headline":"\\n\\t\\"\\\\\\b\\f\\r'],
  ['"headline":"', '"headline":"\\/'],
  ['"headline":"', '"headline":"\\x'],
  ['"headline":"', '"headline":"\u0001'],
  ['"headline":"', '"headline":"\u007f\u2028'],
  ['"headline":"', '"headline":"😀é'],
  [/"headline":"[^"]*"/, '"headline":""'],
  [/"headline":"[^"]*"/, '"headline":"\\\\"'],
  [/"headline":"[^"]*"/, '"headline":null'],
  [/"dek":("[^"]*"|null)/, '"dek":""'],
  [/"dek":("[^"]*"|null)/, '"dek":null'],
  [/"dek":("[^"]*"|null)/, '"dek":nul'],
  [/"dek":("[^"]*"|null)/, '"dek":nulll'],
  [/"current_in_wire":(true|false)/, '"current_in_wire":tru'],
  [/"current_in_wire":(true|false)/, '"current_in_wire":falsey'],
  [/"current_in_wire":(true|false)/, '"current_in_wire":1'],
  ['"region_tags":["', '"region_tags":["\\u0062ri","'],
  [/"region_tags":\["[a-z]+"/, '"region_tags":["bri","bri"'],
  [/"region_tags":\["[a-z]+"/, '"region_tags":["nowhere"'],
  [/"source_ids":\["([^"]*)"/, '"source_ids":["$1","$1"'],
  [/"source_ids":\["([^"]*)"/, '"source_ids":["$1","\\u0061$1"'],
  [/"topics":\[/, '"topics":["a","a",'],
  [/"topics":\[/, '"topics":["a","\\"a",'],
  [/"version_ids":\[/, '"version_ids":["eventv-0A",'],
  [/"event_id":"event-/, '"event_id":"event-\\u0030'],
  [/"event_id":"event-/, '"event_id":"Event-'],
  [/"published_at":"[^"]*"/, '"published_at":"2026-02-29T00:00:00Z"'],
  [/"published_at":"[^"]*"/, '"published_at":"2024-02-29T23:59:60+00:00"'],
  [/"published_at":"[^"]*"/, '"published_at":"2024-02-29t10:00:00.5z"'],
  [/"event_url":"[^"]*"/, '"event_url":"https://a.example/%zz"'],
  [/"event_url":"[^"]*"/, '"event_url":"https://user@[::1]:8080/x?y#z"'],
  [/"event_url":"[^"]*"/, '"event_url":"https://a.example/é"'],
  [/"event_url":"[^"]*"/, '"event_url":"/relative"'],
  ['"publisher_links":[', '"publisher_links":[{"source_id":"x","title":"t","url":"https://ü.example/"},'],
  ['"publisher_links":[', '"publisher_links":[{"source_id":"x","title":"t","url":"https://a.example/","url":"https://b.example/"},'],
  ['"english_translation":{', '"english_translation":{"title_en":"x",'],
  ['{"', '{"headline":"twice","'],
  ['{"', '{"dek":null,"'],
  ['{"', '{"__proto__":{},"'],
  ['{"', '{"extra":1,"'],
  ['{"', '{"\\u0065vent_id":"event-1","'],
  ['{"', '{ "'],
  ['{"', '{\t\r\n"'],
  [",", ", "],
  [",", " ,"],
  [":", ":\n"],
  [":", " :"],
  [/}$/, ",}"],
  [/}$/, " }"],
  [/}$/, "}}"],
  [/}$/, ""],
  [/"(\w+)":/, '"$1" : '],
];

function edit(text: string, [from, to]: [RegExp | string, string]): string {
  return text.replace(from, to);
}

describe("the byte lane agrees with the strict lane", () => {
  test("takes every synthetic event, in table order and sorted, compact and spaced", () => {
    for (const t of [...events, ...sortedEvents]) {
      expect(agree(t)).toBe(true);
      expect(agree(t, '{"events":[')).toBe(true);
      expect(agree(JSON.stringify(JSON.parse(t), null, 2))).toBe(true);
    }
  });

  test("on every targeted edit", () => {
    let taken = 0;
    for (const base of [...events, ...sortedEvents]) for (const e of EDITS) if (agree(edit(base, e), "[")) taken++;
    // Some edits keep the event conforming (canonical escapes, whitespace, leap days): the lane takes those.
    expect(taken).toBeGreaterThan(100);
  });

  test("on thousands of random one-character edits", () => {
    const rnd = lcg(29);
    const alphabet = ['"', ",", ":", "{", "}", "[", "]", " ", "x", "1", "0", "\\", "-", ".", "e", "u", "n", "t", "\n", "\u0001", "é", "/", "%"];
    let taken = 0;
    for (let n = 0; n < 4000; n++) {
      const src = n % 2 ? events[n % events.length] : sortedEvents[n % sortedEvents.length];
      const k = Math.floor(rnd() * src.length);
      const ch = alphabet[Math.floor(rnd() * alphabet.length)];
      const mode = Math.floor(rnd() * 3);
      const t = mode === 0 ? src.slice(0, k) + ch + src.slice(k + 1) : mode === 1 ? src.slice(0, k) + ch + src.slice(k) : src.slice(0, k) + src.slice(k + 1);
      if (agree(t, "[")) taken++;
    }
    expect(taken).toBeGreaterThan(0);
  });

  // Generated events: a synthetic event with some text members replaced by arbitrary strings, members shuffled,
  // written with random whitespace and with characters escaped in any form JSON allows (canonical or not).
  const text = fc.oneof(fc.string({ unit: "grapheme" }), fc.string({ unit: "binary" }), fc.constantFrom("", "a", "a/b", '"', "\\", "\u0000", "\u001f", "\u007f", "é", "😀", "東方"));
  const escapeChar = (c: string, how: number): string => {
    const code = c.codePointAt(0)!;
    if (code > 0xffff) return how % 2 ? c : [...JSON.stringify(c).slice(1, -1)].join("").replace(/[\ud800-\udfff]/g, (u) => `\\u${u.charCodeAt(0).toString(16)}`);
    if (how === 1) return `\\u${code.toString(16).padStart(4, "0")}`;
    if (how === 2) return `\\u${code.toString(16).padStart(4, "0").toUpperCase()}`;
    if (c === "/" && how === 3) return "\\/";
    return JSON.stringify(c).slice(1, -1);
  };
  // One string in `rate` has some of its characters escaped.
  const write = (v: unknown, rnd: () => number, spaced: boolean, rate = 0.02): string => {
    const ws = () => (spaced && rnd() < 0.3 ? [" ", "\n", "\t", "\r\n  "][Math.floor(rnd() * 4)] : "");
    if (typeof v === "string") {
      const escapes = rnd() < rate;
      let out = "";
      for (const c of v) out += escapes && rnd() < 0.3 ? escapeChar(c, Math.floor(rnd() * 4)) : JSON.stringify(c).slice(1, -1);
      return `"${out}"`;
    }
    if (Array.isArray(v)) return `[${ws()}${v.map((x) => write(x, rnd, spaced)).join(`${ws()},${ws()}`)}${ws()}]`;
    if (v !== null && typeof v === "object") {
      const keys = Object.keys(v);
      if (rnd() < 0.3) keys.sort(() => rnd() - 0.5);
      return `{${ws()}${keys.map((k) => `${write(k, rnd, spaced, 0.005)}${ws()}:${ws()}${write((v as Obj)[k], rnd, spaced)}`).join(`${ws()},${ws()}`)}${ws()}}`;
    }
    return JSON.stringify(v);
  };

  test("on generated near-canonical and non-canonical events (fast-check)", () => {
    const base = [...events, ...sortedEvents].map((t) => JSON.parse(t) as Obj);
    let taken = 0;
    fc.assert(
      fc.property(
        fc.nat({ max: base.length - 1 }),
        fc.record({ headline: text, dek: fc.option(text), evidence_strength: text, topics: fc.array(text, { maxLength: 3 }), title: text, name: text }),
        fc.integer(),
        fc.boolean(),
        (which, texts, seed, spaced) => {
          const ev = structuredClone(base[which]);
          ev.headline = texts.headline;
          ev.dek = texts.dek;
          ev.evidence_strength = texts.evidence_strength;
          ev.topics = texts.topics;
          if (ev.publisher_links.length > 0) ev.publisher_links[0].title = texts.title;
          if (seed % 5 === 0) ev.source_names[0] = texts.name;
          const rnd = lcg(Math.abs(seed) + 1);
          if (agree(write(ev, rnd, spaced), "[")) taken++;
        },
      ),
      { numRuns: 600 },
    );
    expect(taken).toBeGreaterThan(50);
  });

  test("on generated arbitrary JSON in place of a member (fast-check)", () => {
    const base = JSON.parse(events[1]) as Obj;
    const names = Object.keys(base);
    fc.assert(
      fc.property(fc.nat({ max: names.length - 1 }), fc.jsonValue(), fc.integer(), (k, v, seed) => {
        const ev = { ...base, [names[k]]: v };
        agree(write(ev, lcg(Math.abs(seed) + 1), seed % 2 === 0), "[");
      }),
      { numRuns: 400 },
    );
  });
});

describe("whole reports: bytes (byte lane first) and the strictly parsed value (strict lane only) agree", () => {
  const encoder = new TextEncoder();
  function same(b: Uint8Array): void {
    let value;
    try {
      value = parseStrictJson(b, { ...OPEN, maxDepth: 32, rootPath: "index" });
    } catch {
      return; // Load errors never reach the lanes: load.test.ts covers them.
    }
    expect(validateRegionalIndex(b)).toEqual(validateRegionalIndex(value));
  }

  test("on conforming indexes (both profiles) and on targeted edits of one event, with the consistency findings", () => {
    const marker = "__EVENT__";
    for (const o of [withDigest(index("bri", 8)), withDigest(buildSyntheticIndex({ region: "gwadar", events: 8, profile: PUBLISHER_PROFILE }) as Obj)]) {
      const plain = encoder.encode(JSON.stringify(o));
      expect(validateRegionalIndex(plain).content_sha256.status).toBe("verified");
      same(plain);
      EDITS.forEach((e, n) => {
        const i = n % 8;
        const copy = { ...o, events: (o.events as Obj[]).map((ev, k) => (k === i ? marker : ev)) };
        const text = edit(JSON.stringify((o.events as Obj[])[i]), e);
        same(encoder.encode(JSON.stringify(copy).replace(`"${marker}"`, () => text)));
      });
      // Consistency findings reached through the byte lane: a repeated event id and a repeated version id.
      const events = o.events as Obj[];
      const dup = { ...o, events: [...events, { ...events[0], version_ids: [events[1].version_ids[0]] }] };
      const report = validateRegionalIndex(encoder.encode(JSON.stringify(dup)));
      expect(report.warnings.map((w) => w.rule)).toEqual(expect.arrayContaining(["duplicate-event-id", "duplicate-version-id"]));
      same(encoder.encode(JSON.stringify(dup)));
    }
  });
});

describe("the byte rules and fast paths match the rules they stand for", () => {
  test("`text` and `any` on the bytes are the dialect's check", () => {
    const event = shapes[0];
    const textShape = event.fields.headline;
    const anyShape = event.fields.english_translation.inner.fields.context_en;
    expect(byteRule(textShape)).toBe("non-empty");
    expect(byteRule(anyShape)).toBe("any");
    expect(byteRule(event.fields.published_at)).toBe("dialect");
    fc.assert(
      fc.property(fc.string({ unit: "binary" }), (s) => {
        expect(INDEX_DIALECT.string(textShape, s) === undefined).toBe(Buffer.byteLength(s) > 0);
        expect(INDEX_DIALECT.string(anyShape, s)).toBeUndefined();
      }),
    );
  });

  test("a URI the fast path accepts is a URI and an IRI for the full parser", () => {
    const alphabet = fc.constantFrom(..."aZ09-._~!$&'()*+,;=:@/?#%[]éf".split(""), "%2F", "%zz", "//", "://");
    const candidate = fc.tuple(fc.constantFrom("https", "h", "a+b.c-d", "1x", ""), fc.constantFrom("://", ":", ":/"), fc.array(alphabet, { maxLength: 30 })).map(([s, sep, rest]) => s + sep + rest.join(""));
    let simple = 0;
    fc.assert(
      fc.property(candidate, (s) => {
        if (!isSimpleUri(s)) return;
        simple++;
        expect(isUri(s), s).toBe(true);
        expect(isIri(s), s).toBe(true);
      }),
      { numRuns: 5000 },
    );
    expect(simple).toBeGreaterThan(100);
  });

  test("the id table answers as a Map of the ids does", () => {
    const id = fc.oneof(
      fc.tuple(fc.constantFrom("event-", "eventv-", "event", "x-", ""), fc.stringMatching(/^[0-9a-fA-F]{0,14}$/)).map(([p, h]) => p + h),
      fc.string(),
    );
    fc.assert(
      fc.property(fc.array(id, { maxLength: 300 }), (ids) => {
        const table = new IdTable("event-");
        const map = new Map<string, number>();
        ids.forEach((s, i) => {
          const first = map.get(s);
          if (first === undefined) map.set(s, i);
          expect(table.claim(s, i)).toBe(first ?? -1);
        });
      }),
    );
    // Leading zeros keep ids apart; growth keeps every entry.
    const table = new IdTable("event-");
    expect(table.claim("event-0a", 1)).toBe(-1);
    expect(table.claim("event-a", 2)).toBe(-1);
    expect(table.claim("event-00a", 3)).toBe(-1);
    expect(table.claim("event-0a", 4)).toBe(1);
    for (let i = 0; i < 20_000; i++) expect(table.claim(`event-${i.toString(16)}`, 10 + i)).toBe(i === 10 ? 2 : -1);
    for (let i = 0; i < 20_000; i += 997) expect(table.claim(`event-${i.toString(16)}`, 0)).toBe(i === 10 ? 2 : 10 + i);
  });
});

describe("the byte checker", () => {
  test("refuses shapes it cannot prove things about", () => {
    expect(() => new ByteShapeChecker(object({ a: float(0, 1) }), INDEX_DIALECT as never)).toThrow(/unsupported/);
    expect(() => new ByteShapeChecker(object({ a: str("text", 10) }, { optional: ["a"] }), INDEX_DIALECT as never)).toThrow(/unsupported/);
    expect(() => new ByteShapeChecker(record(["a"], int()), INDEX_DIALECT as never)).toThrow(/unsupported/);
    expect(() => new ByteShapeChecker(object({ 'a"b': bool() }), INDEX_DIALECT as never)).toThrow(/escape/);
    expect(() => new ByteShapeChecker(array(int(), { max: 3, unique: { key: "a" } }), INDEX_DIALECT as never)).toThrow(/unsupported/);
  });

  test("keeps to its span and needs the whole value", () => {
    const checker = new ByteShapeChecker(object({ a: int() }), INDEX_DIALECT as never);
    const b = Buffer.from('[{"a":1},{"a":2}]');
    expect(checker.check(b, 1, 8)).toEqual([1]);
    expect(checker.check(b, 1, 7)).toBeUndefined();
    expect(checker.check(b, 1, 9)).toBeUndefined();
    expect(checker.check(b, 9, 16)).toEqual([2]);
  });
});
