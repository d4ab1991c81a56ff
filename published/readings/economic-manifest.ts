/**
 * The fixed economic observation manifest (hosted-tool-server.md §4.4), checked as the hosted server checks it,
 * with its messages. The manifest pins the ledger's URL and schema URLs under one published base: the check pins
 * them to a base the caller names, or else to the base the manifest itself declares for the ledger (which then
 * only has to be consistent; nothing is authenticated either way).
 */
import { sha256Hex } from "../../src/hash.js";
import { codePointLength, isJsonObject, type JsonObject, type JsonValue } from "../../src/json/value.js";
import { EconomicLedgerError } from "./economic-errors.js";
import { parseEconTimestamp } from "./iso-time.js";
import { pyIsBlank } from "./python-text.js";
import { parseServerJson } from "./strict-lines.js";

export const MANIFEST_SCHEMA_VERSION = "palimpsest-economic-observation-manifest.v1";
export const LEDGER_PATH = "readings/china-econ-observations.jsonl";
export const MANIFEST_PATH = "readings/china-econ-observations-latest.json";
export const MANIFEST_SCHEMA_PATH = "protocol/economic-observation-manifest-v1.schema.json";
export const OBSERVATION_SCHEMA_PATH = "protocol/economic-observation-v1.schema.json";
export const MAX_MANIFEST_BYTES = 262_144;
export const MAX_LEDGER_BYTES = 8_388_608;
export const MAX_LEDGER_ROWS = 20_000;
export const MAX_RECORD_BYTES = 262_144;
const MAX_TEXT = 8192;

const FIELDS = ["schema_version", "generated_at", "as_of", "source", "method", "scope", "n_observations", "artifact", "contract", "coverage", "integrity", "limitations"];
const ARTIFACT_FIELDS = ["path", "url", "media_type", "bytes", "sha256", "records"];
const INTEGRITY: Record<string, string | boolean> = {
  status: "verified",
  exact_byte_digest: true,
  observation_ids_verified: true,
  unique_observation_ids: true,
  monotonic_source_revisions: true,
};
export const SHA256 = /^[0-9a-f]{64}$/;

export interface LedgerArtifact {
  path: string;
  url: string;
  media_type: string;
  bytes: number;
  sha256: string;
  records: number;
}

export interface ParsedManifest {
  artifact: LedgerArtifact;
  /** The base the URLs were pinned to, and where it came from. */
  pinnedBase: string;
  pinnedBaseSource: "caller" | "manifest";
  /** What the hosted server passes on (§4.8 `manifest`), without its URLs. */
  retrieved_sha256: string;
  generated_at: string;
  as_of: string;
  scope: string;
  limitations: string[];
}

function fail(message: string): never {
  throw new EconomicLedgerError("manifest", message);
}

function sameKeys(obj: JsonObject, expected: readonly string[]): boolean {
  return obj.size === expected.length && expected.every((k) => obj.has(k));
}

function isInt(v: JsonValue | undefined): v is number {
  return typeof v === "number";
}

function isText(v: JsonValue | undefined): v is string {
  return typeof v === "string" && !pyIsBlank(v) && codePointLength(v) <= MAX_TEXT;
}

/** The base of an absolute http(s) URL ending in `/<LEDGER_PATH>`, or undefined. */
function baseOfLedgerUrl(url: string): string | undefined {
  const suffix = `/${LEDGER_PATH}`;
  if (!url.endsWith(suffix)) return undefined;
  const base = url.slice(0, -suffix.length);
  try {
    const parsed = new URL(base);
    return (parsed.protocol === "https:" || parsed.protocol === "http:") && parsed.host !== "" ? base : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Checks manifest bytes. `pinnedBase` (no trailing slash) is the published base the URLs must use; without it,
 * the base is taken from `artifact.url`. Throws {@link EconomicLedgerError} (stage `manifest`).
 */
export function parseEconomicManifest(raw: Uint8Array, pinnedBase?: string): ParsedManifest {
  if (raw.length === 0) fail("published observation manifest is empty");
  if (raw.length > MAX_MANIFEST_BYTES) fail(`published observation manifest exceeds ${MAX_MANIFEST_BYTES} bytes`);
  const manifest = parseServerJson(raw, "manifest", "published observation manifest is not valid JSON", "published observation manifest is not UTF-8");
  if (!isJsonObject(manifest)) fail("published observation manifest must be an object");
  const missing = FIELDS.filter((k) => !manifest.has(k)).sort();
  const unknown = [...manifest.keys()].filter((k) => !FIELDS.includes(k)).sort();
  if (missing.length || unknown.length) {
    const detail = [missing.length ? `missing ${missing.join(", ")}` : "", unknown.length ? `unknown ${unknown.join(", ")}` : ""].filter(Boolean);
    fail(`observation manifest fields do not match the v1 contract: ${detail.join("; ")}`);
  }
  if (manifest.get("schema_version") !== MANIFEST_SCHEMA_VERSION) fail("observation manifest schema_version is not supported");
  for (const field of ["generated_at", "as_of"]) {
    const value = manifest.get(field);
    if (parseEconTimestamp(value) === undefined) fail(`observation manifest ${field} must be a timezone-aware ISO-8601 timestamp`);
    if (!(value as string).endsWith("Z")) fail(`observation manifest ${field} must be normalized to UTC Z`);
  }
  for (const field of ["source", "method", "scope"]) {
    if (!isText(manifest.get(field))) fail(`observation manifest ${field} must be non-empty bounded text`);
  }

  const artifact = manifest.get("artifact");
  if (!isJsonObject(artifact) || !sameKeys(artifact, ARTIFACT_FIELDS)) fail("observation manifest artifact does not match the v1 contract");
  if (artifact.get("path") !== LEDGER_PATH) fail("observation manifest pins an unexpected artifact path");
  const url = artifact.get("url");
  const base = pinnedBase ?? (typeof url === "string" ? baseOfLedgerUrl(url) : undefined);
  if (base === undefined || url !== `${base}/${LEDGER_PATH}`) fail("observation manifest pins an unexpected artifact URL");
  if (artifact.get("media_type") !== "application/x-ndjson") fail("observation manifest pins an unexpected media type");
  for (const [field, maximum] of [["bytes", MAX_LEDGER_BYTES], ["records", MAX_LEDGER_ROWS]] as const) {
    const value = artifact.get(field);
    if (!isInt(value) || value < 1 || value > maximum) fail(`observation manifest artifact.${field} is outside the server bound`);
  }
  const digest = artifact.get("sha256");
  if (typeof digest !== "string" || !SHA256.test(digest)) fail("observation manifest artifact.sha256 is not lowercase SHA-256");
  const records = artifact.get("records") as number;
  if (manifest.get("n_observations") !== records) fail("observation manifest n_observations does not match artifact.records");

  const contract = manifest.get("contract");
  if (!isJsonObject(contract) || !sameKeys(contract, ["manifest_schema", "observation_schema", "aggregate_only", "bitemporal"])) {
    fail("observation manifest contract is malformed");
  }
  for (const [field, path] of [["manifest_schema", MANIFEST_SCHEMA_PATH], ["observation_schema", OBSERVATION_SCHEMA_PATH]] as const) {
    const ref = contract.get(field);
    if (!isJsonObject(ref) || !sameKeys(ref, ["path", "url"]) || ref.get("path") !== path || ref.get("url") !== `${base}/${path}`) {
      fail(`observation manifest contract.${field} is not the fixed schema`);
    }
  }
  if (contract.get("aggregate_only") !== true || contract.get("bitemporal") !== true) {
    fail("observation manifest must declare aggregate-only bitemporal rows");
  }
  if (!isJsonObject(manifest.get("coverage"))) fail("observation manifest coverage must be an object");

  const integrity = manifest.get("integrity");
  if (!isJsonObject(integrity) || !sameKeys(integrity, Object.keys(INTEGRITY))) fail("observation manifest integrity receipt is malformed");
  if (Object.entries(INTEGRITY).some(([k, v]) => integrity.get(k) !== v)) fail("observation manifest integrity receipt is not verified");

  const limitations = manifest.get("limitations");
  if (
    !Array.isArray(limitations) ||
    limitations.length < 3 ||
    limitations.length > 16 ||
    !limitations.every(isText) ||
    new Set(limitations).size !== limitations.length
  ) {
    fail("observation manifest limitations are malformed");
  }

  return {
    artifact: {
      path: LEDGER_PATH,
      url: url as string,
      media_type: "application/x-ndjson",
      bytes: artifact.get("bytes") as number,
      sha256: digest,
      records,
    },
    pinnedBase: base,
    pinnedBaseSource: pinnedBase === undefined ? "manifest" : "caller",
    retrieved_sha256: sha256Hex(raw),
    generated_at: manifest.get("generated_at") as string,
    as_of: manifest.get("as_of") as string,
    scope: manifest.get("scope") as string,
    limitations: limitations as string[],
  };
}
