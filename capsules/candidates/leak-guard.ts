/**
 * The leak guard (product.md §2, §8 rule 6): the ONE check every outward path runs on a candidate before it
 * leaves (feed, MCP results, review export).
 *
 * `collectPrivateValues(assessment)` gathers the assessment's private strings; `guardCandidate(candidate,
 * secrets)` searches every string of the candidate — member names and values, recursively — for any of them:
 * case-insensitively, also in the matcher's form F(x) = casefold(N(x)) (so confusable or invisible-character
 * variants are caught), IOC values also with separators removed, and hex secrets also by any 16-character window
 * (a truncated message hash still confirms the message). A hit withholds the candidate; the reason names the kind
 * of secret and the candidate path only, never the secret.
 */
import type { Assessment } from "../assessment/types.js";
import { matchForm } from "../../published/pack/normalize.js";
import type { IntelligencePack } from "../../published/pack/types.js";
import { indexPath, isJsonFloat, isJsonObject, memberPath } from "../../src/json/value.js";

/** What a private string is; reported instead of the string itself. */
export type PrivateKind =
  | "ioc_value"
  | "matched_term"
  | "term_hit"
  | "signal_name"
  | "observation_summary"
  | "observation_uri"
  | "observation_source"
  | "market_rate_warning"
  | "source_pseudonym"
  | "message_sha256";

interface Needle {
  readonly kind: PrivateKind;
  /** `toLowerCase()` form. */
  readonly lower: string;
  /** F(x) = casefold(N(x)) form. */
  readonly folded: string;
  /** IOC values only: the lower form without separators (kept only when long enough to be specific). */
  readonly compact?: string;
  /**
   * Hex secrets only (then {@link lower} is all hex, at least {@link HEX_WINDOW} long): any window of that many
   * characters of a hex run that occurs in {@link lower} is a hit.
   */
  readonly hex?: true;
}

/** The private strings of one assessment, prepared for searching. Opaque: never print it. */
export interface PrivateValues {
  readonly needles: readonly Needle[];
}

/** A hex run this long taken from a hex secret identifies it (2^64 possibilities). */
export const HEX_WINDOW = 16;
/** A compacted IOC shorter than this is not searched in compact form (too unspecific). */
const COMPACT_MIN = 8;
const SEPARATORS = /[\s\-+.()/_]/gu;
const HEX_RUN = /[0-9a-f]{16,}/g;
const SAFE_NAME = /^[a-z_][a-z0-9_]{0,63}$/;
const ASCII_ONLY = /^[\x00-\x7f]*$/;
/** Deeper nesting is not searched; it is reported instead. */
const MAX_DEPTH = 64;

export type GuardResult = { ok: true } | { ok: false; reason: string };

function needle(kind: PrivateKind, value: string): Needle | undefined {
  const lower = value.toLowerCase();
  if (lower.length === 0) return undefined;
  // A value made only of characters N removes has an empty F form: it is then searched in its lower form only.
  const f = matchForm(value);
  const folded = f.length > 0 ? f : lower;
  const out: { kind: PrivateKind; lower: string; folded: string; compact?: string; hex?: true } = {
    kind,
    lower,
    folded,
  };
  if (kind === "ioc_value") {
    const compact = lower.replace(SEPARATORS, "");
    if (compact.length >= COMPACT_MIN && compact !== lower) out.compact = compact;
  }
  if ((kind === "message_sha256" || kind === "source_pseudonym") && /^[0-9a-f]+$/.test(lower) && lower.length >= HEX_WINDOW) {
    out.hex = true;
  }
  return out;
}

/** True when the pseudonym may appear outward (product.md §8 rule 4). */
export function pseudonymAllowed(assessment: Pick<Assessment, "collection">): boolean {
  const c = assessment.collection;
  return c.surface === "public_channel" && c.authorization === "public";
}

/** The literal terms of the pack's indicators, by typology id then indicator id. */
function packTerms(pack: IntelligencePack, typologyId: string, indicatorId: string): ReadonlySet<string> {
  const t = pack.typologyById.get(typologyId);
  const ind = t?.indicators.find((i) => i.id === indicatorId);
  return new Set(ind ? [...ind.any_terms, ...ind.all_terms] : []);
}

/**
 * Collects the private strings of an assessment: exact IOC values (detector and observations), the threat
 * findings' matched fragments, term hits, detector signal names, observation summaries, URIs and source ids and
 * groups, market-rate warnings, the source pseudonym (unless rule 4 allows it) and the message hash.
 *
 * With `pack`, a term hit that is a literal term of the pack's own indicator is not collected: it is public
 * vocabulary that a pack-rendered label may legitimately contain (e.g. `feiqian` in the label of
 * `china-underground-banking`). Without a pack every term hit is collected (stricter).
 */
export function collectPrivateValues(assessment: Assessment, pack?: IntelligencePack): PrivateValues {
  const needles: Needle[] = [];
  const seen = new Set<string>();
  const add = (kind: PrivateKind, value: unknown): void => {
    if (typeof value !== "string") return;
    const key = `${kind}\u0000${value}`;
    if (seen.has(key)) return;
    seen.add(key);
    const n = needle(kind, value);
    if (n) needles.push(n);
  };
  const d = assessment.detector;
  for (const values of Object.values(d?.iocs ?? {})) for (const v of values ?? []) add("ioc_value", v);
  for (const s of d?.signals ?? []) add("signal_name", s?.name);
  for (const f of assessment.threat_assessment?.findings ?? []) {
    for (const frags of Object.values(f?.matched_terms ?? {})) for (const v of frags ?? []) add("matched_term", v);
  }
  for (const h of assessment.hypotheses ?? []) {
    for (const m of h?.matched_indicators ?? []) {
      const literals = pack ? packTerms(pack, h.typology_id, m?.id) : new Set<string>();
      for (const t of m?.term_hits ?? []) if (!literals.has(t)) add("term_hit", t);
    }
    for (const o of h?.external_observations ?? []) {
      add("ioc_value", o?.matched_ioc_value);
      add("observation_summary", o?.summary);
      add("observation_uri", o?.artifact_uri);
      add("observation_source", o?.source_id);
      add("observation_source", o?.source_group);
    }
  }
  for (const w of assessment.market_rate?.warnings ?? []) add("market_rate_warning", w);
  if (!pseudonymAllowed(assessment)) add("source_pseudonym", assessment.collection?.source_pseudonym);
  add("message_sha256", assessment.message_sha256);
  return { needles };
}

/** The kinds found in one string (each kind once). */
function kindsIn(s: string, secrets: PrivateValues): PrivateKind[] {
  const lower = s.toLowerCase();
  const ascii = ASCII_ONLY.test(s);
  let folded: string | undefined;
  let compact: string | undefined;
  let hexRuns: string[] | undefined;
  const found: PrivateKind[] = [];
  for (const n of secrets.needles) {
    if (found.includes(n.kind)) continue;
    let hit = lower.includes(n.lower);
    if (!hit && (n.folded !== n.lower || !ascii)) {
      // For ASCII, N is the identity and casefold is lowercasing: only a differently folded needle can still hit.
      folded ??= ascii ? lower : matchForm(s);
      hit = folded.includes(n.folded);
    }
    if (!hit && n.compact !== undefined) {
      compact ??= lower.replace(SEPARATORS, "");
      hit = compact.includes(n.compact);
    }
    if (!hit && n.hex) {
      hexRuns ??= lower.match(HEX_RUN) ?? [];
      hit = hexRuns.some((run) => hasWindow(run, n.lower));
    }
    if (hit) found.push(n.kind);
  }
  return found;
}

/**
 * Searches every string of `candidate` (member names and string values, recursively; plain objects, Maps and
 * arrays) for the private values. On hits the reason lists each kind with the candidate path where it was found;
 * a hit in a member name is reported as `a member name of <path>` (the name itself is never echoed, and paths
 * echo only plain lowercase identifiers).
 */
export function guardCandidate(candidate: unknown, secrets: PrivateValues): GuardResult {
  const live = liveNeedles(candidate, secrets);
  if (live !== undefined && live.length === 0) return { ok: true };
  return searchCandidate(candidate, live === undefined ? secrets : { needles: live });
}

/**
 * The needles that can hit some string of `candidate` (a subset of `secrets`, in order), or undefined when the
 * candidate nests deeper than the search goes (the full search then reports it). A needle that hits no string
 * changes no result of {@link kindsIn}, so searching with this subset finds exactly the same hits; usually it is
 * empty and the candidate passes after one pass over its strings instead of one per needle.
 *
 * Each form of every string the search would look at (lower, folded, compact, hex runs) is joined into one text
 * per form with NUL between strings; a needle without NUL found in a joined text lies within one string. Needles
 * that contain NUL are always kept.
 */
function liveNeedles(candidate: unknown, secrets: PrivateValues): Needle[] | undefined {
  const strings: string[] = [];
  if (!collectStrings(candidate, 0, strings)) return undefined;
  const lowers = strings.map((s) => s.toLowerCase());
  const lower = lowers.join(JOIN);
  // For ASCII strings the folded form is the lower form (see kindsIn): then only a differently folded needle
  // needs the folded text.
  const ascii = strings.every((s) => ASCII_ONLY.test(s));
  let folded: string | undefined;
  let compact: string | undefined;
  let hexWindows: Set<string> | undefined;
  const live: Needle[] = [];
  for (const n of secrets.needles) {
    let hit = n.lower.includes(JOIN) || lower.includes(n.lower);
    if (!hit && (n.folded !== n.lower || !ascii)) {
      folded ??= ascii ? lower : strings.map((s, i) => (ASCII_ONLY.test(s) ? lowers[i] : matchForm(s))).join(JOIN);
      hit = n.folded.includes(JOIN) || folded.includes(n.folded);
    }
    if (!hit && n.compact !== undefined) {
      compact ??= lowers.map((l) => l.replace(SEPARATORS, "")).join(JOIN);
      hit = n.compact.includes(JOIN) || compact.includes(n.compact);
    }
    if (!hit && n.hex) {
      hexWindows ??= windowsOf(lowers);
      for (const w of hexWindows) {
        if (!n.lower.includes(w)) continue;
        hit = true;
        break;
      }
    }
    if (hit) live.push(n);
  }
  return live;
}

const JOIN = "\u0000";

/** Every string {@link searchCandidate} checks (member names and string values); false when it nests too deep. */
function collectStrings(v: unknown, depth: number, out: string[]): boolean {
  if (depth > MAX_DEPTH) return false;
  if (typeof v === "string") out.push(v);
  else if (Array.isArray(v)) {
    for (const x of v) if (!collectStrings(x, depth + 1, out)) return false;
  } else if (isJsonObject(v)) {
    for (const [k, x] of v) {
      out.push(k);
      if (!collectStrings(x, depth + 1, out)) return false;
    }
  } else if (v !== null && typeof v === "object" && !isJsonFloat(v)) {
    for (const [k, x] of Object.entries(v)) {
      out.push(k);
      if (!collectStrings(x, depth + 1, out)) return false;
    }
  }
  return true;
}

/** Every {@link HEX_WINDOW}-character window of every hex run of the strings. */
function windowsOf(lowers: readonly string[]): Set<string> {
  const out = new Set<string>();
  for (const l of lowers) {
    for (const run of l.match(HEX_RUN) ?? []) for (let i = 0; i + HEX_WINDOW <= run.length; i++) out.add(run.slice(i, i + HEX_WINDOW));
  }
  return out;
}

/** True when some {@link HEX_WINDOW}-character window of `run` occurs in the hex secret `secret`. */
function hasWindow(run: string, secret: string): boolean {
  for (let i = 0; i + HEX_WINDOW <= run.length; i++) if (secret.includes(run.slice(i, i + HEX_WINDOW))) return true;
  return false;
}

/** The search itself: every string against every needle of `secrets`. */
function searchCandidate(candidate: unknown, secrets: PrivateValues): GuardResult {
  const hits: string[] = [];
  const check = (s: string, where: string): boolean => {
    const kinds = kindsIn(s, secrets);
    for (const kind of kinds) hits.push(`${kind} in ${where}`);
    return kinds.length > 0;
  };
  // Paths echo only plain lowercase identifiers that hold no secret; any other member name is `<member>`.
  const member = (path: string, k: string, x: unknown, depth: number): void => {
    const leaked = check(k, `a member name of ${path}`);
    walk(x, memberPath(path, leaked || !SAFE_NAME.test(k) ? "<member>" : k), depth + 1);
  };
  function walk(v: unknown, path: string, depth: number): void {
    if (depth > MAX_DEPTH) {
      hits.push(`unsearchable nesting at ${path}`);
      return;
    }
    if (typeof v === "string") check(v, path);
    else if (Array.isArray(v)) v.forEach((x, i) => walk(x, indexPath(path, i), depth + 1));
    else if (isJsonObject(v)) {
      for (const [k, x] of v) member(path, k, x, depth);
    } else if (v !== null && typeof v === "object" && !isJsonFloat(v)) {
      for (const [k, x] of Object.entries(v)) member(path, k, x, depth);
    }
  }
  walk(candidate, "candidate", 0);
  if (hits.length === 0) return { ok: true };
  return { ok: false, reason: `leak guard: ${summarize(hits)}` };
}

function summarize(hits: string[]): string {
  const unique = [...new Set(hits)];
  const shown = unique.slice(0, 8).join("; ");
  return unique.length > 8 ? `${shown}; and ${unique.length - 8} more` : shown;
}
