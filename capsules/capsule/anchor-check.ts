/**
 * Anchor check per binding (capsule-v1 §8.7), independent of the ledger result: prefix and root agreement, the
 * anchor input's key/value lines, and the detached OpenTimestamps envelope over the exact anchor input bytes.
 * `cryptographic_timestamp` is always `not_verified`.
 */
import { echoValue } from "./fields.js";
import { FailureMemo } from "./memo.js";
import type { Binding } from "./model.js";
import { OtsError, verifyOtsEnvelope, type OtsStructure } from "./ots.js";
import { ANCHOR_MEANING, type AnchorItem, type VerificationReport } from "./report.js";
import type { ResolvedArtifacts } from "./resolved.js";

/** An anchor check failure; `message` is the exact problem text. */
export class AnchorProblem extends Error {}

const utf8 = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true });
const ANCHOR_KEY = /^[a-z][a-z0-9_]*$/;
/** Python `str.splitlines()` boundaries: CR LF, LF, CR, VT, FF, FS, GS, RS, NEL, LS, PS. */
const LINE_BOUNDARY = /\r\n|[\n\r\v\f\x1c\x1d\x1e\x85\u2028\u2029]/;

/** Lines of `text` as Python `str.splitlines()` gives them. */
export function splitLines(text: string): string[] {
  if (text === "") return [];
  const lines = text.split(LINE_BOUNDARY);
  if (LINE_BOUNDARY.test(text.slice(-1))) lines.pop(); // a boundary at the very end adds no empty line
  return lines;
}

/** §8.7.1: `key value` lines with unique keys. Throws {@link AnchorProblem}. */
export function parseAnchorInput(bytes: Uint8Array): Map<string, string> {
  let text: string;
  try {
    text = utf8.decode(bytes);
  } catch {
    throw new AnchorProblem("anchor input is not UTF-8");
  }
  const fields = new Map<string, string>();
  splitLines(text).forEach((line, i) => {
    const n = i + 1;
    const space = line.indexOf(" ");
    if (line === "" || space === -1) throw new AnchorProblem(`anchor input line ${n} is malformed`);
    const key = line.slice(0, space);
    const value = line.slice(space + 1);
    if (!ANCHOR_KEY.test(key) || value === "" || fields.has(key)) {
      throw new AnchorProblem(`anchor input line ${n} is malformed/duplicate`);
    }
    fields.set(key, value);
  });
  return fields;
}

/** Memos of the byte-heavy steps, shared by the bindings of one verification (they may share input and proof). */
interface AnchorMemo {
  inputs: FailureMemo<Map<string, string>>;
  envelopes: FailureMemo<OtsStructure>;
}

const isProblem = (e: unknown): e is AnchorProblem => e instanceof AnchorProblem;
const newMemo = (): AnchorMemo => ({ inputs: new FailureMemo(isProblem), envelopes: new FailureMemo(isProblem) });

function envelopeOf(proof: Uint8Array, input: Uint8Array): OtsStructure {
  try {
    return verifyOtsEnvelope(proof, input);
  } catch (err) {
    if (err instanceof OtsError) throw new AnchorProblem(err.message);
    throw err;
  }
}

export function checkAnchor(binding: Binding, index: number, resolved: ResolvedArtifacts, memo = newMemo()): AnchorItem {
  const a = binding.anchor;
  const q = binding.inclusion;
  const e = binding.entry;
  const problems: string[] = [];
  let structure: AnchorItem["structure"];
  try {
    if (a.prefixEntries !== q.nEntries) throw new AnchorProblem("anchor prefix length and inclusion prefix differ");
    if (a.merkleRoot !== q.merkleRoot) throw new AnchorProblem("anchor root and inclusion root differ");
    if (e.seq === a.prefixEntries - 1 && a.headHash !== e.entryHash) {
      throw new AnchorProblem("anchor head differs from the final included entry");
    }
    const input = resolved.get(a.inputArtifactRef);
    if (input === undefined) throw new AnchorProblem("anchor input artifact did not verify");
    const proof = resolved.get(a.proofArtifactRef);
    if (proof === undefined) throw new AnchorProblem("detached timestamp proof artifact did not verify");
    const fields = memo.inputs.get(a.inputArtifactRef, () => parseAnchorInput(input));
    const L = a.ledger;
    const expected: [string, string][] = [
      [`${L}_entries`, String(a.prefixEntries)],
      [`${L}_head`, a.headHash],
      [`${L}_root`, a.merkleRoot],
      ["anchored_at", a.anchoredAt],
    ];
    for (const [key, value] of expected) {
      if (fields.get(key) !== value) throw new AnchorProblem(`anchor input field ${echoValue(key)} does not match binding`);
    }
    const key = `${a.proofArtifactRef} ${a.inputArtifactRef}`; // identifiers contain no space
    structure = memo.envelopes.get(key, () => envelopeOf(proof, input));
  } catch (err) {
    if (!(err instanceof AnchorProblem)) throw err;
    problems.push(err.message);
  }
  const item: AnchorItem = {
    id: binding.id,
    index,
    status: structure ? "envelope_bound" : "failed",
    problems,
    cryptographic_timestamp: "not_verified",
  };
  if (structure) {
    item.structure = { nodes: structure.nodes, attestations: structure.attestations };
    item.prefix_entries = a.prefixEntries;
    item.root = a.merkleRoot;
  }
  return item;
}

/** The anchor section over all bindings (§10.5 aggregate). */
export function anchorSection(bindings: Binding[], resolved: ResolvedArtifacts): VerificationReport["anchor"] {
  const memo = newMemo();
  const items = bindings.map((b, i) => checkAnchor(b, i, resolved, memo));
  const status =
    items.length === 0 ? "not_present" : items.every((x) => x.status === "envelope_bound") ? "envelope_bound" : "failed";
  return { status, items, meaning: ANCHOR_MEANING };
}
