/**
 * The private values the outward guard knows (product.md §2, the data boundary), collected from an assessment: IOC
 * values (detector IOCs and observation-bound values, with their IOC kind), `message_sha256`, the source
 * pseudonym (unless rule 4 lets it out), matched fragments, term and signal hits and detector signal names,
 * observation summaries, URIs and source ids/groups, market-rate warnings and monetary values. The raw message text
 * of this process is added by whoever holds it ({@link messageTextValue}).
 *
 * One collector reads both a parsed assessment (plain objects) and a leniently read stored document (the strict
 * JSON value model, Maps): whatever is there is collected, even in a document that would not pass intake today,
 * because a guard must not miss a value over a schema detail. Capsules are immutable under their id, so callers
 * cache per id (store-guard.ts).
 */
import { parseStrictJson } from "../../src/json/parse.js";
import { isJsonFloat, isJsonObject, type JsonObject } from "../../src/json/value.js";
import type { IntelligencePack } from "../../published/pack/types.js";
import { FALLBACK_RATE } from "../assessment/types.js";
import { decodeBase64Strict } from "../capsule/base64.js";
import { ownString } from "../../src/json/own-string.js";

/** What a private value is; reported instead of the value itself. */
export type PrivateKind =
  | "ioc_value"
  | "matched_term"
  | "term_hit"
  | "signal_name"
  | "observation_summary"
  | "observation_uri"
  | "observation_source"
  | "market_rate_warning"
  | "monetary_value"
  | "source_pseudonym"
  | "message_sha256"
  | "message_text";

/** The IOC kinds of an assessment (`detector.iocs` members). */
export type IocKind = "handles" | "phones" | "channels" | "wallets" | "emails" | "urls";
const IOC_KINDS: readonly string[] = ["handles", "phones", "channels", "wallets", "emails", "urls"];

/** One private value. Opaque: never print it. */
export interface PrivateValue {
  readonly kind: PrivateKind;
  readonly value: string;
  /** For `ioc_value`: its kind, which adds the kind's forms (phone digits, URL host, channel name...). */
  readonly ioc?: IocKind;
}

/** Reads member `key` of a plain object or a strict-JSON object. */
function get(v: unknown, key: string): unknown {
  if (isJsonObject(v)) return v.get(key);
  if (v !== null && typeof v === "object" && !Array.isArray(v) && !isJsonFloat(v) && Object.hasOwn(v, key)) {
    return (v as Record<string, unknown>)[key];
  }
  return undefined;
}

function entries(v: unknown): [string, unknown][] {
  if (isJsonObject(v)) return [...v];
  if (v !== null && typeof v === "object" && !Array.isArray(v) && !isJsonFloat(v)) return Object.entries(v);
  return [];
}

function list(v: unknown): unknown[] {
  return Array.isArray(v) ? v : [];
}

/** A number's text (a float keeps its lexeme). */
function numberText(v: unknown): string | undefined {
  if (typeof v === "number" && Number.isFinite(v)) return String(v);
  if (isJsonFloat(v)) return v.token ?? String(v.value);
  return undefined;
}

/** True when the pseudonym may appear outward (product.md §8 rule 4). */
export function pseudonymAllowed(assessment: { collection: { surface?: unknown; authorization?: unknown } }): boolean {
  const c = assessment.collection;
  return c.surface === "public_channel" && c.authorization === "public";
}

/** The literal terms of the pack's indicator. */
function packTerms(pack: IntelligencePack, typologyId: unknown, indicatorId: unknown): ReadonlySet<string> {
  if (typeof typologyId !== "string" || typeof indicatorId !== "string") return new Set();
  const t = pack.typologyById.get(typologyId);
  const ind = t?.indicators.find((i) => i.id === indicatorId);
  return new Set(ind ? [...ind.any_terms, ...ind.all_terms] : []);
}

/**
 * The private values of one assessment (a parsed `Assessment` or a leniently read document). With `pack`, a term
 * hit that is a literal term of the pack's own indicator is public vocabulary a pack-rendered label may contain
 * (e.g. `feiqian`), so it is left out; without a pack every term hit is collected (stricter).
 */
export function assessmentPrivateValues(doc: unknown, pack?: IntelligencePack): PrivateValue[] {
  const out: PrivateValue[] = [];
  const seen = new Set<string>();
  const add = (kind: PrivateKind, value: unknown, ioc?: IocKind): void => {
    if (typeof value !== "string" || value === "") return;
    const key = `${kind}\u0000${ioc ?? ""}\u0000${value}`;
    if (seen.has(key)) return;
    seen.add(key);
    // Values outlive the parsed document (a store guard keeps them for the life of a process): each gets characters
    // of its own, so it does not keep the whole assessment text alive (src/json/own-string.ts).
    const own = ownString(value);
    out.push(ioc === undefined ? { kind, value: own } : { kind, value: own, ioc });
  };
  const detector = get(doc, "detector");
  for (const [k, values] of entries(get(detector, "iocs"))) {
    const ioc = IOC_KINDS.includes(k) ? (k as IocKind) : undefined;
    for (const v of list(values)) add("ioc_value", v, ioc);
  }
  for (const s of list(get(detector, "signals"))) add("signal_name", get(s, "name"));
  for (const f of list(get(get(doc, "threat_assessment"), "findings"))) {
    for (const [, frags] of entries(get(f, "matched_terms"))) for (const v of list(frags)) add("matched_term", v);
  }
  for (const h of list(get(doc, "hypotheses"))) {
    for (const m of list(get(h, "matched_indicators"))) {
      const literals = pack ? packTerms(pack, get(h, "typology_id"), get(m, "id")) : new Set<string>();
      for (const t of list(get(m, "term_hits"))) if (typeof t !== "string" || !literals.has(t)) add("term_hit", t);
    }
    for (const o of list(get(h, "external_observations"))) {
      const kind = get(o, "matched_ioc_kind");
      add("ioc_value", get(o, "matched_ioc_value"), typeof kind === "string" && IOC_KINDS.includes(kind) ? (kind as IocKind) : undefined);
      add("observation_summary", get(o, "summary"));
      add("observation_uri", get(o, "artifact_uri"));
      add("observation_source", get(o, "source_id"));
      add("observation_source", get(o, "source_group"));
    }
  }
  const market = get(doc, "market_rate");
  for (const w of list(get(market, "warnings"))) add("market_rate_warning", w);
  // A FALLBACK rate is no reading: it is the producer's documented constant (assessment-v1 §2.6), the same in every
  // such assessment (every one `assess` derives), so guarding it would refuse every note that says "90".
  const rate = numberText(get(market, "rate"));
  if (!(get(market, "status") === "FALLBACK" && rate !== undefined && Number(rate) === Number(FALLBACK_RATE))) add("monetary_value", rate);
  add("monetary_value", numberText(get(market, "spread_pct")));
  const collection = get(doc, "collection");
  if (!(get(collection, "surface") === "public_channel" && get(collection, "authorization") === "public")) {
    add("source_pseudonym", get(collection, "source_pseudonym"));
  }
  add("message_sha256", get(doc, "message_sha256"));
  return out;
}

/** A raw message text of this process as a private value. */
export function messageTextValue(text: string): PrivateValue {
  return { kind: "message_text", value: text };
}

/** An inline artifact the caller has already parsed: its base64 text and the document. */
export interface ParsedArtifact {
  data: string;
  doc: JsonObject;
}

/**
 * The documents inside a capsule envelope: every inline artifact whose bytes parse as a JSON object (`parsed`: one
 * the caller already parsed, taken as is instead of parsing its text a second time).
 */
function inlineDocuments(envelope: JsonObject, parsed?: ParsedArtifact): JsonObject[] {
  const docs: JsonObject[] = [];
  for (const a of list(get(get(envelope, "content"), "artifacts"))) {
    const location = get(a, "location");
    const data = get(location, "data");
    if (get(location, "type") !== "inline" || typeof data !== "string") continue;
    if (parsed !== undefined && data === parsed.data) {
      docs.push(parsed.doc);
      continue;
    }
    try {
      const doc = parseStrictJson(decodeBase64Strict(data));
      if (isJsonObject(doc)) docs.push(doc);
    } catch {
      // Not a JSON artifact: it holds no assessment fields.
    }
  }
  return docs;
}

/**
 * The private values of one capsule envelope (none for capsules without an inline assessment); `pack` as in
 * {@link assessmentPrivateValues}.
 */
export function capsulePrivateValues(envelope: JsonObject, pack?: IntelligencePack, parsed?: ParsedArtifact): PrivateValue[] {
  return inlineDocuments(envelope, parsed).flatMap((doc) => assessmentPrivateValues(doc, pack));
}
