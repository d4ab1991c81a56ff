/**
 * The fixed economic observation ledger (hosted-tool-server.md §4.3 step 4 and §4.5): the byte receipt against the
 * manifest, checked before any row is parsed, then every row rule the hosted server applies, with its messages
 * (`line <n>` prefixes, lines numbered as Python's `str.splitlines()` numbers them).
 */
import { sha256Hex } from "../../src/hash.js";
import { pyRepr } from "../../src/json/echo.js";
import { indexPath, isJsonFloat, isJsonObject, JsonFloat, memberPath, type JsonObject, type JsonValue } from "../../src/json/value.js";
import { EconomicLedgerError } from "./economic-errors.js";
import { MAX_LEDGER_BYTES, MAX_LEDGER_ROWS, MAX_RECORD_BYTES, SHA256, type LedgerArtifact } from "./economic-manifest.js";
import { compareEconTimestamps, parseEconDate, parseEconTimestamp, type EconTimestamp } from "./iso-time.js";
import { pythonAsciiJson } from "./python-json.js";
import { pyIsBlank, pySplitlines } from "./python-text.js";
import { parseServerJson } from "./strict-lines.js";

const ROW_FIELDS = [
  "series_id", "value", "unit", "frequency", "period_start", "period_end", "released_at", "collected_at", "source_id",
  "evidence_url", "revision", "status", "geography", "sector", "firm_size", "ownership", "quality", "raw_sha256",
  "metadata", "observation_id",
];
const STRING_FIELDS = ["series_id", "unit", "frequency", "source_id", "evidence_url", "status", "geography", "sector", "firm_size", "ownership"];
const VINTAGE_KEY = ["series_id", "geography", "sector", "firm_size", "ownership", "period_start", "period_end", "source_id"];
const SLICE_KEY = ["series_id", "geography", "sector", "firm_size", "ownership", "source_id"];
const FREQUENCIES = new Set(["event", "D", "W", "M", "Q", "A"]);
const STATUS_RANK: Record<string, number> = { forecast: 0, estimate: 1, observed: 2 };

/** The 32 metadata keys the server allows, at every level (hosted-tool-server.md §4.5). */
export const METADATA_KEYS: ReadonlySet<string> = new Set([
  "family", "method_version", "release_time_semantics", "aggregation_method", "aggregation_level", "aggregation_window",
  "seasonal_adjustment", "price_basis", "index_base", "source_series_id", "source_table_id", "source_release_id",
  "source_document_sha256", "source_manifest_sha256", "source_document_version", "parser_version", "schema_version",
  "transform", "transform_version", "observation_count", "sample_size", "suppression_threshold", "coverage_start",
  "coverage_end", "provenance", "methodology", "coverage", "frequency", "geography", "sector", "firm_size", "ownership",
]);

function fail(message: string): never {
  throw new EconomicLedgerError("rows", message);
}

/** §4.3 step 4: exact length, SHA-256 and newline count, before any parsing. */
export function verifyLedgerReceipt(raw: Uint8Array, artifact: LedgerArtifact): void {
  const receipt = (message: string): never => {
    throw new EconomicLedgerError("receipt", message);
  };
  if (raw.length > MAX_LEDGER_BYTES) receipt(`published observation ledger exceeds ${MAX_LEDGER_BYTES} bytes`);
  if (raw.length !== artifact.bytes) receipt("observation ledger byte count does not match the fixed manifest");
  if (sha256Hex(raw) !== artifact.sha256) receipt("observation ledger SHA-256 does not match the fixed manifest");
  let newlines = 0;
  for (let i = 0; i < raw.length; i++) if (raw[i] === 0x0a) newlines++;
  if (newlines !== artifact.records) receipt("observation ledger record count does not match the fixed manifest");
}

function isNumber(v: JsonValue): v is number | JsonFloat {
  return typeof v === "number" || isJsonFloat(v);
}

function numeric(v: number | JsonFloat): number {
  return typeof v === "number" ? v : v.value;
}

function checkMetadata(value: JsonValue, path: string): void {
  if (Array.isArray(value)) value.forEach((x, i) => checkMetadata(x, indexPath(path, i)));
  else if (isJsonObject(value)) {
    for (const [key, child] of value) {
      if (!METADATA_KEYS.has(key)) fail(`${path} key ${pyRepr(key)} is not allowlisted`);
      checkMetadata(child, memberPath(path, key));
    }
  }
  // Strings, booleans, null, integers and (finite, as the strict loader guarantees) floats are allowed.
}

/** urlsplit-like reading of an evidence URL: scheme, host, credentials (§4.5). */
function checkEvidenceUrl(url: string, prefix: string): void {
  const colon = url.indexOf(":");
  const scheme = colon > 0 && /^[A-Za-z][A-Za-z0-9+.-]*$/.test(url.slice(0, colon)) ? url.slice(0, colon).toLowerCase() : "";
  const rest = scheme ? url.slice(colon + 1) : url;
  let netloc = "";
  if (rest.startsWith("//")) {
    const end = rest.slice(2).search(/[/?#]/);
    netloc = end === -1 ? rest.slice(2) : rest.slice(2, 2 + end);
  }
  if (netloc.includes("[") !== netloc.includes("]")) fail(`${prefix}.evidence_url is invalid`);
  const at = netloc.lastIndexOf("@");
  const hostPort = netloc.slice(at + 1);
  const host = hostPort.startsWith("[") ? hostPort.slice(1, hostPort.indexOf("]")) : hostPort.split(":")[0];
  if ((scheme !== "http" && scheme !== "https") || host === "") fail(`${prefix}.evidence_url must be an absolute http(s) URL`);
  if (at !== -1) fail(`${prefix}.evidence_url must not contain URL credentials`);
}

interface Checked {
  row: JsonObject;
  released: EconTimestamp;
  collected: EconTimestamp;
}

/** Every single-row rule of §4.5, in the server's order. */
function checkRow(row: JsonValue, lineno: number): Checked {
  const prefix = `line ${lineno}`;
  if (!isJsonObject(row)) fail(`${prefix} must be a JSON object`);
  const missing = ROW_FIELDS.filter((k) => !row.has(k)).sort();
  const extra = [...row.keys()].filter((k) => !ROW_FIELDS.includes(k)).sort();
  if (missing.length) fail(`${prefix} is missing required fields: ${missing.join(", ")}`);
  if (extra.length) fail(`${prefix} has unknown fields: ${extra.join(", ")}`);
  for (const field of STRING_FIELDS) {
    const v = row.get(field);
    if (typeof v !== "string" || pyIsBlank(v)) fail(`${prefix}.${field} must be a non-empty string`);
  }
  const dates = ["period_start", "period_end"].map((field) => {
    const d = parseEconDate(row.get(field));
    if (!d.ok) fail(`${prefix}.${field} ${d.reason === "not-iso-date" ? "must be an ISO-8601 date" : "must use YYYY-MM-DD form"}`);
    return d.days;
  });
  if (dates[1] < dates[0]) fail(`${prefix}.period_end precedes period_start`);
  const [released, collected] = ["released_at", "collected_at"].map((field) => {
    const t = parseEconTimestamp(row.get(field));
    if (t === undefined) fail(`${prefix}.${field} must be a timezone-aware ISO-8601 timestamp`);
    return t;
  });
  if (compareEconTimestamps(collected, released) < 0) fail(`${prefix}.collected_at precedes released_at`);
  const revision = row.get("revision")!;
  if (typeof revision !== "number" || revision < 0) fail(`${prefix}.revision must be a non-negative integer`);
  for (const field of ["value", "quality"]) {
    if (!isNumber(row.get(field)!)) fail(`${prefix}.${field} must be a finite number`);
  }
  const quality = numeric(row.get("quality") as number | JsonFloat);
  if (!(quality >= 0 && quality <= 1)) fail(`${prefix}.quality must lie in [0, 1]`);
  if (!FREQUENCIES.has(row.get("frequency") as string)) fail(`${prefix}.frequency is not recognized`);
  if (!Object.hasOwn(STATUS_RANK, row.get("status") as string)) fail(`${prefix}.status is not recognized`);
  const metadata = row.get("metadata")!;
  if (!isJsonObject(metadata)) fail(`${prefix}.metadata must be an object`);
  checkMetadata(metadata, `${prefix}.metadata`);
  checkEvidenceUrl(row.get("evidence_url") as string, prefix);
  const raw = row.get("raw_sha256");
  if (raw !== null && (typeof raw !== "string" || !SHA256.test(raw))) fail(`${prefix}.raw_sha256 must be null or lowercase SHA-256`);
  const id = row.get("observation_id");
  if (typeof id !== "string" || !SHA256.test(id)) fail(`${prefix}.observation_id must be lowercase SHA-256`);
  if (observationId(row, released, collected) !== id) fail(`${prefix}.observation_id does not match the record contents`);
  return { row, released, collected };
}

/**
 * SHA-256 of the row without `observation_id`, serialised as Python's sorted, compact, ASCII-escaped JSON after
 * the server's normalisation: `value`/`quality` as floats, `revision` as an integer, timestamps in `isoformat()`
 * form (dates are already in ISO form when they pass the row rules).
 */
export function observationId(row: JsonObject, released: EconTimestamp, collected: EconTimestamp): string {
  const canonical: JsonObject = new Map(row);
  canonical.delete("observation_id");
  canonical.set("value", new JsonFloat(numeric(row.get("value") as number | JsonFloat)));
  canonical.set("quality", new JsonFloat(numeric(row.get("quality") as number | JsonFloat)));
  canonical.set("released_at", released.isoformat);
  canonical.set("collected_at", collected.isoformat);
  return sha256Hex(pythonAsciiJson(canonical));
}

function decodeUtf8(raw: Uint8Array): string {
  try {
    return new TextDecoder("utf-8", { fatal: true, ignoreBOM: true }).decode(raw);
  } catch {
    return fail("published observation ledger is not UTF-8");
  }
}

/** §4.5 over the ledger bytes: returns the validated rows, or throws {@link EconomicLedgerError} (stage `rows`). */
export function parseEconomicLedger(raw: Uint8Array): JsonObject[] {
  if (raw.length === 0) fail("published observation ledger is empty");
  if (raw[raw.length - 1] !== 0x0a) fail("published observation ledger does not end at a JSONL record boundary");
  const lines = pySplitlines(decodeUtf8(raw));
  if (lines.length > MAX_LEDGER_ROWS) fail(`published observation ledger exceeds ${MAX_LEDGER_ROWS} rows`);
  if (lines.length === 0) fail("published observation ledger contains no rows");

  const rows: JsonObject[] = [];
  const seen = new Set<string>();
  const slices = new Map<string, string>();
  const latest = new Map<string, Checked>();
  let previousCollected: EconTimestamp | undefined;
  const encoder = new TextEncoder();
  lines.forEach((line, index) => {
    const lineno = index + 1;
    if (pyIsBlank(line)) fail(`line ${lineno} is blank`);
    if (line.length * 3 > MAX_RECORD_BYTES && encoder.encode(line).length > MAX_RECORD_BYTES) fail(`line ${lineno} exceeds ${MAX_RECORD_BYTES} bytes`);
    const checked = checkRow(parseServerJson(line, "rows", `line ${lineno} is not valid JSON`), lineno);
    const { row } = checked;
    const id = row.get("observation_id") as string;
    if (seen.has(id)) fail(`line ${lineno} duplicates observation_id ${id}`);
    seen.add(id);
    if (previousCollected !== undefined && compareEconTimestamps(checked.collected, previousCollected) < 0) {
      fail(`line ${lineno}.collected_at moves backwards in append order`);
    }
    previousCollected = checked.collected;
    const sliceKey = JSON.stringify(SLICE_KEY.map((k) => row.get(k)));
    const contract = JSON.stringify([row.get("unit"), row.get("frequency")]);
    const established = slices.get(sliceKey);
    if (established === undefined) slices.set(sliceKey, contract);
    else if (established !== contract) fail(`line ${lineno} has unit/frequency drift for a source series slice`);

    const vintageKey = JSON.stringify(VINTAGE_KEY.map((k) => row.get(k)));
    const revision = row.get("revision") as number;
    const prior = latest.get(vintageKey);
    if (prior === undefined) {
      if (revision !== 0) fail(`line ${lineno} first vintage must use revision 0, got ${revision}`);
    } else {
      if (compareEconTimestamps(checked.released, prior.released) < 0) fail(`line ${lineno}.released_at moves backwards within a source vintage`);
      const status = row.get("status") as string;
      const priorStatus = prior.row.get("status") as string;
      if (STATUS_RANK[status] < STATUS_RANK[priorStatus]) fail(`line ${lineno} status moves backwards from ${priorStatus} to ${status}`);
      const changed = numeric(row.get("value") as number) !== numeric(prior.row.get("value") as number);
      const expected = (prior.row.get("revision") as number) + (changed ? 1 : 0);
      if (revision !== expected) {
        fail(`line ${lineno} ${changed ? "value-changing" : "same-value provenance"} vintage must use revision ${expected}, got ${revision}`);
      }
    }
    latest.set(vintageKey, checked);
    rows.push(row);
  });
  return rows;
}
