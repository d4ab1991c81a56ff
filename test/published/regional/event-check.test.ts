/**
 * The fast event check (event-check.ts) against the zod schema it stands in for: on every event of every fixture
 * and on thousands of random mutations of conforming events, `checkEvent` accepts exactly what
 * `eventSchema.safeParse(toPlain(v))` accepts with no float anywhere; what it returns is zod's output, and its
 * JSON text is the event's canonical text.
 */
import { readdirSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, test } from "vitest";
import { toPlain } from "../../../src/json/plain.js";
import { JsonFloat, type JsonValue } from "../../../src/json/value.js";
import { canonicalJsonText } from "../../../published/regional/canonical-digest.js";
import { BACKGROUND_STATUS, PROMPT_REVISION, TRANSLATION_STATUS } from "../../../published/regional/constants.js";
import { checkEvent } from "../../../published/regional/event-check.js";
import { hasFloat } from "../../../published/regional/findings.js";
import { IndexLoadError } from "../../../published/regional/load.js";
import { eventSchema } from "../../../published/regional/schema.js";
import { buildSyntheticIndex } from "../../../published/regional/synthetic.js";
import { loadRegionalInput } from "../../../published/regional/validate.js";
import { bytes, fixture, fixturesDir } from "./helpers.js";

/** The events of an index given as bytes, in the value model; none when the file is not strict JSON. */
function eventsOf(input: Uint8Array): JsonValue[] {
  let loaded;
  try {
    loaded = loadRegionalInput(input);
  } catch (e) {
    if (e instanceof IndexLoadError) return [];
    throw e;
  }
  if (loaded.kind !== "object" || loaded.events === undefined) return [];
  const out: JsonValue[] = [];
  for (let i = 0; i < loaded.events.count; i++) {
    try {
      out.push(loaded.events.get(i));
    } catch (e) {
      if (e instanceof IndexLoadError) return out;
      throw e;
    }
  }
  return out;
}

/** Checks one event both ways; returns whether it was accepted. */
function agree(ev: JsonValue, label: string): boolean {
  const ref = eventSchema.safeParse(toPlain(ev));
  const refAccepts = ref.success && !hasFloat(ev);
  const fast = checkEvent(ev);
  expect(fast !== undefined, `${label}: zod ${refAccepts ? "accepts" : "rejects"}`).toBe(refAccepts);
  if (fast !== undefined) {
    expect(fast, label).toEqual(ref.data);
    expect(JSON.stringify(fast), label).toBe(canonicalJsonText(ev));
  }
  return fast !== undefined;
}

/** Deterministic pseudo-random numbers (no flaky seeds). */
function lcg(seed: number): () => number {
  let s = seed;
  return () => (s = (s * 1103515245 + 12345) % 2147483648) / 2147483648;
}

function clone(v: JsonValue): JsonValue {
  if (Array.isArray(v)) return v.map(clone);
  if (v instanceof Map) return new Map([...v].map(([k, x]) => [k, clone(x)]));
  return v;
}

type Slot = { parent: JsonValue[] | Map<string, JsonValue>; key: number | string };

function slots(v: JsonValue, out: Slot[] = []): Slot[] {
  if (Array.isArray(v)) v.forEach((x, i) => (out.push({ parent: v, key: i }), slots(x, out)));
  else if (v instanceof Map) for (const [k, x] of v) out.push({ parent: v, key: k }), slots(x, out);
  return out;
}

function containers(v: JsonValue, out: (JsonValue[] | Map<string, JsonValue>)[] = []): (JsonValue[] | Map<string, JsonValue>)[] {
  if (Array.isArray(v)) (out.push(v), v.forEach((x) => containers(x, out)));
  else if (v instanceof Map) (out.push(v), [...v.values()].forEach((x) => containers(x, out)));
  return out;
}

const HEX24 = "0123456789abcdef01234567";
const HEX64 = "0123456789abcdef".repeat(4);

/** Values that are right somewhere in an event and wrong elsewhere, plus the classic edge cases. */
const POOL: JsonValue[] = [
  null, true, false, 0, 1, -1, 2, 9_007_199_254_740_991, -9_007_199_254_740_991,
  new JsonFloat(1, "1.0"), new JsonFloat(0, "0.0"), new JsonFloat(1.5, "1.5"), new JsonFloat(100, "1e2"),
  "", " ", "x", "=1", "\u0000", "a\nb", "é", "😀",
  "event-00ff", "event-00FF", "event-", "eventv-0a", "eventv-", "eventv-0A", "event-0a\n",
  "bri", "gwadar", "balochistan", "myanmar", "kashgar", "BRI",
  "2026-08-22T06:00:00Z", "2026-08-22T06:00:00.250+05:30", "2026-02-30T00:00:00Z", "2026-08-22 06:00:00Z", "2026-08-22T23:59:60Z",
  "https://x.example/a", "https://索引.example/新闻/", "/feed.xml", "mailto:desk@x.example", "https://x.example/a b",
  HEX64, HEX64.toUpperCase(), `zhtr-${HEX24}`, `zhtr-${HEX24}0`,
  `/news/china/english/#translation-zhtr-${HEX24}`, `/news/china/english/page/0/#translation-zhtr-${HEX24}`,
  "model-api", "model-router", "lite-model-1", "vendor/lite-model-1", "other-model",
  TRANSLATION_STATUS, BACKGROUND_STATUS, PROMPT_REVISION,
  [], ["a"], ["a", "a"], ["bri", "bri"], ["bri", "gwadar"], [1], [null], ["eventv-1", "eventv-2"], ["eventv-1", "eventv-1"],
  new Map(),
  new Map<string, JsonValue>([["source_id", "harbour-wire"], ["title", "t"], ["url", "https://x.example/"]]),
  new Map<string, JsonValue>([["source_id", "harbour-wire"], ["title", "t"], ["url", "/relative"]]),
];

const KEYS = ["unexpected", "__proto__", "constructor", "title", "status", "event_id", "0", "headline", "dek"];

function pick<T>(rnd: () => number, items: readonly T[]): T {
  return items[Math.floor(rnd() * items.length)];
}

/** One random change: replace, delete, add, or reshape an array, anywhere in the event. */
function mutate(ev: JsonValue, donor: JsonValue, rnd: () => number): JsonValue {
  const out = clone(ev);
  const mode = rnd();
  const all = slots(out);
  if (mode < 0.35) {
    const s = pick(rnd, all);
    const v = clone(pick(rnd, POOL));
    if (s.parent instanceof Map) s.parent.set(s.key as string, v);
    else s.parent[s.key as number] = v;
  } else if (mode < 0.55) {
    // Borrow the value another conforming event has at the same member: often still conforming.
    const s = pick(rnd, all);
    if (s.parent instanceof Map && donor instanceof Map && donor.has(s.key as string)) s.parent.set(s.key as string, clone(donor.get(s.key as string)!));
  } else if (mode < 0.7) {
    const maps = containers(out).filter((c): c is Map<string, JsonValue> => c instanceof Map);
    const m = pick(rnd, maps);
    if (rnd() < 0.5) m.delete(pick(rnd, [...m.keys()]));
    else m.set(pick(rnd, KEYS), clone(pick(rnd, POOL)));
  } else if (mode < 0.9) {
    const arrays = containers(out).filter((c): c is JsonValue[] => Array.isArray(c));
    if (arrays.length > 0) {
      const a = pick(rnd, arrays);
      const op = rnd();
      if (op < 0.3 && a.length > 0) a.push(clone(pick(rnd, a)));
      else if (op < 0.5) a.length = 0;
      else if (op < 0.7 && a.length > 0) a.splice(Math.floor(rnd() * a.length), 1);
      else if (op < 0.85) a.push(clone(pick(rnd, POOL)));
      else a.reverse();
    }
  } else {
    // Move a value from one member of the event to another.
    const from = pick(rnd, all);
    const to = pick(rnd, all);
    const v = clone(from.parent instanceof Map ? from.parent.get(from.key as string)! : from.parent[from.key as number]);
    if (to.parent instanceof Map) to.parent.set(to.key as string, v);
    else to.parent[to.key as number] = v;
  }
  return out;
}

describe("checkEvent agrees with the zod event schema", () => {
  test("on every event of every fixture, valid and broken", () => {
    let events = 0;
    let rejected = 0;
    for (const dir of ["valid", "broken"]) {
      for (const file of readdirSync(join(fixturesDir, dir)).filter((f) => f.endsWith(".json") && f !== "expected.json")) {
        eventsOf(fixture(`${dir}/${file}`)).forEach((ev, i) => {
          events++;
          if (!agree(ev, `${dir}/${file} events[${i}]`)) rejected++;
        });
      }
    }
    expect(events).toBeGreaterThan(250);
    // The broken fixtures that break an event rule: each has one rejected event.
    expect(rejected).toBeGreaterThan(40);
  });

  test("on thousands of random mutations of conforming events", () => {
    const sources = [
      ...["bri", "gwadar", "balochistan", "myanmar"].flatMap((r) => eventsOf(fixture(`valid/${r}.json`))),
      ...eventsOf(bytes(buildSyntheticIndex({ region: "myanmar", events: 30 }))),
    ];
    const rnd = lcg(11);
    let accepted = 0;
    const n = 4000;
    for (let k = 0; k < n; k++) {
      let ev = pick(rnd, sources);
      const changes = 1 + Math.floor(rnd() * 3);
      for (let c = 0; c < changes; c++) ev = mutate(ev, pick(rnd, sources), rnd);
      if (agree(ev, `mutation ${k}`)) accepted++;
    }
    // Both answers occur often enough for the agreement to mean something.
    expect(accepted).toBeGreaterThan(n / 20);
    expect(accepted).toBeLessThan(n - n / 5);
  });

  test("on values outside what the loader produces: non-objects, floats, empty objects", () => {
    for (const v of [null, 1, "event", [], new Map(), new JsonFloat(1, "1.0")] as JsonValue[]) expect(checkEvent(v)).toBeUndefined();
  });

  test("returns members in code-point order, so its JSON text is the canonical text", () => {
    for (const ev of eventsOf(fixture("valid/gwadar.json"))) {
      const typed = checkEvent(ev)!;
      const keys = Object.keys(typed);
      expect(keys).toEqual([...keys].sort());
      expect(JSON.stringify(typed)).toBe(canonicalJsonText(ev));
    }
  });
});
