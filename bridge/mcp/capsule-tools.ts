/**
 * `verify_capsule`, `list_capsules` and `get_candidates` (product.md §6) over the capsule verifier, the sealed
 * store's minimized rows, the verified review log and the review queue. Nothing here decides or exports: review
 * decisions and exports stay with a human at the command line.
 */
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { CapsuleLoadError, loadCapsuleBytes } from "../../capsules/capsule/load.js";
import { CAPSULE_MAX_BYTES } from "../../capsules/capsule/limits.js";
import { verifyCapsule } from "../../capsules/capsule/verify.js";
import { feedOrderKey } from "../../capsules/feed/order.js";
import { StoredDerivations } from "../../capsules/pipeline/stored.js";
import { reviewQueue } from "../../capsules/review/queue.js";
import { reviewedRows, shownFor, statusLens, type ReviewedRow, type ShownStatus } from "../../capsules/review/status.js";
import { StoreError } from "../../capsules/store/errors.js";
import { OutwardGuard } from "../../capsules/guard/outward-guard.js";
import { capsulePrivateValues } from "../../capsules/guard/private-values.js";
import type { ReviewStatus } from "../../capsules/store/rows.js";
import { packOrUnavailable, type CallInfo, type PrivateContext } from "./private-context.js";
import { DocumentError, documentBytes, errorResult, structuredResult } from "./tool-results.js";

const DEFAULT_ROWS = 50;
const DEFAULT_CANDIDATES = 25;

// ---- verify_capsule -----------------------------------------------------------------------------------------

export interface VerifyArgs {
  capsule?: string | Record<string, unknown>;
  capsule_sha256?: string;
}

function reportResult(report: ReturnType<typeof verifyCapsule>): CallToolResult {
  if (report.ok) return structuredResult(report, false, `The capsule verifies (${report.ok_scope}).`);
  const out = structuredResult(report, true);
  out.content = [{ type: "text", text: `the capsule does not verify: ${report.errors.join("; ")}` }, ...out.content];
  return out;
}

export async function verifyCapsuleTool(args: VerifyArgs, call: CallInfo, ctx: PrivateContext): Promise<CallToolResult> {
  if (args.capsule_sha256 !== undefined) {
    const id = args.capsule_sha256;
    let envelope;
    try {
      const store = await ctx.state.existingStore();
      if (!store) return errorResult("not_found", `no capsule ${id}: the data directory has no store yet`);
      // Opened once (capsules/pipeline/open.ts, proof identity); the verifier then runs on the envelope it parsed.
      envelope = store.openCapsule(id).envelope;
    } catch (e) {
      if (e instanceof StoreError) return errorResult(e.code === "not-found" ? "not_found" : "store_error", e.message);
      return errorResult("store_error", `store: ${(e as Error).message}`);
    }
    const report = verifyCapsule(envelope);
    // The report of a stored capsule must not carry its private values (the caller supplied only the id).
    const verdict = new OutwardGuard(capsulePrivateValues(envelope)).check(report, "report");
    if (!verdict.ok) return errorResult("withheld", `the verification report of stored capsule ${id} was withheld: it would contain a private value of that capsule`);
    return reportResult(report);
  }
  let bytes: Uint8Array;
  try {
    bytes = documentBytes("capsule", args.capsule, ctx.wire.rawArgument(call.requestId, "capsule"));
  } catch (e) {
    if (e instanceof DocumentError) return errorResult("invalid", e.message);
    throw e;
  }
  if (bytes.length > CAPSULE_MAX_BYTES) return errorResult("invalid", "capsule exceeds the v1 byte limit");
  let envelope;
  try {
    envelope = loadCapsuleBytes(bytes);
  } catch (e) {
    if (e instanceof CapsuleLoadError) return errorResult("invalid", e.message);
    throw e;
  }
  return reportResult(verifyCapsule(envelope));
}

// ---- paging ---------------------------------------------------------------------------------------------------

const CURSOR_PREFIX = "eb1.";

function encodeCursor(key: string): string {
  return CURSOR_PREFIX + Buffer.from(key, "utf8").toString("base64url");
}

function decodeCursor(cursor: string): string | undefined {
  if (!cursor.startsWith(CURSOR_PREFIX)) return undefined;
  const body = cursor.slice(CURSOR_PREFIX.length);
  if (!/^[A-Za-z0-9_-]*$/.test(body)) return undefined;
  return Buffer.from(body, "base64url").toString("utf8");
}

function badCursor(): CallToolResult {
  return errorResult("invalid", "cursor: not a next_cursor returned by this tool");
}

// ---- list_capsules --------------------------------------------------------------------------------------------

export interface ListArgs {
  limit?: number;
  cursor?: string;
  review_status?: ReviewStatus;
}

export async function listCapsules(args: ListArgs, _call: CallInfo, ctx: PrivateContext): Promise<CallToolResult> {
  const after = args.cursor === undefined ? undefined : decodeCursor(args.cursor);
  if (args.cursor !== undefined && after === undefined) return badCursor();
  let rows: ReviewedRow[];
  let shown = new Map<string, ShownStatus>();
  try {
    const store = await ctx.state.existingStore();
    if (store) ({ rows, shown } = reviewedRows(store));
    else rows = [];
  } catch (e) {
    return errorResult("store_error", (e as Error).message);
  }
  if (args.review_status !== undefined) rows = rows.filter((r) => r.review_status === args.review_status);
  let start = 0;
  if (after !== undefined) {
    const at = rows.findIndex((r) => r.id === after);
    if (at === -1) return badCursor();
    start = at + 1;
  }
  const limit = args.limit ?? DEFAULT_ROWS;
  const page = rows.slice(start, start + limit);
  const more = start + limit < rows.length;
  return structuredResult(
    { rows: page, total: rows.length, next_cursor: more ? encodeCursor(page[page.length - 1].id) : null },
    false,
    `${page.length} of ${rows.length} stored capsule(s)${more ? "; more with next_cursor" : ""}.${shortOfApprovals(page.map((r) => shown.get(r.id)))}`,
  );
}

/**
 * The text clients read: approvals short of the store's four-eyes policy are named with their count, so nothing
 * on the page reads as released before `review export` would release it.
 */
function shortOfApprovals(page: readonly (ShownStatus | undefined)[]): string {
  const short = page.filter((s): s is ShownStatus => s !== undefined && s.status === "APPROVED_FOR_RELEASE" && !s.approvals.met);
  if (short.length === 0) return "";
  const counts = [...new Set(short.map((s) => s.count))].join(", ");
  return ` ${short.length} approved item(s) on this page are short of the review policy's approvals (${counts}): not released, and not exported until the other reviewers approve.`;
}

/** The numbers of a candidate (checked against the whole store: a number whose digits are an IOC's is that IOC). */
function numbersOf(c: object): number[] {
  const out: number[] = [];
  const walk = (v: unknown): void => {
    if (typeof v === "number") out.push(v);
    else if (v !== null && typeof v === "object") for (const x of Object.values(v)) walk(x);
  };
  walk(c);
  return out;
}

// ---- get_candidates -------------------------------------------------------------------------------------------

export interface CandidatesArgs {
  include_typology_matches?: boolean;
  review_status?: ReviewStatus;
  limit?: number;
  cursor?: string;
}

/**
 * The review queue in feed order (created_at hour, then capsule id), paged by the feed order key. Withheld
 * capsules (with their reasons, paths and rules only) and the count of CLEAN exclusions come with the first page.
 */
export async function getCandidates(args: CandidatesArgs, _call: CallInfo, ctx: PrivateContext): Promise<CallToolResult> {
  const after = args.cursor === undefined ? undefined : decodeCursor(args.cursor);
  if (args.cursor !== undefined && after === undefined) return badCursor();
  const loaded = await packOrUnavailable(ctx);
  if ("error" in loaded) return loaded.error;
  const { pack } = loaded;
  let queue;
  let lens;
  try {
    const store = await ctx.state.existingStore();
    if (!store) return structuredResult({ candidates: [], withheld: [], excluded: 0, next_cursor: null }, false, "The store is empty: no outward candidates.");
    lens = statusLens(store);
    const derivations = new StoredDerivations(store, pack);
    queue = reviewQueue(derivations, lens.state, {
      includeTypologyMatches: args.include_typology_matches === true,
      includeClean: false,
    });
    derivations.save();
  } catch (e) {
    return errorResult("store_error", (e as Error).message);
  }
  let entries = queue.entries;
  if (args.review_status !== undefined) entries = entries.filter((e) => e.status === args.review_status);
  if (after !== undefined) entries = entries.filter((e) => feedOrderKey(e.candidate) > after);
  const limit = args.limit ?? DEFAULT_CANDIDATES;
  const page = entries.slice(0, limit);
  const first = after === undefined;
  const shown = page.map((e) => shownFor(lens, e.status, e.candidate_sha256));
  const result = {
    candidates: page.map((e, i) => ({ capsule_id: e.capsule_sha256, digest: e.candidate_sha256, review_status: e.status, approvals: shown[i].approvals, candidate: e.candidate })),
    withheld: first ? queue.withheld.map((w) => ({ capsule_id: w.capsule_sha256, reason: w.reason })) : [],
    excluded: first ? queue.excludedClean : 0,
    next_cursor: entries.length > limit ? encodeCursor(feedOrderKey(page[page.length - 1].candidate)) : null,
  };
  // Each candidate passed the guard over its own capsule when it was derived (its other strings are pack and
  // template text); everything else in the result is checked against every private value of the store.
  const ready = await ctx.egress.refresh(() => ctx.state.existingStore());
  if (!ready.ok) return errorResult("store_error", ready.reason);
  const verdict = ctx.egress.guard.check(
    { ...result, candidates: result.candidates.map((c) => ({ ...c, candidate: numbersOf(c.candidate) })) },
    "result",
  );
  if (!verdict.ok) return errorResult("withheld", `the candidates page was withheld: ${verdict.reason}`);
  const text = `${result.candidates.length} outward candidate(s) for human review, ${result.withheld.length} withheld, ${result.excluded} excluded (CLEAN).${shortOfApprovals(shown)} Approval and export happen at the command line.`;
  return structuredResult(result, false, text);
}
