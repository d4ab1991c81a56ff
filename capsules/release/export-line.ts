/**
 * A released value in the JSONL export (issue 32 item 2): one canonical line per released value, after the approved
 * candidates' lines and before the signed checkpoint,
 *
 *     {"release":{"candidate_sha256":…,"capsule_sha256":…,"index":0,"kind":"wallets","nonce":"<64 hex>",
 *      "records":[…the signed release records…],"value":"…"},"schema_version":"evidence-bridge-release-export/v1"}
 *
 * so that a recipient checks, without our store: each record's shape and signature, that it names this candidate,
 * kind and index, and that SHA-256 over the domain, the nonce, the kind and the value is each record's commitment
 * ({@link releaseLineReport}). `review verify-export` refuses the whole export when a release line fails, when its
 * candidate is not an approved candidate of the same export, or when a signer is not pinned.
 */
import { canonicalBytes } from "../../src/json/canonical.js";
import { parseStrictJson } from "../../src/json/parse.js";
import { isJsonObject, type JsonValue } from "../../src/json/value.js";
import { firstControlOrFormat } from "../assessment/text-rules.js";
import type { ReviewerIdentity } from "../review/record.js";
import { releaseCommitment, releaseFromJson, releaseSignatureProblem, ReleaseShapeError, type ReleaseRecord } from "./record.js";
import type { ReleasedValue } from "./release.js";

export const RELEASE_EXPORT_SCHEMA = "evidence-bridge-release-export/v1";
const LINE_MEMBERS = ["release", "schema_version"];
const RELEASE_MEMBERS = ["candidate_sha256", "capsule_sha256", "index", "kind", "nonce", "records", "value"];
const HEX64 = /^[0-9a-f]{64}$/;

/** The line's value (`value` may be a stand-in: formats.ts guards a line rendered with one). */
export function releaseLineValue(r: ReleasedValue, value = r.value): Record<string, unknown> {
  return {
    release: {
      candidate_sha256: r.candidate_sha256,
      capsule_sha256: r.capsule_sha256,
      index: r.index,
      kind: r.kind,
      nonce: r.nonce,
      records: r.records,
      value,
    },
    schema_version: RELEASE_EXPORT_SCHEMA,
  };
}

/** The canonical line + LF. */
export function releaseLine(r: ReleasedValue, value = r.value): Uint8Array {
  const body = canonicalBytes(releaseLineValue(r, value), "release line");
  const out = new Uint8Array(body.length + 1);
  out.set(body);
  out[body.length] = 0x0a;
  return out;
}

/** True when the line's JSON is a release line (it has a `release` member); decision and checkpoint lines have none. */
export function isReleaseLineValue(v: JsonValue): boolean {
  return isJsonObject(v) && v.has("release");
}

export interface ReleaseLineReport {
  ok: boolean;
  problem?: string;
  candidate_sha256?: string;
  capsule_sha256?: string;
  kind?: string;
  index?: number;
  /** The distinct keys whose records verify. */
  reviewers: ReviewerIdentity[];
}

/** Checks one release line's bytes (without its LF). Never throws for bad content. */
export function releaseLineReport(raw: Uint8Array): ReleaseLineReport {
  const report: ReleaseLineReport = { ok: false, reviewers: [] };
  const fail = (problem: string): ReleaseLineReport => ({ ...report, ok: false, problem });
  let v: JsonValue;
  try {
    v = parseStrictJson(raw, { rootPath: "line" });
  } catch (e) {
    return fail(`not strict JSON (${(e as { rule?: string }).rule ?? "syntax"})`);
  }
  if (!isJsonObject(v) || [...v.keys()].sort().join(",") !== LINE_MEMBERS.join(",")) return fail("expected exactly release and schema_version");
  if (v.get("schema_version") !== RELEASE_EXPORT_SCHEMA) return fail(`schema_version: expected "${RELEASE_EXPORT_SCHEMA}"`);
  if (!Buffer.from(canonicalBytes(v, "line")).equals(Buffer.from(raw))) return fail("not in canonical form (the line was edited or re-serialised)");
  const rel = v.get("release");
  if (!isJsonObject(rel) || [...rel.keys()].sort().join(",") !== RELEASE_MEMBERS.join(",")) return fail(`release: expected exactly ${RELEASE_MEMBERS.join(", ")}`);
  const value = rel.get("value");
  const nonce = rel.get("nonce");
  const records = rel.get("records");
  report.candidate_sha256 = typeof rel.get("candidate_sha256") === "string" ? (rel.get("candidate_sha256") as string) : undefined;
  report.capsule_sha256 = typeof rel.get("capsule_sha256") === "string" ? (rel.get("capsule_sha256") as string) : undefined;
  report.kind = typeof rel.get("kind") === "string" ? (rel.get("kind") as string) : undefined;
  report.index = typeof rel.get("index") === "number" ? (rel.get("index") as number) : undefined;
  if (typeof value !== "string" || value === "") return fail("release.value: expected a non-empty string");
  if (firstControlOrFormat(value) !== undefined) return fail("release.value: contains a control or format character");
  if (typeof nonce !== "string" || !HEX64.test(nonce)) return fail("release.nonce: expected 64 lowercase hexadecimal digits");
  if (!Array.isArray(records) || records.length === 0) return fail("release.records: the value has no signed release (a released value needs its records)");
  const seen = new Set<string>();
  const verified: ReleaseRecord[] = [];
  for (let i = 0; i < records.length; i++) {
    let r: ReleaseRecord;
    try {
      r = releaseFromJson(records[i], `release.records[${i}]`);
    } catch (e) {
      if (e instanceof ReleaseShapeError) return fail(e.message);
      throw e;
    }
    const sig = releaseSignatureProblem(r);
    if (sig !== undefined) return fail(`release.records[${i}]: ${sig}`);
    if (r.candidate_sha256 !== report.candidate_sha256 || r.capsule_sha256 !== report.capsule_sha256 || r.kind !== report.kind || r.index !== report.index) {
      return fail(`release.records[${i}]: releases another candidate, capsule, kind or index than the line`);
    }
    if (r.commitment !== releaseCommitment(nonce, r.kind, value)) return fail(`release.records[${i}]: the record does not commit to this value (the value or the nonce was changed)`);
    if (seen.has(r.reviewer.fingerprint)) return fail(`release.records[${i}]: the same key twice`);
    seen.add(r.reviewer.fingerprint);
    verified.push(r);
  }
  return { ...report, ok: true, reviewers: verified.map((r) => r.reviewer) };
}
