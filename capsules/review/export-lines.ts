/**
 * `review export` (product.md §8): approved candidates with their signed decisions, one canonical JSON line each:
 *
 *     {"candidate":{…the candidate…},"decision":{…the signed record…},"schema_version":"evidence-bridge-review-export/v1"}
 *
 * Exported: every capsule whose LATEST decision record approves a candidate, in log order. Before anything is
 * written, the whole log must verify, and each approved candidate is re-derived from the sealed capsule in the
 * approved view and must have exactly the approved digest (the data, the pack or the rules did not change after
 * review); its record's signature is checked again; and the leak guard runs on the whole line (candidate, note,
 * names) against that capsule's private values. Any refusal refuses the export (all or nothing), naming every
 * refused capsule and why. Nothing is sent anywhere.
 */
import { canonicalBytes } from "../../src/json/canonical.js";
import type { IntelligencePack } from "../../published/pack/types.js";
import type { Candidate } from "../candidates/types.js";
import type { SealedStore } from "../store/store.js";
import { checkpointLine } from "./checkpoint.js";
import { ReviewError } from "./errors.js";
import type { LogVerification } from "./log.js";
import { signatureProblem, type ReviewRecord } from "./record.js";
import { guardOutward, openReviewTarget } from "./review-target.js";

export const REVIEW_EXPORT_SCHEMA = "evidence-bridge-review-export/v1";

export interface ExportLine {
  schema_version: typeof REVIEW_EXPORT_SCHEMA;
  candidate: Candidate;
  decision: ReviewRecord;
}

export interface ExportRefusal {
  capsule_sha256: string;
  seq: number;
  reason: string;
}

export interface ExportOutcome {
  /** Canonical line bytes, each ending with LF (the approved candidates). */
  lines: Uint8Array[];
  /**
   * The signed checkpoint line (checkpoint.ts) that ends a JSON Lines export: the log's record count and digests,
   * signed by the installation key. Undefined only when there is no store (so no key) and nothing was approved.
   */
  checkpoint: Uint8Array | undefined;
  exported: { capsule_sha256: string; candidate_sha256: string; seq: number; reviewer: string }[];
}

const SHORT = 12;

/** One refusal for one approved record, or the export line. */
function exportOne(store: SealedStore, pack: IntelligencePack, record: ReviewRecord): { line: ExportLine } | { refusal: string } {
  const id = record.capsule_sha256;
  const sig = signatureProblem(record);
  if (sig !== undefined) return { refusal: `bad signature: ${sig}` };
  if (!store.hasCapsule(id)) return { refusal: "the capsule is no longer in the store" };
  let target;
  try {
    target = openReviewTarget(store, pack, id, { includeTypologyMatches: record.typology_match_visible, includeClean: true });
  } catch (e) {
    return { refusal: `the sealed capsule cannot be opened: ${(e as Error).message}` };
  }
  const r = target.result;
  if (r.status !== "emitted") return { refusal: `no candidate can be derived any more: ${r.reason}` };
  if (r.digest !== record.candidate_sha256) {
    return {
      refusal: `the re-derived candidate ${r.digest.slice(0, SHORT)} differs from the approved digest ${record.candidate_sha256.slice(0, SHORT)} (the capsule, the pack or the rules changed after review): review it again`,
    };
  }
  const line: ExportLine = { schema_version: REVIEW_EXPORT_SCHEMA, candidate: r.candidate, decision: record };
  const leak = guardOutward(target, line, "export");
  if (leak !== undefined) return { refusal: leak };
  return { line };
}

/** Builds every export line, or throws {@link ReviewError} `export-refused` naming each refused capsule. */
export function buildExport(
  store: SealedStore | undefined,
  pack: IntelligencePack,
  log: LogVerification,
  onProgress?: (done: number, total: number) => void,
): ExportOutcome {
  if (!log.ok) throw new ReviewError("broken-log", `the review log ${log.path} does not verify: ${log.error}; nothing was exported`);
  const approved = log.state.latestPerCapsule().filter((e) => e.record.decision === "APPROVED_FOR_RELEASE");
  const digests = log.records.map((e) => e.digest);
  const out: ExportOutcome = { lines: [], exported: [], checkpoint: store === undefined ? undefined : checkpointLine(digests, store.keys.signing) };
  const refusals: ExportRefusal[] = [];
  for (const [i, { record }] of approved.entries()) {
    onProgress?.(i, approved.length);
    const result =
      store === undefined ? { refusal: "the capsule is no longer in the store (there is no store)" } : exportOne(store, pack, record);
    if ("refusal" in result) {
      refusals.push({ capsule_sha256: record.capsule_sha256, seq: record.seq, reason: result.refusal });
      continue;
    }
    const bytes = canonicalBytes(result.line, "export");
    const line = new Uint8Array(bytes.length + 1);
    line.set(bytes);
    line[bytes.length] = 0x0a;
    out.lines.push(line);
    out.exported.push({ capsule_sha256: record.capsule_sha256, candidate_sha256: record.candidate_sha256, seq: record.seq, reviewer: record.reviewer.name });
  }
  onProgress?.(approved.length, approved.length);
  if (refusals.length > 0) {
    const named = refusals.map((r) => `capsule ${r.capsule_sha256} (approved in record #${r.seq}): ${r.reason}`).join("; ");
    throw new ReviewError(
      "export-refused",
      `refused ${refusals.length} of ${approved.length} approved candidate${approved.length === 1 ? "" : "s"}, nothing was exported: ${named}`,
    );
  }
  return out;
}
