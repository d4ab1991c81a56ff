/**
 * What may leave to the hosted tool server (issue 28 item 1; docs/guard.md, "The upstream allowlist"): every
 * argument of a proxied call is a value the service itself has published, or one its pinned schema enumerates or
 * bounds. Nothing else is sent, whatever form it is written in; the outward guard (capsules/guard) still runs on
 * what is sent, as the second line.
 *
 * | argument | what may be sent |
 * |---|---|
 * | `get_signal.name` | a signal name exactly as `list_signals` published it |
 * | `get_newsroom.view`, `query_economic_observations.revision_view` | the pinned enum |
 * | `get_newsroom.status`, `.priority` | a `status` / `priority` an item of a newsroom answer carried |
 * | the six economic dimensions (`series_id`, …) | a value of that member in the published ledger or in an earlier answer's rows |
 * | `period_start`, `period_end` | a `YYYY-MM-DD` date from the year before the published ledger's first year to the year after its last |
 * | `as_of`, `released_from`, `released_to` | a `released_at` / `collected_at` the ledger or an answer carried, or `YYYY-MM-DDT00:00:00Z` of such a date |
 * | `cursor` | a `next_cursor` the server returned in this process |
 * | integers | plain digits within the pinned bounds; `research_catalog.offset` also within what the server's answers reached |
 *
 * The bridge learns these vocabularies itself (list_signals; get_newsroom, then the view's signal when the answer
 * did not show the whole collection; the published ledger, verified against its manifest) and keeps them per server
 * identity (`serverInfo` name and version, the digest of its tools' input schemas and of the pinned ones), for at
 * most {@link MAX_SERVERS} servers, each vocabulary bounded. A vocabulary that cannot be learned because the
 * server or the site cannot be reached gives the usual `unavailable` result, and nothing else is sent. Anything
 * else is a JSON-RPC -32602 error naming the tool, the argument and how to find valid values, never the value.
 *
 * What is sent is rebuilt from the checked values, in the pinned order of the arguments (`JSON.stringify` of each
 * value): no spelling of the client's text (escapes, spacing, member order, a repeated member, `5.0`) reaches the
 * server. The client's `_meta` is never forwarded: a call whose `_meta` has a `progressToken` carries the bridge's
 * own token instead.
 *
 * Over 400 lines because the argument table, the admission and the three ways of learning share one per-server
 * state and must change together; the wire is hosted-client.ts's.
 */
import { parseEconDate } from "../../published/readings/iso-time.js";
import { EconomicLedgerError } from "../../published/readings/economic-errors.js";
import { parseEconomicLedger, verifyLedgerReceipt } from "../../published/readings/economic-ledger.js";
import { LEDGER_PATH, MANIFEST_PATH, parseEconomicManifest } from "../../published/readings/economic-manifest.js";
import { sha256Hex } from "../../src/hash.js";
import { JsonLoadError, parseStrictJson } from "../../src/json/parse.js";
import { isJsonFloat, isJsonObject, isRecord, type JsonValue } from "../../src/json/value.js";
import type { Discovery, DiscoveryOutcome, ToolCallOutcome } from "./hosted-client.js";
import { MAX_REQUEST_BYTES } from "./json-rpc.js";
import { PINNED_TOOLS, type PublicToolName } from "./pinned-tools.js";
import type { PublishedOutcome } from "./published-files.js";
import { unavailableResult, type UnavailableResult } from "./unavailable.js";

export const INVALID_PARAMS = -32602;
/** Servers whose vocabularies are kept (least recently used dropped first). */
export const MAX_SERVERS = 4;
/** Values kept per vocabulary (oldest dropped first); the ledger holds at most 20,000 rows. */
export const MAX_VALUES = 20_000;
/** Cursors kept per server (oldest dropped first). */
export const MAX_CURSORS = 1024;
/** A value not in a vocabulary learned longer ago than this makes the bridge learn it again once. */
export const RELEARN_AFTER_MS = 60_000;
/** The newsroom learning call asks for this many items (the pinned maximum of `get_newsroom.limit`). */
const NEWSROOM_LEARN_LIMIT = 50;
/** …and a view's signal with this `max_rows` when the answer did not show the whole collection (pinned maximum). */
const SIGNAL_LEARN_ROWS = 500;
/** Dates may lie this many years before the ledger's first year or after its last (a query may start early). */
export const YEAR_MARGIN = 1;
/** A published value longer than this is not kept (the pinned dimensions allow 256 characters). */
const MAX_VALUE_CHARS = 1024;

export const DIMENSIONS = ["series_id", "source_id", "geography", "sector", "firm_size", "ownership"] as const;
type Dimension = (typeof DIMENSIONS)[number];

/** How each argument of each tool is admitted. */
type Rule = "enum" | "integer" | "offset" | "signal" | "status" | "priority" | "dimension" | "date" | "timestamp" | "cursor";

export const ARGUMENT_RULES: Readonly<Record<PublicToolName, Readonly<Record<string, Rule>>>> = {
  research_catalog: { offset: "offset", limit: "integer" },
  list_signals: {},
  get_signal: { name: "signal", max_rows: "integer" },
  get_newsroom: { view: "enum", limit: "integer", status: "status", priority: "priority" },
  query_economic_observations: {
    series_id: "dimension",
    source_id: "dimension",
    geography: "dimension",
    sector: "dimension",
    firm_size: "dimension",
    ownership: "dimension",
    as_of: "timestamp",
    period_start: "date",
    period_end: "date",
    released_from: "timestamp",
    released_to: "timestamp",
    revision_view: "enum",
    limit: "integer",
    cursor: "cursor",
  },
  whats_happening: {},
  gfw_reading: {},
};

/** How to find the valid values of each vocabulary argument (the end of a -32602 message). */
const HOW_TO_FIND: Record<Exclude<Rule, "enum" | "integer" | "offset">, string> = {
  signal: "not a signal name the hosted server publishes; list_signals names them (exactly as listed)",
  status: "not a status the hosted server's newsroom answers carry; call get_newsroom without it to see each item's status (list_signals names the signals behind the views)",
  priority: "not a priority the hosted server's newsroom answers carry; call get_newsroom without it to see each item's priority (list_signals names the signals behind the views)",
  dimension: "not a value of this member in the published economic ledger; call query_economic_observations without it, and each row names the values there are",
  date: "not a YYYY-MM-DD date within a year of the years the published economic ledger covers (call query_economic_observations without it to see its periods)",
  timestamp:
    "not a released_at or collected_at of the published economic ledger, nor YYYY-MM-DDT00:00:00Z of a day within a year of the years it covers (call query_economic_observations without it to see them)",
  cursor: "not a next_cursor the hosted server returned in this process; call without a cursor, then page with the next_cursor of each answer",
};

/** What the vocabulary needs of the upstream client (hosted-client.ts). */
export interface VocabularySource {
  readonly discovery: Discovery | undefined;
  discover(signal?: AbortSignal): Promise<DiscoveryOutcome>;
  callTool(name: string, args: unknown, opts?: { signal?: AbortSignal; timeoutMs?: number }): Promise<ToolCallOutcome>;
  fetchPublished(path: string, signal?: AbortSignal): Promise<PublishedOutcome>;
}

export interface AdmitOptions {
  /** The client's exact `arguments` text, when it sent one. */
  argumentsText?: string;
  /** The client's `_meta` (never forwarded). */
  clientMeta?: unknown;
  signal?: AbortSignal;
  timeoutMs?: number;
}

export type Admission =
  /** Send exactly this: `argumentsText` is built from `args`, `meta` is the bridge's own (or nothing). */
  | { kind: "admitted"; args: Record<string, string | number>; argumentsText: string; meta: { progressToken: string } | undefined }
  /** A JSON-RPC -32602 error for the client; nothing was sent for this call. */
  | { kind: "invalid"; error: { code: number; message: string } }
  /** A vocabulary could not be learned; nothing but the learning attempt was sent. */
  | { kind: "unavailable"; result: UnavailableResult }
  | { kind: "cancelled" };

type Learned = "learned" | "cancelled" | { unavailable: UnavailableResult };

/** A set that keeps its most recent `max` values. */
class BoundedSet {
  private readonly values = new Set<string>();
  constructor(private readonly max: number) {}
  add(v: unknown): void {
    if (typeof v !== "string" || v === "" || v.length > MAX_VALUE_CHARS) return;
    this.values.delete(v);
    this.values.add(v);
    if (this.values.size > this.max) this.values.delete(this.values.values().next().value as string);
  }
  has(v: string): boolean {
    return this.values.has(v);
  }
  get size(): number {
    return this.values.size;
  }
}

/** One server's published vocabularies. */
class ServerVocabulary {
  readonly signals = new BoundedSet(MAX_VALUES);
  readonly statuses = new BoundedSet(MAX_VALUES);
  readonly priorities = new BoundedSet(MAX_VALUES);
  readonly dimensions = Object.fromEntries(DIMENSIONS.map((d) => [d, new BoundedSet(MAX_VALUES)])) as Record<Dimension, BoundedSet>;
  readonly timestamps = new BoundedSet(2 * MAX_VALUES);
  readonly cursors = new BoundedSet(MAX_CURSORS);
  /** The first and last year of the ledger's clocks and periods seen so far. */
  years: { min: number; max: number } | undefined;
  /** The largest `research_catalog` position the server's answers reached. */
  offsetReach = 0;
  /** When each vocabulary was last learned (`signals`, `ledger`, `newsroom:<view>`). */
  readonly learnedAt = new Map<string, number>();
  /** Learning runs in progress, shared by concurrent calls. */
  readonly learning = new Map<string, Promise<Learned>>();

  noteYear(v: unknown): void {
    if (typeof v !== "string" || !/^\d{4}-/.test(v)) return;
    const y = Number(v.slice(0, 4));
    this.years = this.years === undefined ? { min: y, max: y } : { min: Math.min(this.years.min, y), max: Math.max(this.years.max, y) };
  }

  /** A ledger row (or an answer's observation): its dimensions, clocks and the years of its periods. */
  noteRow(row: (k: string) => unknown): void {
    for (const d of DIMENSIONS) this.dimensions[d].add(row(d));
    for (const k of ["released_at", "collected_at"]) {
      this.timestamps.add(row(k));
      this.noteYear(row(k));
    }
    for (const k of ["period_start", "period_end"]) this.noteYear(row(k));
  }

  /** The `status` and `priority` of each item of a collection. */
  noteItems(items: unknown): void {
    if (!Array.isArray(items)) return;
    for (const item of items.slice(0, MAX_VALUES)) {
      if (!isRecord(item)) continue;
      this.statuses.add(item.status);
      this.priorities.add(item.priority);
    }
  }
}

/** The pinned tools' schemas, digested once: part of every server identity. */
const PINNED_DIGEST = sha256Hex(JSON.stringify(Object.values(PINNED_TOOLS).map((t) => [t.name, t.inputSchema])));

function invalid(tool: PublicToolName, argument: string, what: string): Admission {
  return { kind: "invalid", error: { code: INVALID_PARAMS, message: `Invalid params for ${tool}: ${argument}: ${what}` } };
}

function unavailable(reason: string, retryable: boolean): { unavailable: UnavailableResult } {
  return { unavailable: unavailableResult(reason, retryable) };
}

/** Why a learning call gave no answer to learn from (transport facts and codes only, never upstream text). */
function learningFailure(what: string, out: ToolCallOutcome): Learned {
  switch (out.kind) {
    case "cancelled":
      return "cancelled";
    case "unavailable":
      return unavailable(`${what} could not be learned (${out.reason})`, out.retryable);
    case "rpc-error":
      return unavailable(`${what} could not be learned (the hosted server answered JSON-RPC error ${out.error.code})`, false);
    case "refused":
    case "not-offered":
      return unavailable(`${what} could not be learned (${out.result.content[0].text})`, false);
    case "result":
      return unavailable(`${what} could not be learned (the hosted server's answer did not carry them)`, true);
  }
}

/** The `structuredContent` of a successful tool result, or undefined. */
function payloadOf(result: unknown): Record<string, unknown> | undefined {
  if (!isRecord(result) || result.isError === true) return undefined;
  return isRecord(result.structuredContent) ? result.structuredContent : undefined;
}

export class PublishedVocabulary {
  private readonly servers = new Map<string, ServerVocabulary>();
  private readonly identities = new WeakMap<Discovery, string>();
  private progress = 0;

  constructor(
    private readonly source: VocabularySource,
    private readonly opts: { now?: () => number; relearnAfterMs?: number } = {},
  ) {}

  private now(): number {
    return this.opts.now ? this.opts.now() : Date.now();
  }

  /** The vocabulary of the server `d` describes (created, and made most recent). */
  private serverOf(d: Discovery): ServerVocabulary {
    let id = this.identities.get(d);
    if (id === undefined) {
      const info = isRecord(d.initializeResult.serverInfo) ? d.initializeResult.serverInfo : {};
      const schemas = d.upstreamTools
        .filter((t): t is Record<string, unknown> => isRecord(t) && typeof t.name === "string" && Object.hasOwn(PINNED_TOOLS, t.name))
        .map((t) => [t.name, t.inputSchema])
        .sort((a, b) => String(a[0]).localeCompare(String(b[0])));
      id = sha256Hex(JSON.stringify([info.name ?? null, info.version ?? null, sha256Hex(JSON.stringify(schemas) ?? ""), PINNED_DIGEST]));
      this.identities.set(d, id);
    }
    let v = this.servers.get(id);
    if (v === undefined) {
      v = new ServerVocabulary();
      if (this.servers.size >= MAX_SERVERS) this.servers.delete(this.servers.keys().next().value as string);
    } else this.servers.delete(id);
    this.servers.set(id, v);
    return v;
  }

  /** The current server's vocabulary, discovering the server first when it is not known yet. */
  private async current(signal: AbortSignal | undefined): Promise<ServerVocabulary | Exclude<Learned, "learned">> {
    if (this.source.discovery) return this.serverOf(this.source.discovery);
    const d = await this.source.discover(signal);
    if (d.ok) return this.serverOf(d.discovery);
    if (signal?.aborted) return "cancelled";
    return unavailable(`tool discovery failed (${d.reason})`, d.retryable);
  }

  /**
   * Decides what may be sent for one call: the arguments rebuilt from published values, or the error or result
   * that answers the call instead. Arguments have already passed the pinned schema (argument-errors.ts).
   */
  async admit(tool: PublicToolName, args: Record<string, unknown>, opts: AdmitOptions = {}): Promise<Admission> {
    const rules = ARGUMENT_RULES[tool];
    let members: [string, JsonValue | unknown][];
    // The client's text read strictly (a repeated member, `5.0`), unless it is exactly the serialization of `args`,
    // which no such spelling can be (the usual case: clients send JSON.stringify's text).
    if (opts.argumentsText !== undefined && opts.argumentsText !== JSON.stringify(args)) {
      let parsed: JsonValue;
      try {
        parsed = parseStrictJson(opts.argumentsText, { maxBytes: MAX_REQUEST_BYTES, rootPath: "arguments" });
      } catch (e) {
        if (!(e instanceof JsonLoadError)) throw e;
        return invalid(tool, "arguments", e.rule === "duplicate-key" ? "an argument is given twice" : `not strict JSON (rule: ${e.rule})`);
      }
      if (!isJsonObject(parsed)) return invalid(tool, "arguments", "not a JSON object");
      members = [...parsed];
    } else members = Object.entries(args);

    const checked = new Map<string, string | number>();
    const pending: [string, Rule, string][] = [];
    for (const [name, value] of members) {
      const rule = Object.hasOwn(rules, name) ? rules[name] : undefined;
      if (rule === undefined) return invalid(tool, "arguments", "an argument outside the pinned schema");
      const schema = (PINNED_TOOLS[tool].inputSchema.properties as Record<string, Record<string, unknown>>)[name];
      if (rule === "integer" || rule === "offset") {
        if (isJsonFloat(value)) return invalid(tool, name, "an integer must be written as plain digits (no fraction or exponent)");
        const n = value as number;
        if (!Number.isSafeInteger(n)) return invalid(tool, name, "expected an integer");
        if ((typeof schema.minimum === "number" && n < schema.minimum) || (typeof schema.maximum === "number" && n > schema.maximum)) {
          return invalid(tool, name, `outside the pinned bounds ${String(schema.minimum)}..${String(schema.maximum)}`);
        }
        checked.set(name, n);
        if (rule === "offset" && n > 0) pending.push([name, rule, String(n)]);
        continue;
      }
      if (typeof value !== "string") return invalid(tool, name, "expected a string");
      if (rule === "enum") {
        if (!(schema.enum as unknown[]).includes(value)) return invalid(tool, name, "not one of the pinned values");
      } else pending.push([name, rule, value]);
      checked.set(name, value);
    }

    if (pending.length > 0) {
      const server = this.source.discovery ? this.serverOf(this.source.discovery) : await this.current(opts.signal);
      if (server === "cancelled") return { kind: "cancelled" };
      if (!(server instanceof ServerVocabulary)) return { kind: "unavailable", result: server.unavailable };
      const view = typeof checked.get("view") === "string" ? (checked.get("view") as string) : "newsroom";
      for (const [name, rule, value] of pending) {
        let known = this.knows(server, name, rule, value);
        if (!known && rule !== "cursor" && rule !== "offset") {
          let learned = await this.learn(server, rule, view, opts);
          // A shared run another caller cancelled: learn again for this one.
          if (learned === "cancelled" && opts.signal?.aborted !== true) learned = await this.learn(server, rule, view, opts);
          if (learned === "cancelled") return { kind: "cancelled" };
          if (learned !== "learned") return { kind: "unavailable", result: learned.unavailable };
          known = this.knows(server, name, rule, value);
        }
        if (known) continue;
        if (rule === "offset") {
          return invalid(tool, name, `beyond what the hosted server's answers have reached (0..${server.offsetReach}); page on from offset 0`);
        }
        return invalid(tool, name, HOW_TO_FIND[rule as keyof typeof HOW_TO_FIND]);
      }
    }

    // Rebuilt in the pinned order of the arguments, each value serialized by us.
    const ordered: Record<string, string | number> = {};
    for (const name of Object.keys(rules)) if (checked.has(name)) ordered[name] = checked.get(name)!;
    const meta = isRecord(opts.clientMeta) && opts.clientMeta.progressToken !== undefined ? { progressToken: `evidence-bridge-${++this.progress}` } : undefined;
    return { kind: "admitted", args: ordered, argumentsText: JSON.stringify(ordered), meta };
  }

  private knows(server: ServerVocabulary, name: string, rule: Rule, value: string): boolean {
    switch (rule) {
      case "signal":
        return server.signals.has(value);
      case "status":
        return server.statuses.has(value);
      case "priority":
        return server.priorities.has(value);
      case "dimension":
        return server.dimensions[name as Dimension].has(value);
      case "cursor":
        return server.cursors.has(value);
      case "offset":
        return Number(value) <= server.offsetReach;
      case "date":
        return inYears(server, value);
      case "timestamp":
        return server.timestamps.has(value) || (value.endsWith("T00:00:00Z") && value.length === 20 && inYears(server, value.slice(0, 10)));
      default:
        return false;
    }
  }

  /** Learns the vocabulary `rule` needs, unless it was learned less than {@link RELEARN_AFTER_MS} ago. */
  private learn(server: ServerVocabulary, rule: Rule, view: string, opts: AdmitOptions): Promise<Learned> {
    const key = rule === "signal" ? "signals" : rule === "status" || rule === "priority" ? `newsroom:${view}` : "ledger";
    const at = server.learnedAt.get(key);
    if (at !== undefined && this.now() - at < (this.opts.relearnAfterMs ?? RELEARN_AFTER_MS)) return Promise.resolve("learned");
    let run = server.learning.get(key);
    if (run === undefined) {
      const started =
        key === "signals" ? this.learnSignals(server, opts) : key === "ledger" ? this.learnLedger(server, opts) : this.learnNewsroom(server, view, opts);
      run = started
        .then((r) => {
          if (r === "learned") server.learnedAt.set(key, this.now());
          return r;
        })
        .finally(() => server.learning.delete(key));
      server.learning.set(key, run);
    }
    return run;
  }

  private async learnSignals(server: ServerVocabulary, opts: AdmitOptions): Promise<Learned> {
    const out = await this.source.callTool("list_signals", {}, { signal: opts.signal, timeoutMs: opts.timeoutMs });
    const payload = out.kind === "result" ? payloadOf(out.result) : undefined;
    if (payload === undefined || !Array.isArray(payload.signals) || payload.signals.length === 0) {
      return learningFailure("the published signal names (list_signals)", out);
    }
    observeInto(server, "list_signals", {}, payload);
    return "learned";
  }

  /**
   * The statuses and priorities of a view: get_newsroom with the largest page; when its answer does not show the
   * whole collection (or is `unavailable`), the full reading of the signal it names. A view whose reading the
   * server reports unavailable both ways cannot be learned (`unavailable`).
   */
  private async learnNewsroom(server: ServerVocabulary, view: string, opts: AdmitOptions): Promise<Learned> {
    const what = "the newsroom statuses and priorities (get_newsroom)";
    const call = { signal: opts.signal, timeoutMs: opts.timeoutMs };
    const out = await this.source.callTool("get_newsroom", { view, limit: NEWSROOM_LEARN_LIMIT }, call);
    const payload = out.kind === "result" ? payloadOf(out.result) : undefined;
    if (payload === undefined) return learningFailure(what, out);
    observeInto(server, "get_newsroom", { view }, payload);
    const selection = isRecord(payload.selection) ? payload.selection : undefined;
    if (selection !== undefined && typeof selection.total === "number" && selection.total === selection.returned) return "learned";
    let seen = selection !== undefined;
    if (typeof payload.signal === "string" && /^[a-z0-9][a-z0-9._-]{0,127}$/.test(payload.signal)) {
      const full = await this.source.callTool("get_signal", { name: payload.signal, max_rows: SIGNAL_LEARN_ROWS }, call);
      if (full.kind === "cancelled") return "cancelled";
      const fullPayload = full.kind === "result" ? payloadOf(full.result) : undefined;
      const data = fullPayload?.unavailable === undefined ? fullPayload?.data : undefined;
      if (isRecord(data)) {
        seen = true;
        const collection = typeof selection?.collection === "string" ? selection.collection : undefined;
        if (collection !== undefined) server.noteItems(data[collection]);
        else for (const v of Object.values(data)) server.noteItems(v);
      }
    }
    return seen ? "learned" : unavailable(`${what} could not be learned (the hosted server reports this view's reading unavailable)`, true);
  }

  /**
   * The economic vocabularies from the published ledger, read only after its bytes, SHA-256 and record count match
   * its manifest (published/readings). Without a configured site, or with a ledger that does not verify, they come
   * from earlier answers only.
   */
  private async learnLedger(server: ServerVocabulary, opts: AdmitOptions): Promise<Learned> {
    const manifest = await this.source.fetchPublished(MANIFEST_PATH, opts.signal);
    if (opts.signal?.aborted) return "cancelled";
    if (!manifest.ok) {
      if (manifest.url === undefined) return "learned";
      return unavailable(`the published economic ledger could not be read to learn its values (${manifest.reason})`, manifest.retryable);
    }
    const ledger = await this.source.fetchPublished(LEDGER_PATH, opts.signal);
    if (opts.signal?.aborted) return "cancelled";
    if (!ledger.ok) return unavailable(`the published economic ledger could not be read to learn its values (${ledger.reason})`, ledger.retryable);
    try {
      const parsed = parseEconomicManifest(manifest.bytes);
      verifyLedgerReceipt(ledger.bytes, parsed.artifact);
      for (const row of parseEconomicLedger(ledger.bytes)) server.noteRow((k) => row.get(k));
    } catch (e) {
      if (!(e instanceof EconomicLedgerError)) throw e;
    }
    return "learned";
  }

  /** Learns from an answer to a call the bridge sent (`args` as sent): signal names, statuses, rows, cursors, reach. */
  observe(tool: PublicToolName, args: Record<string, unknown>, result: unknown): void {
    const d = this.source.discovery;
    const payload = payloadOf(result);
    if (d !== undefined && payload !== undefined) observeInto(this.serverOf(d), tool, args, payload);
  }
}

function observeInto(server: ServerVocabulary, tool: PublicToolName, args: Record<string, unknown>, payload: Record<string, unknown>): void {
  switch (tool) {
    case "list_signals":
      if (Array.isArray(payload.signals)) for (const s of payload.signals.slice(0, MAX_VALUES)) if (isRecord(s)) server.signals.add(s.name);
      return;
    case "get_newsroom": {
      const selection = isRecord(payload.selection) ? payload.selection : undefined;
      if (isRecord(payload.data) && typeof selection?.collection === "string") server.noteItems(payload.data[selection.collection]);
      return;
    }
    case "query_economic_observations":
      if (Array.isArray(payload.observations)) {
        for (const row of payload.observations.slice(0, MAX_VALUES)) if (isRecord(row)) server.noteRow((k) => row[k]);
      }
      server.cursors.add(payload.next_cursor);
      return;
    case "research_catalog": {
      const offset = typeof args.offset === "number" ? args.offset : 0;
      let reach = offset;
      for (const v of Object.values(payload)) if (Array.isArray(v)) reach = Math.max(reach, offset + v.length);
      for (const k of ["total", "next_offset"]) if (Number.isSafeInteger(payload[k])) reach = Math.max(reach, payload[k] as number);
      server.offsetReach = Math.max(server.offsetReach, reach);
      return;
    }
    default:
      return;
  }
}

/** A `YYYY-MM-DD` calendar date from the year before the ledger's first year to the year after its last. */
function inYears(server: ServerVocabulary, value: string): boolean {
  if (server.years === undefined || !/^\d{4}-\d{2}-\d{2}$/.test(value) || !parseEconDate(value).ok) return false;
  const y = Number(value.slice(0, 4));
  return y >= server.years.min - YEAR_MARGIN && y <= server.years.max + YEAR_MARGIN;
}
