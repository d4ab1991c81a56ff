/**
 * One core for both doors (`capsule assess`, MCP `assess_message`): message + judgement → assessment (derive.ts)
 * → Evidence Capsule (producer `evidence-bridge`, software `evidence-bridge/assess`) → sealed store, with the
 * idempotence rule of docs/assess.md: a message already recorded returns the existing capsule unless `supersede`.
 *
 * The message text is hashed, used and dropped; it is sealed only with `retainMessage`.
 */
import { createHash } from "node:crypto";
import type { IntelligencePack } from "../../published/pack/types.js";
import { ASSESS_PRODUCER } from "../assessment/adapter.js";
import { buildFromIntake, type BuiltCapsule } from "../pipeline/build.js";
import type { LoadedCapsule } from "../pipeline/open.js";
import type { Assessment } from "../assessment/types.js";
import { findRecorded, noteRecorded, pseudonymKey } from "../store/recorded.js";
import type { SealedStore } from "../store/store.js";
import { runDurable, runDurableSync, type DurableSteps } from "../../src/crypto/sync-set.js";
import { checkAgainstMessage, deriveAssessment, type DerivedAssessment } from "./derive.js";
import type { Judgement } from "./judgement.js";
import type { MessageText } from "./message-text.js";

export interface AssessRequest {
  /** The message, checked by the door that received it ({@link checkMessageText}). */
  message: MessageText;
  judgement: Judgement;
  retainMessage?: boolean;
  supersede?: boolean;
  now?: Date;
}

export interface AssessOutcome {
  /** `new`: a capsule was built and sealed; `already_recorded`: the message was recorded before, nothing built. */
  status: "new" | "already_recorded";
  capsuleId: string;
  /** The capsule file bytes (built, or the stored copy): `capsule.bytes`. */
  capsuleBytes: Uint8Array;
  /** The capsule as a pipeline value: built now, or opened from the store. */
  capsule: BuiltCapsule | LoadedCapsule;
  /** Capsules of the same message this one supersedes (only with `supersede`). */
  supersedes: string[];
  messageRetained: boolean;
  /** The store holds the message sealed: retained now, or by an earlier call. */
  messageHeld: boolean;
  /** The derived assessment (only for `new`). */
  assessment?: Assessment;
  walletChecksums?: DerivedAssessment["wallet_checksums"];
  /**
   * True when the judgement named IOCs and none was recorded: the assessment came out CLEAN with a detector score
   * under 15, and assessment-v1 then records no IOCs (`iocs: {}`). The doors say so.
   */
  clientIocsDropped?: boolean;
}

/** The doors' words for {@link AssessOutcome.clientIocsDropped}. */
export const CLEAN_DROPS_IOCS = "the judgement's iocs were not recorded: the assessment is CLEAN with a detector score under 15, and assessment-v1 then records no IOCs";

export function assessAndSeal(store: SealedStore, pack: IntelligencePack, req: AssessRequest): AssessOutcome {
  return runDurableSync(assessSteps(store, pack, req));
}

/** {@link assessAndSeal} with the independent syncs of the put at once (src/crypto/sync-set.ts): a one-shot command. */
export function assessAndSealConcurrently(store: SealedStore, pack: IntelligencePack, req: AssessRequest): Promise<AssessOutcome> {
  return runDurable(assessSteps(store, pack, req));
}

function* assessSteps(store: SealedStore, pack: IntelligencePack, req: AssessRequest): DurableSteps<AssessOutcome> {
  const message = req.message.text;
  const messageSha256 = createHash("sha256").update(message, "utf8").digest("hex");
  // The judgement must hold for the message even when nothing new is built (the extraction is reused below).
  const checked = checkAgainstMessage(message, req.judgement);
  const existing = findRecorded(store, { messageSha256 });
  const retain = req.retainMessage === true;
  if (existing.length > 0 && req.supersede !== true) {
    const id = existing[existing.length - 1]; // the newest
    if (retain) store.putMessage(message, messageSha256);
    const capsule = store.openCapsule(id);
    return { status: "already_recorded", capsuleId: id, capsuleBytes: capsule.bytes, capsule, supersedes: [], messageRetained: retain, messageHeld: retain || store.hasMessage(messageSha256) };
  }
  const derived = deriveAssessment({ message, judgement: req.judgement, pack, pseudonymKey: pseudonymKey(store), now: req.now, checked });
  const built = buildFromIntake(derived.intake, ASSESS_PRODUCER);
  const capsuleBytes = built.bytes;
  const id = built.id;
  // The message first: a capsule stored without the message it should retain would make a rerun answer "already
  // recorded" with nothing retained. A retained message without its capsule is sealed and put again, idempotently.
  if (retain) store.putMessage(message, messageSha256);
  yield* store.putSteps([built]);
  noteRecorded(store, id, { messageSha256, assessmentId: derived.assessment.assessment_id, createdAt: derived.assessment.created_at });
  return {
    status: "new",
    capsuleId: id,
    capsuleBytes,
    capsule: built,
    supersedes: existing.filter((x) => x !== id),
    messageRetained: retain,
    messageHeld: retain || store.hasMessage(messageSha256),
    assessment: derived.assessment,
    walletChecksums: derived.wallet_checksums,
    clientIocsDropped: Object.values(req.judgement.iocs ?? {}).some((v) => v.length > 0) && Object.keys(derived.assessment.detector.iocs).length === 0,
  };
}
