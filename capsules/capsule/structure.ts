/**
 * Envelope and content structure (capsule-v1 §7), in the exact normative order: the first failure ends
 * validation and its message is the only schema error. On success the typed {@link CapsuleModel} is returned.
 */
import { CanonicalError, canonicalBytes, canonicalText } from "../../src/json/canonical.js";
import { compareCodePoints, type JsonObject, type JsonValue } from "../../src/json/value.js";
import {
  arrayAt,
  CapsuleSchemaError,
  echoValue,
  fieldsAt,
  identifierAt,
  integerAt,
  mediaTypeAt,
  objectAt,
  oneOfAt,
  refsAt,
  sha256At,
  textAt,
  timestampAt,
} from "./fields.js";
import {
  CONTENT_CANONICALIZATION,
  SPEC_VERSION,
  type Artifact,
  type ArtifactLocation,
  type Binding,
  type CapsuleModel,
  type Claim,
  type Derivation,
  type DerivationProof,
  type MerkleStep,
} from "./model.js";
import { ARTIFACT_MAX_BYTES, ARTIFACTS_TOTAL_MAX_BYTES, INLINE_DATA_MAX_CHARS, PATH_MAX_CHARS } from "./limits.js";


const ENVELOPE_FIELDS = ["content", "content_sha256", "attestations"] as const;
const CONTENT_FIELDS = [
  "spec_version",
  "canonicalization",
  "created_at",
  "producer",
  "subject",
  "artifacts",
  "claims",
  "derivations",
  "intents",
  "bindings",
] as const;
const ARTIFACT_FIELDS = ["id", "sha256", "size", "media_type", "source", "untrusted", "location"] as const;
const CLAIM_FIELDS = [
  "id",
  "type",
  "statement",
  "artifact_refs",
  "derivation_refs",
  "binding_refs",
  "evidence_level",
  "limitations",
] as const;
const DERIVATION_FIELDS = ["id", "type", "description", "input_artifact_refs", "supports_claim_refs", "proof"] as const;
const BINDING_FIELDS = [
  "id",
  "type",
  "artifact_ref",
  "payload_canonicalization",
  "entry",
  "inclusion_proof",
  "anchor",
] as const;
const ENTRY_FIELDS = ["seq", "ts", "source", "payload_sha256", "prev_hash", "entry_hash"] as const;
const INCLUSION_FIELDS = ["type", "seq", "entry_hash", "n_entries", "path", "merkle_root"] as const;
const ANCHOR_FIELDS = [
  "type",
  "ledger",
  "prefix_entries",
  "head_hash",
  "merkle_root",
  "anchored_at",
  "input_artifact_ref",
  "proof_artifact_ref",
  "proof_type",
] as const;
const ATTESTATION_FIELDS = ["type", "content_sha256", "actor", "issued_at", "statement"] as const;

const SUBJECT_TYPES = ["reading", "analytical-lead", "evidence-set"] as const;
const CLAIM_TYPES = ["observation", "measurement", "provenance", "integrity", "analytical-lead"] as const;
const EVIDENCE_LEVELS = ["direct", "derived", "sampled", "reported"] as const;
const DERIVATION_TYPES = ["extraction", "calculation", "ranking", "analyst-judgment"] as const;
const INTENT_TYPES = ["human-review", "investigate", "preserve", "compare", "cite"] as const;
const ANCHOR_KEY = /^[a-z][a-z0-9_]*$/;

function fail(message: string): never {
  throw new CapsuleSchemaError(message);
}

/** Canonical bytes of content that passed §7 (or the canonicalization failure left after the domain check). */
export type CanonicalOutcome = { bytes: Uint8Array } | { error: CanonicalError };

export interface ContentResult {
  model: CapsuleModel;
  canonical: CanonicalOutcome;
}

/** §7.2–§7.9 over `content` (an object). Throws {@link CapsuleSchemaError} with the first failure. */
export function validateContent(content: JsonObject): ContentResult {
  const c = fieldsAt(content, "content", CONTENT_FIELDS);
  const version = c.get("spec_version");
  if (version !== SPEC_VERSION) fail(`content.spec_version: unsupported version ${echoValue(version)}`);
  const canon = c.get("canonicalization");
  if (canon !== CONTENT_CANONICALIZATION) fail(`content.canonicalization: unsupported algorithm ${echoValue(canon)}`);
  timestampAt(c.get("created_at"), "content.created_at");
  const producer = fieldsAt(c.get("producer"), "content.producer", ["name", "software"]);
  textAt(producer.get("name"), "content.producer.name");
  textAt(producer.get("software"), "content.producer.software");
  const subject = fieldsAt(c.get("subject"), "content.subject", ["type", "id", "title"]);
  oneOfAt(subject.get("type"), "content.subject.type", SUBJECT_TYPES, "unknown subject type");
  textAt(subject.get("id"), "content.subject.id");
  textAt(subject.get("title"), "content.subject.title");

  const artifacts = readArtifacts(c.get("artifacts"));
  const artifactIds = new Map(artifacts.map((a) => [a.id, a]));
  const claims = readClaims(c.get("claims"), artifactIds);
  const derivations = readDerivations(c.get("derivations"), artifactIds, new Set(claims.map((x) => x.id)));
  crossCheckDerivations(claims, derivations);
  readIntents(c.get("intents"));
  const bindings = readBindings(c.get("bindings"), artifactIds);
  crossCheckBindings(claims, bindings);

  return { model: { artifacts, claims, derivations, bindings }, canonical: domainCheck(content) };
}

/** §7.2 step 14: the domain check of §4.1.2; its canonical bytes are kept for the integrity step. */
function domainCheck(content: JsonObject): CanonicalOutcome {
  try {
    return { bytes: canonicalBytes(content, "content") };
  } catch (e) {
    // Domain violations carry a path; the only pathless failure is the output size, which is not a domain rule.
    if (e instanceof CanonicalError && e.path === undefined) return { error: e };
    if (e instanceof CanonicalError) fail(e.message);
    throw e;
  }
}

function readArtifacts(v: unknown): Artifact[] {
  const items = arrayAt(v, "content.artifacts", 64);
  if (items.length === 0) fail("content.artifacts: at least one exact artifact is required");
  const out: Artifact[] = [];
  const seen = new Set<string>();
  let declared = 0;
  items.forEach((item, i) => {
    const p = `content.artifacts[${i}]`;
    const a = fieldsAt(item, p, ARTIFACT_FIELDS);
    const id = identifierAt(a.get("id"), `${p}.id`);
    if (seen.has(id)) fail(`${p}.id: duplicate artifact id ${echoValue(id)}`);
    seen.add(id);
    const sha256 = sha256At(a.get("sha256"), `${p}.sha256`);
    const size = integerAt(a.get("size"), `${p}.size`, 0, ARTIFACT_MAX_BYTES);
    declared += size;
    if (declared > ARTIFACTS_TOTAL_MAX_BYTES) fail(`content.artifacts: declared bytes exceed ${ARTIFACTS_TOTAL_MAX_BYTES}`);
    mediaTypeAt(a.get("media_type"), `${p}.media_type`);
    const untrusted = a.get("untrusted");
    if (typeof untrusted !== "boolean") fail(`${p}.untrusted: expected boolean`);
    const source = fieldsAt(a.get("source"), `${p}.source`, ["uri", "captured_at", "collector"]);
    textAt(source.get("uri"), `${p}.source.uri`);
    timestampAt(source.get("captured_at"), `${p}.source.captured_at`);
    textAt(source.get("collector"), `${p}.source.collector`);
    out.push({ id, sha256, size, untrusted, location: readLocation(a.get("location"), `${p}.location`) });
  });
  return out;
}

function readLocation(v: unknown, p: string): ArtifactLocation {
  const loc = objectAt(v, p);
  const type = loc.get("type");
  if (type === "inline") {
    fieldsAt(loc, p, ["type", "encoding", "data"]);
    if (loc.get("encoding") !== "base64") fail(`${p}.encoding: only base64 is supported`);
    return { type, data: textAt(loc.get("data"), `${p}.data`, INLINE_DATA_MAX_CHARS, false) };
  }
  if (type === "path") {
    fieldsAt(loc, p, ["type", "path"]);
    return { type, path: textAt(loc.get("path"), `${p}.path`, PATH_MAX_CHARS) };
  }
  fail(`${p}.type: unknown location ${echoValue(type ?? null)}`);
}

function readClaims(v: unknown, artifactIds: Map<string, Artifact>): Claim[] {
  const items = arrayAt(v, "content.claims", 128);
  if (items.length === 0) fail("content.claims: at least one typed claim is required");
  const out: Claim[] = [];
  const seen = new Set<string>();
  items.forEach((item, i) => {
    const p = `content.claims[${i}]`;
    const c = fieldsAt(item, p, CLAIM_FIELDS);
    const id = identifierAt(c.get("id"), `${p}.id`);
    if (seen.has(id)) fail(`${p}.id: duplicate claim id ${echoValue(id)}`);
    seen.add(id);
    oneOfAt(c.get("type"), `${p}.type`, CLAIM_TYPES, "unknown claim type");
    textAt(c.get("statement"), `${p}.statement`);
    const artifactRefs = refsAt(c.get("artifact_refs"), `${p}.artifact_refs`);
    if (artifactRefs.length === 0) fail(`${p}.artifact_refs: at least one artifact is required`);
    for (const ref of artifactRefs) {
      if (!artifactIds.has(ref)) fail(`${p}.artifact_refs: unknown artifact ${echoValue(ref)}`);
    }
    const derivationRefs = refsAt(c.get("derivation_refs"), `${p}.derivation_refs`);
    const bindingRefs = refsAt(c.get("binding_refs"), `${p}.binding_refs`);
    const level = oneOfAt(c.get("evidence_level"), `${p}.evidence_level`, EVIDENCE_LEVELS, "unknown level");
    if (level === "derived" && derivationRefs.length === 0) fail(`${p}: derived evidence requires a derivation reference`);
    const limitations = arrayAt(c.get("limitations"), `${p}.limitations`);
    limitations.forEach((text, j) => textAt(text, `${p}.limitations[${j}]`));
    out.push({ id, artifactRefs, derivationRefs, bindingRefs });
  });
  return out;
}

function readDerivations(v: unknown, artifactIds: Map<string, Artifact>, claimIds: Set<string>): Derivation[] {
  const items = arrayAt(v, "content.derivations", 128);
  const out: Derivation[] = [];
  const seen = new Set<string>();
  items.forEach((item, i) => {
    const p = `content.derivations[${i}]`;
    const d = fieldsAt(item, p, DERIVATION_FIELDS);
    const id = identifierAt(d.get("id"), `${p}.id`);
    if (seen.has(id)) fail(`${p}.id: duplicate derivation id ${echoValue(id)}`);
    seen.add(id);
    oneOfAt(d.get("type"), `${p}.type`, DERIVATION_TYPES, "unknown derivation type");
    textAt(d.get("description"), `${p}.description`);
    const inputArtifactRefs = refsAt(d.get("input_artifact_refs"), `${p}.input_artifact_refs`);
    if (inputArtifactRefs.length === 0) fail(`${p}.input_artifact_refs: at least one input is required`);
    for (const ref of inputArtifactRefs) {
      if (!artifactIds.has(ref)) fail(`${p}: unknown input artifact ${echoValue(ref)}`);
    }
    const supportsClaimRefs = refsAt(d.get("supports_claim_refs"), `${p}.supports_claim_refs`);
    if (supportsClaimRefs.length === 0) fail(`${p}.supports_claim_refs: at least one claim is required`);
    for (const ref of supportsClaimRefs) {
      if (!claimIds.has(ref)) fail(`${p}: unknown supported claim ${echoValue(ref)}`);
    }
    const proof = readProof(d.get("proof"), `${p}.proof`, artifactIds, inputArtifactRefs);
    out.push({ id, inputArtifactRefs, supportsClaimRefs, proof });
  });
  return out;
}

/** A reference member that must name an artifact; any non-string is simply unknown (D5). */
function artifactRefAt(v: unknown, p: string, artifactIds: Map<string, Artifact>): string {
  if (typeof v !== "string" || !artifactIds.has(v)) fail(`${p}: unknown artifact`);
  return v;
}

function readProof(v: unknown, p: string, artifactIds: Map<string, Artifact>, inputs: string[]): DerivationProof {
  const proof = objectAt(v, p);
  const type = proof.get("type");
  if (type === "json-pointer-equals-v1") {
    fieldsAt(proof, p, ["type", "artifact_ref", "pointer", "expected"]);
    const artifactRef = artifactRefAt(proof.get("artifact_ref"), `${p}.artifact_ref`, artifactIds);
    if (!inputs.includes(artifactRef)) fail(`${p}.artifact_ref: not declared as an input`);
    const pointer = textAt(proof.get("pointer"), `${p}.pointer`, 16_384, false);
    if (pointer !== "" && !pointer.startsWith("/")) fail(`${p}.pointer: must be empty or start with /`);
    const expected = proof.get("expected") as JsonValue;
    try {
      canonicalText(expected, `${p}.expected`);
    } catch (e) {
      if (e instanceof CanonicalError) fail(e.message);
      throw e;
    }
    return { type, artifactRef, pointer, expected };
  }
  if (type === "declared-nonrecomputable-v1") {
    fieldsAt(proof, p, ["type", "reason"]);
    return { type, reason: textAt(proof.get("reason"), `${p}.reason`) };
  }
  fail(`${p}.type: unknown proof ${echoValue(type ?? null)}`);
}

/** §7.6, after all derivations are read (set lookups keep the worst case small: 128 claims × 128 derivations). */
function crossCheckDerivations(claims: Claim[], derivations: Derivation[]): void {
  const byId = new Map(derivations.map((d) => [d.id, { d, supports: new Set(d.supportsClaimRefs) }]));
  for (const claim of claims) {
    const cid = echoValue(claim.id);
    const cited = new Set(claim.artifactRefs);
    for (const ref of claim.derivationRefs) {
      const entry = byId.get(ref);
      if (entry === undefined) fail(`claim ${cid}: unknown derivation ${echoValue(ref)}`);
      if (!entry.supports.has(claim.id)) fail(`claim ${cid} and derivation ${echoValue(ref)} do not reference each other`);
      const missing = entry.d.inputArtifactRefs.filter((a) => !cited.has(a));
      if (missing.length > 0) {
        fail(`claim ${cid}: derivation ${echoValue(ref)} uses artifact(s) not cited by the claim: ${sortedList(missing)}`);
      }
    }
  }
  const refsOf = new Map(claims.map((cl) => [cl.id, new Set(cl.derivationRefs)]));
  for (const d of derivations) {
    for (const cid of d.supportsClaimRefs) {
      if (!refsOf.get(cid)!.has(d.id)) fail(`derivation ${echoValue(d.id)} and claim ${echoValue(cid)} do not reference each other`);
    }
  }
}

function sortedList(ids: string[]): string {
  return [...ids].sort(compareCodePoints).join(", ");
}

function readIntents(v: unknown): void {
  const items = arrayAt(v, "content.intents", 32);
  items.forEach((item, i) => {
    const p = `content.intents[${i}]`;
    const intent = fieldsAt(item, p, ["type", "summary", "advisory"]);
    oneOfAt(intent.get("type"), `${p}.type`, INTENT_TYPES, "unknown/non-advisory action");
    textAt(intent.get("summary"), `${p}.summary`);
    if (intent.get("advisory") !== true) fail(`${p}.advisory: v1 intents must be true`);
  });
}

function readBindings(v: unknown, artifactIds: Map<string, Artifact>): Binding[] {
  const items = arrayAt(v, "content.bindings", 32);
  const out: Binding[] = [];
  const seen = new Set<string>();
  items.forEach((item, i) => {
    const p = `content.bindings[${i}]`;
    const b = fieldsAt(item, p, BINDING_FIELDS);
    const id = identifierAt(b.get("id"), `${p}.id`);
    const type = b.get("type");
    if (type !== "palimpsest-ledger-anchor-v1") fail(`${p}.type: unknown binding ${echoValue(type)}`);
    const artifactRef = artifactRefAt(b.get("artifact_ref"), `${p}.artifact_ref`, artifactIds);
    if (b.get("payload_canonicalization") !== "palimpsest-ledger-python-json-v1") {
      fail(`${p}.payload_canonicalization: unsupported algorithm`);
    }
    const binding: Binding = {
      id,
      artifactRef,
      entry: readEntry(b.get("entry"), `${p}.entry`),
      inclusion: readInclusion(b.get("inclusion_proof"), `${p}.inclusion_proof`),
      anchor: readAnchor(b.get("anchor"), `${p}.anchor`, artifactIds),
    };
    if (seen.has(id)) fail(`${p}.id: duplicate binding id`);
    seen.add(id);
    out.push(binding);
  });
  return out;
}

function readEntry(v: unknown, p: string): Binding["entry"] {
  const e = fieldsAt(v, p, ENTRY_FIELDS);
  return {
    seq: integerAt(e.get("seq"), `${p}.seq`),
    ts: timestampAt(e.get("ts"), `${p}.ts`),
    source: textAt(e.get("source"), `${p}.source`),
    payloadSha256: sha256At(e.get("payload_sha256"), `${p}.payload_sha256`),
    prevHash: sha256At(e.get("prev_hash"), `${p}.prev_hash`),
    entryHash: sha256At(e.get("entry_hash"), `${p}.entry_hash`),
  };
}

function readInclusion(v: unknown, p: string): Binding["inclusion"] {
  const q = fieldsAt(v, p, INCLUSION_FIELDS);
  const type = q.get("type");
  if (type !== "palimpsest-merkle-duplicate-last-v1") fail(`${p}.type: unknown proof ${echoValue(type)}`);
  const seq = integerAt(q.get("seq"), `${p}.seq`);
  const nEntries = integerAt(q.get("n_entries"), `${p}.n_entries`, 1);
  const entryHash = sha256At(q.get("entry_hash"), `${p}.entry_hash`);
  const merkleRoot = sha256At(q.get("merkle_root"), `${p}.merkle_root`);
  const steps = arrayAt(q.get("path"), `${p}.path`, 64);
  const path: MerkleStep[] = steps.map((step, k) => {
    const sp = `${p}.path[${k}]`;
    const s = fieldsAt(step, sp, ["side", "hash"]);
    const side = s.get("side");
    if (side !== "left" && side !== "right") fail(`${sp}.side: unknown side`);
    return { side, hash: sha256At(s.get("hash"), `${sp}.hash`) };
  });
  return { seq, entryHash, nEntries, path, merkleRoot };
}

function readAnchor(v: unknown, p: string, artifactIds: Map<string, Artifact>): Binding["anchor"] {
  const a = fieldsAt(v, p, ANCHOR_FIELDS);
  const type = a.get("type");
  if (type !== "palimpsest-prefix-anchor-v1") fail(`${p}.type: unknown anchor type ${echoValue(type)}`);
  const ledger = identifierAt(a.get("ledger"), `${p}.ledger`);
  if (!ANCHOR_KEY.test(ledger)) fail(`${p}.ledger: must be usable as an anchor-input key`);
  const prefixEntries = integerAt(a.get("prefix_entries"), `${p}.prefix_entries`, 1);
  const headHash = sha256At(a.get("head_hash"), `${p}.head_hash`);
  const merkleRoot = sha256At(a.get("merkle_root"), `${p}.merkle_root`);
  const anchoredAt = timestampAt(a.get("anchored_at"), `${p}.anchored_at`);
  const inputArtifactRef = artifactRefAt(a.get("input_artifact_ref"), `${p}.input_artifact_ref`, artifactIds);
  const proofArtifactRef = artifactRefAt(a.get("proof_artifact_ref"), `${p}.proof_artifact_ref`, artifactIds);
  if (artifactIds.get(proofArtifactRef)!.untrusted !== true) {
    fail(`${p}.proof_artifact_ref: detached proof artifact must declare untrusted true`);
  }
  const proofType = a.get("proof_type");
  if (proofType !== "opentimestamps-detached-envelope-v1") fail(`${p}.proof_type: unknown proof ${echoValue(proofType)}`);
  return { ledger, prefixEntries, headHash, merkleRoot, anchoredAt, inputArtifactRef, proofArtifactRef };
}

/** §7.9. */
function crossCheckBindings(claims: Claim[], bindings: Binding[]): void {
  const byId = new Map(bindings.map((b) => [b.id, b]));
  for (const claim of claims) {
    for (const ref of claim.bindingRefs) {
      const b = byId.get(ref);
      if (b === undefined) fail(`claim ${echoValue(claim.id)}: unknown binding ${echoValue(ref)}`);
      if (!claim.artifactRefs.includes(b.artifactRef)) {
        fail(
          `claim ${echoValue(claim.id)}: binding ${echoValue(ref)} binds artifact ${echoValue(b.artifactRef)}, which the claim does not cite`,
        );
      }
    }
  }
}

/** §7.10: attestations against the declared content hash. Throws {@link CapsuleSchemaError}. */
export function validateAttestations(v: unknown, declaredHash: string): void {
  const items = arrayAt(v, "attestations", 64);
  items.forEach((item, i) => {
    const p = `attestations[${i}]`;
    const a = fieldsAt(item, p, ATTESTATION_FIELDS);
    const type = a.get("type");
    if (type !== "statement-v1") fail(`${p}.type: unknown attestation type ${echoValue(type)}`);
    const target = sha256At(a.get("content_sha256"), `${p}.content_sha256`);
    if (target !== declaredHash) fail(`${p}.content_sha256: does not target this capsule`);
    textAt(a.get("actor"), `${p}.actor`);
    timestampAt(a.get("issued_at"), `${p}.issued_at`);
    textAt(a.get("statement"), `${p}.statement`);
  });
}

/** Result of §7.1 with the §8.1 bookkeeping. */
export interface EnvelopeResult {
  /** The first schema failure, or undefined when the schema verified. */
  error?: string;
  /** The envelope's `content` when §7.1 steps 1–2 succeeded. */
  content?: JsonObject;
  /** The declared `content_sha256` when §7.1 step 3 succeeded, else "". */
  declaredHash: string;
  /** Whether §7.1 step 3 succeeded (then `attestations` is the envelope's member, whatever its kind). */
  hasAttestationList: boolean;
  attestations?: unknown;
  /** Set when the content rules passed. */
  contentResult?: ContentResult;
}

/** §7.1 over any value. Throws only on an internal error (never on input). */
export function validateEnvelope(v: unknown): EnvelopeResult {
  const out: EnvelopeResult = { declaredHash: "", hasAttestationList: false };
  try {
    const env = fieldsAt(v, "capsule", ENVELOPE_FIELDS);
    out.content = objectAt(env.get("content"), "content");
    out.declaredHash = sha256At(env.get("content_sha256"), "content_sha256");
    out.hasAttestationList = true;
    out.attestations = env.get("attestations");
    out.contentResult = validateContent(out.content);
    validateAttestations(out.attestations, out.declaredHash);
  } catch (e) {
    if (!(e instanceof CapsuleSchemaError)) throw e;
    out.error = e.message;
  }
  return out;
}
