/**
 * The double's query_economic_observations (hosted-tool-server.md §4): argument validation before any fetch, the
 * fail-closed manifest + ledger pipeline (pin, byte receipt, row rules, final count), selection, cursors with the
 * reference's `query_sha256`, the success payload and the typed isError results.
 *
 * Not reproduced: the 32-key metadata allow-list (only its name is known; metadata must be an object here).
 */
import { createHash } from "node:crypto";
import type { Origin } from "./origin.js";
import { LEDGER_PATH } from "./origin.js";
import { isPyObject, obj, PyNum, pyDumps, pyParse, pyParseBytes, type PyObject, type PyValue } from "./py-json.js";
import { RpcError, type ToolAnswer } from "./rpc-types.js";

export const MANIFEST_PATH = "readings/china-econ-observations-latest.json";
const MANIFEST_MAX = 262_144;
const LEDGER_MAX = 8_388_608;
const MAX_ROWS = 20_000;
const RECORD_MAX = 262_144;
const RESPONSE_MAX = 1_048_576;

const DIMENSIONS = ["series_id", "source_id", "geography", "sector", "firm_size", "ownership"] as const;
const PROPERTIES = new Set<string>([
  ...DIMENSIONS,
  "as_of",
  "period_start",
  "period_end",
  "released_from",
  "released_to",
  "revision_view",
  "limit",
  "cursor",
]);
const MANIFEST_FIELDS = [
  "schema_version",
  "generated_at",
  "as_of",
  "source",
  "method",
  "scope",
  "n_observations",
  "artifact",
  "contract",
  "coverage",
  "integrity",
  "limitations",
];
const ROW_FIELDS = [
  "series_id",
  "value",
  "unit",
  "frequency",
  "period_start",
  "period_end",
  "released_at",
  "collected_at",
  "source_id",
  "evidence_url",
  "revision",
  "status",
  "geography",
  "sector",
  "firm_size",
  "ownership",
  "quality",
  "raw_sha256",
  "metadata",
  "observation_id",
];
const FREQUENCIES = new Set(["event", "D", "W", "M", "Q", "A"]);
const STATUS_RANK: Record<string, number> = { forecast: 0, estimate: 1, observed: 2 };
const HEX64 = /^[0-9a-f]{64}$/;
const NOTE =
  "The fixed manifest and ledger were not validated into a complete bounded response; no source rows or replacement values are served. Checksum validation detects byte mismatch but does not authenticate publisher identity.";

type ErrorType = "economic_source_unavailable" | "economic_checksum_integrity_failed" | "economic_response_too_large";

class TypedError extends Error {
  constructor(
    readonly type: ErrorType,
    message: string,
  ) {
    super(message);
  }
}

const integrity = (message: string) => new TypedError("economic_checksum_integrity_failed", message);

const sha256 = (b: Uint8Array | string) => createHash("sha256").update(b).digest("hex");

/** A timezone-aware timestamp as a sortable instant (microseconds since the epoch). */
interface Instant {
  micros: number;
  /** Python `isoformat()` of the parsed value (offset kept, `Z` as `+00:00`). */
  iso: string;
  /** UTC text with `Z`, fraction kept to 6 digits when non-zero. */
  utc: string;
}

const TS = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})(?:\.(\d{1,6}))?(Z|[+-]\d{2}:\d{2})$/;

function validDate(y: number, m: number, d: number): boolean {
  if (m < 1 || m > 12 || d < 1 || y < 1) return false;
  return d <= new Date(Date.UTC(y, m, 0)).getUTCDate();
}

export function parseInstant(s: string): Instant | undefined {
  const m = TS.exec(s);
  if (!m) return undefined;
  const [y, mo, d, h, mi, se] = m.slice(1, 7).map(Number);
  if (!validDate(y, mo, d) || h > 23 || mi > 59 || se > 59) return undefined;
  const frac = m[7] ? Number(m[7].padEnd(6, "0")) : 0;
  const zone = m[8];
  let offsetMin = 0;
  if (zone !== "Z") {
    const oh = Number(zone.slice(1, 3));
    const om = Number(zone.slice(4, 6));
    if (oh > 23 || om > 59) return undefined;
    offsetMin = (zone[0] === "-" ? -1 : 1) * (oh * 60 + om);
  }
  const local = Date.UTC(y, mo - 1, d, h, mi, se);
  const utcMs = local - offsetMin * 60_000;
  const fracText = frac === 0 ? "" : `.${String(frac).padStart(6, "0")}`;
  const base = `${m[1]}-${m[2]}-${m[3]}T${m[4]}:${m[5]}:${m[6]}${fracText}`;
  const iso = base + (zone === "Z" ? "+00:00" : zone === "-00:00" ? "+00:00" : zone);
  const u = new Date(utcMs).toISOString().slice(0, 19);
  return { micros: utcMs * 1000 + frac, iso, utc: `${u}${fracText}Z` };
}

function checkDate(s: string): "ok" | "form" | "bad" {
  let m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(s);
  if (m) return validDate(Number(m[1]), Number(m[2]), Number(m[3])) ? "ok" : "bad";
  m = /^(\d{4})(\d{2})(\d{2})$/.exec(s);
  if (m && validDate(Number(m[1]), Number(m[2]), Number(m[3]))) return "form";
  return "bad";
}

interface Query {
  dims: Record<(typeof DIMENSIONS)[number], string | null>;
  asOf: Instant | null;
  periodStart: string | null;
  periodEnd: string | null;
  releasedFrom: Instant | null;
  releasedTo: Instant | null;
  revisionView: "all" | "latest-as-of";
  limit: number;
  cursor: PyValue | undefined;
}

const bad = (message: string) => new RpcError(-32602, message);

/** §4.2: validates the arguments in the reference's order (first failure wins). */
export function validateArguments(args: PyObject): Query {
  const unknown = [...args.keys()].filter((k) => !PROPERTIES.has(k)).sort();
  if (unknown.length > 0) throw bad(`unknown argument(s): ${unknown.join(", ")}`);
  const str = (field: string): string | null => {
    const v = args.get(field);
    if (v === undefined || v === null) return null;
    if (typeof v !== "string" || v.trim() === "" || Array.from(v).length > 256) {
      throw bad(`${field} must be a non-empty string of at most 256 characters`);
    }
    return v.trim();
  };
  const dims = {} as Query["dims"];
  for (const d of DIMENSIONS) dims[d] = str(d);
  const rv = str("revision_view") ?? "latest-as-of";
  if (rv !== "all" && rv !== "latest-as-of") throw bad("revision_view must be 'all' or 'latest-as-of'");
  const ts = (field: string): Instant | null => {
    const v = args.get(field);
    if (v === undefined || v === null) return null;
    const t = typeof v === "string" ? parseInstant(v) : undefined;
    if (!t) throw bad(`${field} must be a timezone-aware ISO-8601 timestamp`);
    return t;
  };
  const date = (field: string): string | null => {
    const v = args.get(field);
    if (v === undefined || v === null) return null;
    const r = typeof v === "string" ? checkDate(v) : "bad";
    if (r === "bad") throw bad(`${field} must be an ISO-8601 date`);
    if (r === "form") throw bad(`${field} must use YYYY-MM-DD form`);
    return v as string;
  };
  const asOf = ts("as_of");
  const periodStart = date("period_start");
  const periodEnd = date("period_end");
  const releasedFrom = ts("released_from");
  const releasedTo = ts("released_to");
  if (periodStart !== null && periodEnd !== null && periodEnd < periodStart) throw bad("period_end cannot precede period_start");
  if (releasedFrom && releasedTo && releasedTo.micros < releasedFrom.micros) throw bad("released_to cannot precede released_from");
  const lv = args.has("limit") ? args.get("limit") : PyNum.int(25);
  if (!(lv instanceof PyNum) || lv.kind !== "int") throw bad("limit must be an integer");
  if (lv.value < 1 || lv.value > 100) throw bad("limit must lie between 1 and 100");
  const cursor = args.get("cursor");
  return {
    dims,
    asOf,
    periodStart,
    periodEnd,
    releasedFrom,
    releasedTo,
    revisionView: rv,
    limit: lv.value,
    cursor: cursor === null ? undefined : cursor,
  };
}

/** The normalized query the cursor binds (§4.7), as an ordered object. */
function normalizedQuery(q: Query): PyObject {
  const m: PyObject = new Map();
  for (const d of DIMENSIONS) m.set(d, q.dims[d]);
  m.set("as_of", q.asOf?.utc ?? null);
  m.set("period_start", q.periodStart);
  m.set("period_end", q.periodEnd);
  m.set("released_from", q.releasedFrom?.utc ?? null);
  m.set("released_to", q.releasedTo?.utc ?? null);
  m.set("revision_view", q.revisionView);
  return m;
}

export function querySha256(q: Query): string {
  return sha256(pyDumps(normalizedQuery(q), { compact: true, sortKeys: true }));
}

function encodeCursor(offset: number, q: string, s: string): string {
  const json = pyDumps(
    obj([
      ["o", PyNum.int(offset)],
      ["q", q],
      ["s", s],
      ["v", PyNum.int(1)],
    ]),
    { compact: true, sortKeys: true },
  );
  return Buffer.from(json, "utf8").toString("base64url");
}

interface Row {
  value: PyObject;
  line: number;
  released: Instant;
  collected: Instant;
  revision: number;
  id: string;
}

interface Ledger {
  rows: Row[];
  ledgerSha: string;
  ledgerBytes: number;
  manifestSha: string;
  manifest: PyObject;
}

function str(v: PyValue | undefined): v is string {
  return typeof v === "string" && v.trim() !== "";
}

function checkManifest(m: PyValue, ledgerUrl: string, site: string): PyObject {
  if (!isPyObject(m)) throw integrity("observation manifest is not a JSON object");
  const keys = [...m.keys()];
  const missing = MANIFEST_FIELDS.filter((f) => !m.has(f));
  const unknown = keys.filter((k) => !MANIFEST_FIELDS.includes(k));
  if (missing.length > 0 || unknown.length > 0) {
    throw integrity(`observation manifest fields do not match the v1 contract: missing ${missing.join(", ") || "none"}; unknown ${unknown.join(", ") || "none"}`);
  }
  if (m.get("schema_version") !== "palimpsest-economic-observation-manifest.v1") throw integrity("observation manifest schema_version is not v1");
  for (const f of ["generated_at", "as_of"]) {
    const v = m.get(f);
    if (typeof v !== "string" || !v.endsWith("Z") || !parseInstant(v)) throw integrity(`observation manifest ${f} must be a UTC timestamp`);
  }
  for (const f of ["source", "method", "scope"]) {
    const v = m.get(f);
    if (!str(v) || Array.from(v).length > 8192) throw integrity(`observation manifest ${f} must be a non-blank string of at most 8192 characters`);
  }
  const a = m.get("artifact");
  const artifactKeys = ["path", "url", "media_type", "bytes", "sha256", "records"];
  if (!isPyObject(a) || a.size !== artifactKeys.length || !artifactKeys.every((k) => a.has(k))) {
    throw integrity("observation manifest artifact fields do not match the v1 contract");
  }
  if (a.get("path") !== LEDGER_PATH) throw integrity("observation manifest pins an unexpected artifact path");
  if (a.get("url") !== ledgerUrl) throw integrity("observation manifest pins an unexpected artifact URL");
  if (a.get("media_type") !== "application/x-ndjson") throw integrity("observation manifest pins an unexpected media type");
  const isInt = (v: PyValue | undefined, lo: number, hi: number) => v instanceof PyNum && v.kind === "int" && v.value >= lo && v.value <= hi;
  if (!isInt(a.get("bytes"), 1, LEDGER_MAX)) throw integrity("observation manifest artifact.bytes is out of range");
  if (typeof a.get("sha256") !== "string" || !HEX64.test(a.get("sha256") as string)) throw integrity("observation manifest artifact.sha256 is not lower-case hex");
  if (!isInt(a.get("records"), 1, MAX_ROWS)) throw integrity("observation manifest artifact.records is out of range");
  const n = m.get("n_observations");
  if (!(n instanceof PyNum) || n.kind !== "int" || n.value !== (a.get("records") as PyNum).value) {
    throw integrity("observation manifest n_observations does not equal artifact.records");
  }
  const expectedContract = pyDumps(
    obj([
      ["aggregate_only", true],
      ["bitemporal", true],
      [
        "manifest_schema",
        obj([
          ["path", "protocol/economic-observation-manifest-v1.schema.json"],
          ["url", `${site}/protocol/economic-observation-manifest-v1.schema.json`],
        ]),
      ],
      [
        "observation_schema",
        obj([
          ["path", "protocol/economic-observation-v1.schema.json"],
          ["url", `${site}/protocol/economic-observation-v1.schema.json`],
        ]),
      ],
    ]),
    { sortKeys: true },
  );
  if (pyDumps(m.get("contract"), { sortKeys: true }) !== expectedContract) throw integrity("observation manifest contract does not match the v1 contract");
  if (!isPyObject(m.get("coverage"))) throw integrity("observation manifest coverage must be an object");
  const expectedIntegrity =
    '{"exact_byte_digest": true, "monotonic_source_revisions": true, "observation_ids_verified": true, "status": "verified", "unique_observation_ids": true}';
  if (pyDumps(m.get("integrity"), { sortKeys: true }) !== expectedIntegrity) throw integrity("observation manifest integrity block is not fully verified");
  const lim = m.get("limitations");
  if (
    !Array.isArray(lim) ||
    lim.length < 3 ||
    lim.length > 16 ||
    !lim.every((x) => str(x) && Array.from(x).length <= 8192) ||
    new Set(lim as string[]).size !== lim.length
  ) {
    throw integrity("observation manifest limitations must be 3 to 16 unique non-blank strings");
  }
  return m;
}

/** Python `float(x)` for the observation hash. */
const asFloat = (v: PyValue) => PyNum.float((v as PyNum).value);

function checkRow(v: PyValue, line: number): Row {
  const fail = (msg: string) => integrity(`line ${line}: ${msg}`);
  if (!isPyObject(v)) throw fail("observation is not a JSON object");
  if (v.size !== ROW_FIELDS.length || !ROW_FIELDS.every((f) => v.has(f))) throw fail("observation fields do not match the v1 contract");
  for (const f of ["series_id", "unit", "source_id", "evidence_url", "geography", "sector", "firm_size", "ownership", "observation_id"]) {
    if (!str(v.get(f))) throw fail(`${f} must be a non-blank string`);
  }
  const ps = v.get("period_start");
  const pe = v.get("period_end");
  if (typeof ps !== "string" || checkDate(ps) !== "ok" || typeof pe !== "string" || checkDate(pe) !== "ok") throw fail("period dates must use YYYY-MM-DD form");
  if (pe < ps) throw fail("period_end precedes period_start");
  const released = typeof v.get("released_at") === "string" ? parseInstant(v.get("released_at") as string) : undefined;
  const collected = typeof v.get("collected_at") === "string" ? parseInstant(v.get("collected_at") as string) : undefined;
  if (!released || !collected) throw fail("released_at and collected_at must be timezone-aware timestamps");
  if (collected.micros < released.micros) throw fail("collected_at precedes released_at");
  const rev = v.get("revision");
  if (!(rev instanceof PyNum) || rev.kind !== "int" || rev.value < 0) throw fail("revision must be a non-negative integer");
  for (const f of ["value", "quality"]) {
    const x = v.get(f);
    if (!(x instanceof PyNum) || !Number.isFinite(x.value)) throw fail(`${f} must be a finite number`);
  }
  const q = (v.get("quality") as PyNum).value;
  if (q < 0 || q > 1) throw fail("quality must lie in [0, 1]");
  if (!FREQUENCIES.has(v.get("frequency") as string)) throw fail("frequency is not an allowed value");
  if (!((v.get("status") as string) in STATUS_RANK)) throw fail("status is not an allowed value");
  if (!isPyObject(v.get("metadata"))) throw fail("metadata must be an object");
  let url: URL;
  try {
    url = new URL(v.get("evidence_url") as string);
  } catch {
    throw fail("evidence_url must be an absolute http(s) URL");
  }
  if ((url.protocol !== "http:" && url.protocol !== "https:") || url.hostname === "" || url.username || url.password) {
    throw fail("evidence_url must be an absolute http(s) URL with a host and no credentials");
  }
  const raw = v.get("raw_sha256");
  if (raw !== null && (typeof raw !== "string" || !HEX64.test(raw))) throw fail("raw_sha256 must be null or lower-case hex");
  const id = v.get("observation_id") as string;
  if (!HEX64.test(id)) throw fail("observation_id must be lower-case hex");
  const hashed: PyObject = new Map();
  for (const [k, x] of v) {
    if (k === "observation_id") continue;
    if (k === "value" || k === "quality") hashed.set(k, asFloat(x));
    else if (k === "released_at") hashed.set(k, released.iso);
    else if (k === "collected_at") hashed.set(k, collected.iso);
    else hashed.set(k, x);
  }
  if (sha256(pyDumps(hashed, { compact: true, sortKeys: true })) !== id) throw fail("observation_id does not match the observation");
  return { value: v, line, released, collected, revision: rev.value, id };
}

function checkLedger(bytes: Buffer): Row[] {
  if (bytes.length === 0 || bytes[bytes.length - 1] !== 0x0a) throw integrity("observation ledger must be non-empty and end with a newline");
  const rows: Row[] = [];
  let start = 0;
  let line = 0;
  while (start < bytes.length) {
    const end = bytes.indexOf(0x0a, start);
    line++;
    if (line > MAX_ROWS) throw integrity("observation ledger has too many lines");
    const chunk = bytes.subarray(start, end);
    start = end + 1;
    if (chunk.length === 0) throw integrity(`line ${line}: blank line`);
    if (chunk.length > RECORD_MAX) throw integrity(`line ${line}: record exceeds ${RECORD_MAX} bytes`);
    let v: PyValue;
    try {
      v = pyParseBytes(chunk, { strict: true });
    } catch (e) {
      throw integrity(`line ${line}: ${(e as Error).message}`);
    }
    rows.push(checkRow(v, line));
  }
  const ids = new Set<string>();
  const series = new Map<string, string>();
  const vintages = new Map<string, Row>();
  let lastCollected = -Infinity;
  for (const r of rows) {
    const g = (k: string) => r.value.get(k) as string;
    if (ids.has(r.id)) throw integrity(`line ${r.line}: duplicate observation_id`);
    ids.add(r.id);
    if (r.collected.micros < lastCollected) throw integrity(`line ${r.line}: collected_at decreases in file order`);
    lastCollected = r.collected.micros;
    const sk = [g("series_id"), g("geography"), g("sector"), g("firm_size"), g("ownership"), g("source_id")].join("\u0000");
    const uf = `${g("unit")}\u0000${g("frequency")}`;
    if (series.has(sk) && series.get(sk) !== uf) throw integrity(`line ${r.line}: unit or frequency changed within a series`);
    series.set(sk, uf);
    const vk = `${sk}\u0000${g("period_start")}\u0000${g("period_end")}`;
    const prev = vintages.get(vk);
    if (!prev) {
      if (r.revision !== 0) throw integrity(`line ${r.line}: the first vintage must have revision 0`);
    } else {
      if (r.released.micros < prev.released.micros) throw integrity(`line ${r.line}: released_at decreases within a vintage`);
      if (STATUS_RANK[g("status")] < STATUS_RANK[prev.value.get("status") as string]) throw integrity(`line ${r.line}: status moves back`);
      const changed = (r.value.get("value") as PyNum).value !== (prev.value.get("value") as PyNum).value;
      if (r.revision !== (changed ? prev.revision + 1 : prev.revision)) throw integrity(`line ${r.line}: revision does not follow the value history`);
    }
    vintages.set(vk, r);
  }
  return rows;
}

export class EconomicTool {
  private cache: { at: number; ledger: Ledger } | undefined;
  private readonly manifestUrl: string;
  private readonly ledgerUrl: string;
  private readonly howToRead: string;

  constructor(
    private readonly origin: Origin,
    /** The fixed site base (the pinned production origin unless the double is configured for another base). */
    private readonly site: string,
    private readonly ttlMs: number,
    howToRead: string,
  ) {
    this.manifestUrl = `${site}/${MANIFEST_PATH}`;
    this.ledgerUrl = `${site}/${LEDGER_PATH}`;
    this.howToRead = howToRead;
  }

  private async load(): Promise<Ledger> {
    if (this.cache && this.ttlMs > 0 && Date.now() - this.cache.at < this.ttlMs) return this.cache.ledger;
    const mf = await this.origin.bytes(MANIFEST_PATH);
    if (!mf.ok) throw new TypedError("economic_source_unavailable", "the fixed published observation manifest could not be fetched");
    if (mf.value.length > MANIFEST_MAX) throw integrity(`published observation manifest exceeds ${MANIFEST_MAX} bytes`);
    let mv: PyValue;
    try {
      mv = pyParseBytes(mf.value, { strict: true });
    } catch (e) {
      throw integrity(`observation manifest is not valid JSON: ${(e as Error).message}`);
    }
    const manifest = checkManifest(mv, this.ledgerUrl, this.site);
    const artifact = manifest.get("artifact") as PyObject;
    const lf = await this.origin.bytes(LEDGER_PATH);
    if (!lf.ok) throw new TypedError("economic_source_unavailable", "the fixed published observation ledger could not be fetched");
    const bytes = lf.value;
    if (bytes.length > LEDGER_MAX) throw integrity(`published observation ledger exceeds ${LEDGER_MAX} bytes`);
    if (bytes.length !== (artifact.get("bytes") as PyNum).value) throw integrity("observation ledger byte count does not match the fixed manifest");
    const ledgerSha = sha256(bytes);
    if (ledgerSha !== artifact.get("sha256")) throw integrity("observation ledger SHA-256 does not match the fixed manifest");
    let newlines = 0;
    for (const b of bytes) if (b === 0x0a) newlines++;
    const records = (artifact.get("records") as PyNum).value;
    if (newlines !== records) throw integrity("observation ledger record count does not match the fixed manifest");
    const rows = checkLedger(bytes);
    if (rows.length !== records) throw integrity("validated observation count does not match the fixed manifest");
    const ledger: Ledger = { rows, ledgerSha, ledgerBytes: bytes.length, manifestSha: sha256(mf.value), manifest };
    if (this.ttlMs > 0) this.cache = { at: Date.now(), ledger };
    return ledger;
  }

  private typedError(e: TypedError): ToolAnswer {
    const stage = e.type === "economic_source_unavailable" ? "fetch" : e.type === "economic_checksum_integrity_failed" ? "integrity" : "serialization";
    const message = e.message.length > 2000 ? `${e.message.slice(0, 1997)}...` : e.message;
    const body = obj([
      [
        "error",
        obj([
          ["type", e.type],
          ["stage", stage],
          ["message", message],
          ["retryable", e.type === "economic_source_unavailable"],
        ]),
      ],
      ["source_url", this.ledgerUrl],
      ["manifest_url", this.manifestUrl],
      ["checksum_integrity", e.type === "economic_checksum_integrity_failed" ? "failed" : "not_completed"],
      ["no_partial_rows", true],
      ["note", NOTE],
    ]);
    return { kind: "payload", payload: body, isError: true, compactText: true };
  }

  /**
   * Answers one call. `responseSize` measures the complete JSON-RPC response a payload would produce (the 1 MiB
   * serialized cap of §4.9 includes the id and both copies of the payload).
   */
  async call(args: PyObject, responseSize: (answer: ToolAnswer) => number): Promise<ToolAnswer> {
    const q = validateArguments(args);
    let ledger: Ledger;
    try {
      ledger = await this.load();
    } catch (e) {
      if (e instanceof TypedError) return this.typedError(e);
      throw e;
    }
    const selected = this.select(ledger.rows, q);
    const qsha = querySha256(q);
    const offset = this.cursorOffset(q.cursor, qsha, ledger.ledgerSha, selected.length);
    const page = selected.slice(offset, offset + q.limit);
    const nextOffset = offset + page.length;
    const next = nextOffset < selected.length ? encodeCursor(nextOffset, qsha, ledger.ledgerSha) : null;
    const m = ledger.manifest;
    const filters: PyObject = new Map();
    for (const [k, v] of normalizedQuery(q)) if (k !== "revision_view" && v !== null) filters.set(k, v);
    const contract = m.get("contract") as PyObject;
    const answer: ToolAnswer = {
      kind: "payload",
      payload: obj([
        ["source_url", this.ledgerUrl],
        ["manifest_url", this.manifestUrl],
        [
          "source",
          obj([
            ["bytes", PyNum.int(ledger.ledgerBytes)],
            ["rows", PyNum.int(ledger.rows.length)],
            ["sha256", ledger.ledgerSha],
            ["checksum_integrity", "verified_against_fixed_manifest"],
          ]),
        ],
        [
          "manifest",
          obj([
            ["url", this.manifestUrl],
            ["schema_url", (contract.get("manifest_schema") as PyObject).get("url") as string],
            ["retrieved_sha256", ledger.manifestSha],
            ["generated_at", m.get("generated_at")!],
            ["as_of", m.get("as_of")!],
            ["scope", m.get("scope")!],
            ["limitations", m.get("limitations")!],
          ]),
        ],
        ["scope", m.get("scope")!],
        ["limitations", m.get("limitations")!],
        ["revision_view", q.revisionView],
        ["filters", filters],
        ["observations", page.map((r) => r.value)],
        [
          "selection",
          obj([
            ["returned", PyNum.int(page.length)],
            ["matched", PyNum.int(selected.length)],
            ["offset", PyNum.int(offset)],
            ["limit", PyNum.int(q.limit)],
            ["next_cursor", next],
          ]),
        ],
        ["next_cursor", next],
        [
          "bounds",
          obj([
            ["max_source_bytes", PyNum.int(LEDGER_MAX)],
            ["max_source_rows", PyNum.int(MAX_ROWS)],
            ["max_record_bytes", PyNum.int(RECORD_MAX)],
            ["max_page_rows", PyNum.int(100)],
            ["max_serialized_response_bytes", PyNum.int(RESPONSE_MAX)],
          ]),
        ],
        ["how_to_read_this", this.howToRead],
      ]),
    };
    if (responseSize(answer) > RESPONSE_MAX) {
      return this.typedError(
        new TypedError(
          "economic_response_too_large",
          "the complete MCP query response exceeds the serialized-byte cap; request a smaller page or narrower filters",
        ),
      );
    }
    return answer;
  }

  /** §4.6 selection over validated rows; ledger order is kept. */
  private select(rows: Row[], q: Query): Row[] {
    const filtered = rows.filter((r) => {
      for (const d of DIMENSIONS) if (q.dims[d] !== null && r.value.get(d) !== q.dims[d]) return false;
      if (q.periodStart !== null && (r.value.get("period_start") as string) < q.periodStart) return false;
      if (q.periodEnd !== null && (r.value.get("period_end") as string) > q.periodEnd) return false;
      if (q.releasedFrom && r.released.micros < q.releasedFrom.micros) return false;
      if (q.releasedTo && r.released.micros > q.releasedTo.micros) return false;
      if (q.asOf && (r.released.micros > q.asOf.micros || r.collected.micros > q.asOf.micros)) return false;
      return true;
    });
    if (q.revisionView === "all") return filtered;
    const best = new Map<string, Row>();
    const key = (r: Row) =>
      [...DIMENSIONS, "period_start", "period_end"].map((k) => r.value.get(k) as string).join("\u0000");
    const greater = (a: Row, b: Row) =>
      a.released.micros !== b.released.micros
        ? a.released.micros > b.released.micros
        : a.collected.micros !== b.collected.micros
          ? a.collected.micros > b.collected.micros
          : a.revision !== b.revision
            ? a.revision > b.revision
            : a.id > b.id;
    for (const r of filtered) {
      const k = key(r);
      const cur = best.get(k);
      if (!cur || greater(r, cur)) best.set(k, r);
    }
    const keep = new Set(best.values());
    return filtered.filter((r) => keep.has(r));
  }

  /** §4.7 cursor checks (after fetch and selection); returns the page offset. */
  private cursorOffset(cursor: PyValue | undefined, qsha: string, ledgerSha: string, matched: number): number {
    if (cursor === undefined) return 0;
    if (typeof cursor !== "string" || cursor === "" || cursor.length > 1024) throw bad("cursor must be a non-empty opaque cursor");
    const invalid = () => bad("cursor is invalid");
    if (!/^[A-Za-z0-9_-]+={0,2}$/.test(cursor)) throw invalid();
    let decoded: PyValue;
    try {
      decoded = pyParse(Buffer.from(cursor.replace(/=+$/, ""), "base64url").toString("utf8"), { strict: true });
    } catch {
      throw invalid();
    }
    if (!isPyObject(decoded) || decoded.size !== 4 || !["v", "o", "q", "s"].every((k) => decoded.has(k))) throw invalid();
    const v = decoded.get("v");
    const o = decoded.get("o");
    if (!(v instanceof PyNum) || v.value !== 1) throw invalid();
    if (!(o instanceof PyNum) || o.kind !== "int" || o.value < 0) throw invalid();
    if (typeof decoded.get("q") !== "string" || typeof decoded.get("s") !== "string") throw invalid();
    if (decoded.get("q") !== qsha) throw bad("cursor does not match these filters or revision_view");
    if (decoded.get("s") !== ledgerSha) throw bad("published ledger changed; restart pagination without a cursor");
    if (o.value > matched) throw bad("cursor is past the end of this result set");
    return o.value;
  }
}
