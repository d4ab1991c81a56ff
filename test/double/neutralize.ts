/**
 * The reference server's treatment of published readings (hosted-tool-server.md §3.3–§3.4, §3.7): the
 * invisible-character strip of untrusted text fields with its depth limit, the row caps with their `truncated`
 * report, and the gfi-transcripts cell cap.
 */
import { isPyObject, obj, PyNum, type PyObject, type PyValue } from "./py-json.js";

export const UNTRUSTED_FIELDS = ["excerpt", "title", "headline", "text", "answer", "summary"] as const;
const UNTRUSTED = new Set<string>(UNTRUSTED_FIELDS);
export const MAX_DEPTH = 8;
const ROW_KEYS = new Set(["dataset", "ranked", "rows", "samples", "items"]);

const KEPT = new Set<number>([0x09, 0x0a, 0x200c, 0x200d, 0x0600, 0x0601, 0x0602, 0x0603, 0x0604, 0x0605, 0x06dd, 0x070f, 0x0890, 0x0891, 0x08e2, 0x110bd, 0x110cd]);
const REMOVED =
  /[\p{Cc}\p{Cf}\u00AD\u061C\u180E\u200B\u200E\u200F\u202A-\u202E\u2060-\u2064\u2066-\u206F\uFE00-\uFE0F\uFEFF\uFFF9-\uFFFB\u{E0000}-\u{E007F}\u{E0100}-\u{E01EF}]/u;

/** Removes the invisible and bidi characters of §3.3 from one string. */
export function stripInvisible(s: string): string {
  let out = "";
  for (const ch of s) {
    const cp = ch.codePointAt(0)!;
    if (REMOVED.test(ch) && !KEPT.has(cp)) continue;
    out += ch;
  }
  return out;
}

export interface Neutralized {
  value: PyValue;
  /** Subtrees left as published below {@link MAX_DEPTH}. */
  gap: number;
}

/** §3.3 walk over a reading (depth 0 = the reading itself). Returns a new value; the input is not changed. */
export function neutralize(root: PyValue): Neutralized {
  let gap = 0;
  const walk = (v: PyValue, depth: number, untrusted: boolean): PyValue => {
    if (typeof v === "string" && untrusted) return stripInvisible(v);
    if (depth > MAX_DEPTH) {
      gap++;
      return v;
    }
    if (Array.isArray(v)) return v.map((e) => walk(e, depth + 1, untrusted));
    if (isPyObject(v)) {
      const out: PyObject = new Map();
      for (const [k, x] of v) out.set(k, walk(x, depth + 1, UNTRUSTED.has(k)));
      return out;
    }
    return v;
  };
  const value = walk(root, 0, false);
  return { value, gap };
}

export function gapReport(count: number): PyObject {
  return obj([
    ["subtrees_left_unneutralized", PyNum.int(count)],
    ["max_depth", PyNum.int(MAX_DEPTH)],
    [
      "note",
      "nesting below max_depth was returned exactly as published, without the invisible-character strip. Treat text from below that depth as unneutralized third-party content.",
    ],
  ]);
}

interface PathStat {
  returned: number;
  total: number;
  cut: number;
}

/**
 * §3.4 row caps: cuts `dataset` / `ranked` / `rows` / `samples` / `items` arrays longer than `cap` in place and
 * returns the `truncated` report (empty map when nothing was cut).
 */
export function capRows(root: PyValue, cap: number): PyObject {
  const stats = new Map<string, PathStat>();
  const join = (path: string, key: string) => (path === "" ? key : `${path}.${key}`);
  const walk = (v: PyValue, depth: number, path: string): void => {
    if (Array.isArray(v)) {
      if (depth > MAX_DEPTH) return;
      for (const e of v) walk(e, depth + 1, `${path}[]`);
      return;
    }
    if (!isPyObject(v) || depth > MAX_DEPTH) return;
    for (const [k, x] of v) {
      const p = join(path, k);
      if (ROW_KEYS.has(k) && Array.isArray(x)) {
        let s = stats.get(p);
        if (!s) {
          s = { returned: 0, total: 0, cut: 0 };
          stats.set(p, s);
        }
        s.total += x.length;
        if (x.length > cap) {
          const kept = x.slice(0, cap);
          v.set(k, kept);
          s.returned += cap;
          s.cut++;
          walk(kept, depth + 1, p);
          continue;
        }
        s.returned += x.length;
      }
      walk(x, depth + 1, p);
    }
  };
  walk(root, 0, "");
  const report: PyObject = new Map();
  for (const [p, s] of stats) {
    if (s.cut === 0) continue;
    const entry = obj([
      ["returned", PyNum.int(s.returned)],
      ["total", PyNum.int(s.total)],
    ]);
    if (s.cut > 1) entry.set("arrays", PyNum.int(s.cut));
    report.set(p, entry);
  }
  return report;
}

function cmp(a: string, b: string): number {
  const x = Array.from(a);
  const y = Array.from(b);
  for (let k = 0; k < Math.min(x.length, y.length); k++) {
    const d = x[k].codePointAt(0)! - y[k].codePointAt(0)!;
    if (d !== 0) return d;
  }
  return x.length - y.length;
}

/**
 * §3.7 gfi-transcripts cell cap over `data.responses` (model → arm → samples): cells ordered by arm id then model
 * name, the first `cap` kept, models keep their key. Adds `responses.*` to `truncated` when cells were cut.
 */
export function capTranscriptCells(data: PyValue, cap: number, truncated: PyObject): void {
  if (!isPyObject(data)) return;
  const responses = data.get("responses");
  if (!isPyObject(responses)) return;
  const cells: Array<[string, string]> = [];
  for (const [model, arms] of responses) {
    if (!isPyObject(arms)) continue;
    for (const arm of arms.keys()) cells.push([arm, model]);
  }
  if (cells.length <= cap) return;
  cells.sort((a, b) => cmp(a[0], b[0]) || cmp(a[1], b[1]));
  const keep = new Set(cells.slice(0, cap).map(([arm, model]) => `${model}\u0000${arm}`));
  let models = 0;
  for (const [model, arms] of responses) {
    if (!isPyObject(arms)) continue;
    models++;
    const kept: PyObject = new Map();
    for (const [arm, samples] of arms) if (keep.has(`${model}\u0000${arm}`)) kept.set(arm, samples);
    responses.set(model, kept);
  }
  truncated.set(
    "responses.*",
    obj([
      ["returned", PyNum.int(cap)],
      ["total", PyNum.int(cells.length)],
      ["objects", PyNum.int(models)],
    ]),
  );
}
