/**
 * Generator of schema-valid assessments with a canary planted in every free-text field the assessment schema
 * allows (assessment-v1 §2): IOC values, raw matched fragments and finding limitations, market-rate warnings,
 * sources and URLs, pack reference texts, hypothesis labels, indicator labels and term hits, typology source
 * texts and ids, hypothesis limitations and evidence classes, indicator ids, classes and signal hits, observation
 * summaries, URIs, ids, groups and evidence classes, the origin answer, the pseudonym and the message hash (and
 * sometimes the typology id itself).
 *
 * Cheap by design: each case mutates a copy of one of the ten valid examples (in the strict value model, so float
 * lexemes survive), driven by a small seeded PRNG. The generated assessments pass the assessment schema but are
 * deliberately NOT consistent with the pack (labels, term hits and observations are canaries): the consistency
 * check is bypassed, as the capsule builder of the tests does.
 */
import { JsonFloat, type JsonObject, type JsonValue } from "../../../src/json/value.js";
import { cloneJson } from "./build-helpers.js";

export interface Knobs {
  template: number;
  seed: number;
  surface: number;
  /** 0..99: below 10 the first hypothesis gets an unknown (canary) typology id; 10..14 a foreign pack digest. */
  twist: number;
  extraObservation: boolean;
}

export interface CanaryCase {
  doc: JsonObject;
  /** Values that must never appear outward (lowercased comparison). */
  canaries: string[];
}

/** Coherent surface / authorization pairs (the schema rejects other pairings of the first two surfaces). */
const SURFACES: [string, string][] = [
  ["private_submission", "user_submitted"],
  ["guardian_group", "administrator_authorized"],
  ["public_channel", "public"],
  ["authorized_private_channel", "operator_authorized"],
  ["offline_import", "operator_authorized"],
];

/** Filler around canaries: several scripts, confusables, a zero-width joiner (only in raw fields). */
const FILLERS = ["Seller", "संपर्क करें", "联系我们", "Продавец", "vendedor", "ＦＵＬＬ", "wallet", "call", "рау"];
const RAW_FILLERS = ["\u200dzwj", "line\nbreak", "tab\tstop", "\u202eRLO"];

function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

class Planter {
  readonly canaries: string[] = [];
  private n = 0;
  constructor(private readonly rnd: () => number) {}

  pick<T>(items: readonly T[]): T {
    return items[Math.floor(this.rnd() * items.length)];
  }

  /** A fresh canary token: a lowercase identifier, unique within the case. */
  token(): string {
    let s = "zq";
    for (let i = 0; i < 10; i++) s += "abcdefghijklmnopqrstuvwxyz0123456789"[Math.floor(this.rnd() * 36)];
    const t = `${s}${(this.n++).toString(36)}`;
    this.canaries.push(t);
    return t;
  }

  hex(len: number): string {
    let s = "";
    for (let i = 0; i < len; i++) s += "0123456789abcdef"[Math.floor(this.rnd() * 16)];
    this.canaries.push(s);
    return s;
  }

  /** Free text (schema `text`): filler words around a canary. */
  text(): string {
    return `${this.pick(FILLERS)} ${this.token()} ${this.pick(FILLERS)}`;
  }

  /** Raw text (schema `raw`): may hold control and format characters. */
  raw(): string {
    return `${this.pick(RAW_FILLERS)} ${this.token()}${this.pick(RAW_FILLERS)}`;
  }
}

function obj(v: JsonValue | undefined): JsonObject {
  return v as JsonObject;
}

function arr(v: JsonValue | undefined): JsonValue[] {
  return v as JsonValue[];
}

const IOC_SHAPES: Record<string, (t: string) => string> = {
  handles: (t) => `@${t}`,
  phones: (t) => `+91 ${t}`,
  channels: (t) => `t.me/${t}`,
  wallets: (t) => `T${t}`,
  emails: (t) => `${t}@mail.example`,
  urls: (t) => `https://${t}.example/rates`,
};

function plantIocs(p: Planter, detector: JsonObject, hasObservations: boolean): void {
  const iocs = obj(detector.get("iocs"));
  if (iocs.size === 0 && !hasObservations && p.pick([true, false])) return; // keep `{}` sometimes
  const out: JsonObject = new Map();
  for (const [kind, shape] of Object.entries(IOC_SHAPES)) {
    const count = Math.floor(p.pick([0, 1, 1, 2, 3]));
    const values: string[] = [];
    for (let i = 0; i < count; i++) values.push(shape(p.token()));
    out.set(kind, values);
  }
  detector.set("iocs", out);
}

function plantFindings(p: Planter, threat: JsonObject): void {
  for (const f of arr(threat.get("findings")).map(obj)) {
    const terms = obj(f.get("matched_terms"));
    for (const cls of [...terms.keys()]) terms.set(cls, arr(terms.get(cls)).map(() => p.raw()));
    f.set("limitations", [p.text()]);
  }
}

function plantMarketRate(p: Planter, mr: JsonObject): void {
  mr.set("warnings", [p.raw(), p.raw()]);
  mr.set("sources", [p.token(), p.token()]);
  mr.set("source_urls", [`https://${p.token()}.example/q`]);
}

function plantPackRef(p: Planter, ref: JsonObject, foreignDigest: boolean): void {
  ref.set("version", p.token());
  ref.set("generated_at", p.token());
  ref.set("publisher", p.text());
  if (foreignDigest) ref.set("sha256", p.hex(64));
}

/** An extra observation with canary fields; `exact_ioc` binds an IOC of the assessment when one exists. */
function extraObservation(p: Planter, typologyId: string, iocs: JsonObject): JsonObject {
  const boundKinds = [...iocs].filter(([, v]) => arr(v).length > 0).map(([k]) => k);
  const exact = boundKinds.length > 0 && p.pick([true, false]);
  const kind = exact ? p.pick(boundKinds) : "";
  return new Map<string, JsonValue>([
    ["typology_id", typologyId],
    ["evidence_class", p.token()],
    ["source_id", p.token()],
    ["source_group", p.token()],
    ["source_kind", p.pick(["authoritative", "blockchain_analytics", "financial_institution", "public_osint", "local_history", "user_supplied"])],
    ["match_type", exact ? "exact_ioc" : p.pick(["context", "behavior", "entity"])],
    ["summary", p.text()],
    ["reliability", p.pick(["reported", "derived", "direct"])],
    ["artifact_uri", p.pick([`urn:fixture:${p.token()}`, `https://${p.token()}.example/case`, ""])],
    ["observed_at", p.pick(["", "2026-08-19T00:00:00Z"])],
    ["matched_ioc_kind", kind],
    ["matched_ioc_value", exact ? (p.pick(arr(iocs.get(kind))) as string) : ""],
  ]);
}

function plantHypothesis(p: Planter, h: JsonObject, iocs: JsonObject, knobs: Knobs, index: number): void {
  if (index === 0 && knobs.twist < 10) h.set("typology_id", p.token());
  const typologyId = h.get("typology_id") as string;
  h.set("label", p.text());
  for (const m of arr(h.get("matched_indicators")).map(obj)) {
    // Renaming the indicator removes the message match (it is no longer an indicator of the pack) in half the cases.
    if (p.pick([true, false])) m.set("id", p.token());
    m.set("label", p.text());
    m.set("evidence_class", p.token());
    m.set("term_hits", arr(m.get("term_hits")).map(() => p.text()));
    m.set("signal_hits", arr(m.get("signal_hits")).map(() => p.token()));
  }
  const observations = arr(h.get("external_observations")).map(obj);
  if (knobs.extraObservation && index === 0) observations.push(extraObservation(p, typologyId, iocs));
  for (const o of observations) {
    o.set("typology_id", typologyId);
    o.set("summary", p.text());
    o.set("source_id", p.token());
    o.set("source_group", p.token());
    o.set("evidence_class", p.token());
    if (o.get("artifact_uri") !== "") o.set("artifact_uri", `urn:fixture:${p.token()}`);
    if (o.get("match_type") === "exact_ioc") {
      // Re-bind to a planted IOC of the same kind (M2), or make it a plain entity observation.
      const values = arr(iocs.get(o.get("matched_ioc_kind") as string) ?? []);
      if (values.length > 0) o.set("matched_ioc_value", p.pick(values) as string);
      else {
        o.set("match_type", "entity");
        o.set("matched_ioc_kind", "");
        o.set("matched_ioc_value", "");
      }
    }
  }
  h.set("external_observations", observations);
  const directObs = observations.some(
    (o) => o.get("source_kind") === "authoritative" && o.get("match_type") === "exact_ioc" && o.get("reliability") === "direct",
  );
  // The claimed level: anything the schema accepts (DIRECT_LINK only with a direct exact-IOC observation).
  h.set("support_level", p.pick(directObs ? ["TYPOLOGY_MATCH", "CORROBORATED_LEAD", "DIRECT_LINK"] : ["TYPOLOGY_MATCH", "CORROBORATED_LEAD"]));
  h.set("independent_backers", 1 + Math.floor(p.pick([0, 1, 2, 98])));
  h.set("evidence_classes", [p.token(), p.token()].sort());
  // One source and two limitations keep the case small (cheap to hash); every text is a canary.
  const source = obj(arr(h.get("typology_sources"))[0]);
  source.set("id", p.token());
  source.set("publisher", p.text());
  source.set("title", p.text());
  source.set("published_at", p.token());
  source.set("url", `https://${p.token()}.example/report`);
  h.set("typology_sources", [source]);
  h.set("limitations", [p.text(), p.text()]);
}

/** One generated case from one of the templates. */
export function canaryCase(templates: readonly JsonObject[], knobs: Knobs): CanaryCase {
  const p = new Planter(mulberry32(knobs.seed));
  const doc = cloneJson(templates[knobs.template % templates.length]);
  const hypotheses = arr(doc.get("hypotheses")).map(obj);
  const detector = obj(doc.get("detector"));
  plantIocs(p, detector, hypotheses.some((h) => arr(h.get("external_observations")).length > 0));
  plantFindings(p, obj(doc.get("threat_assessment")));
  plantMarketRate(p, obj(doc.get("market_rate")));
  plantPackRef(p, obj(doc.get("intelligence_pack")), knobs.twist >= 10 && knobs.twist < 15);
  const iocs = obj(detector.get("iocs"));
  hypotheses.forEach((h, i) => plantHypothesis(p, h, iocs, knobs, i));
  doc.set("origin_answer", p.text());
  doc.set("message_sha256", p.hex(64));

  const [surface, authorization] = SURFACES[knobs.surface % SURFACES.length];
  const collection = obj(doc.get("collection"));
  collection.set("surface", surface);
  collection.set("authorization", authorization);
  const pseudonym = p.hex(24);
  collection.set("source_pseudonym", pseudonym);
  // Rule 4 allows the pseudonym outward for public channels only: there it is not a canary.
  if (surface === "public_channel") p.canaries.splice(p.canaries.indexOf(pseudonym), 1);
  // Keep the float lexemes of the market rate exactly as the producer wrote them.
  const mr = obj(doc.get("market_rate"));
  if (!(mr.get("rate") instanceof JsonFloat)) throw new Error("template market_rate.rate must be a float");
  return { doc, canaries: p.canaries };
}
