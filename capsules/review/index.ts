/** Public API of the review log, queue and export. */
export { acceptedByLog, approvalsFor, approvalsText, countedKeys, type ApprovalCount } from "./approvals.js";
export { recordDecision, type DecisionRequest, type RecordedDecision } from "./decide.js";
export {
  approvalsProblem,
  DEFAULT_POLICY,
  MAX_APPROVALS,
  policyPath,
  readReviewPolicy,
  REVIEW_POLICY_SCHEMA,
  writeReviewPolicy,
  type ReviewPolicy,
} from "./policy.js";
export { allowedDecisions, DECISIONS, isDecision, REVIEW_STATUSES, VERB_DECISIONS, type Decision, type ReviewStatus, type ReviewVerb } from "./decisions.js";
export { ReviewError, type ReviewErrorCode } from "./errors.js";
export { buildExport, REVIEW_EXPORT_SCHEMA, vetoesOf, type ExportLine, type ExportOptions, type ExportOutcome, type ExportRefusal } from "./export-lines.js";
export { checkChain, type ChainCheck, type ChainProblem } from "./chain.js";
export { checkHead, readHead, REVIEW_HEAD_SCHEMA, writeHead, type HeadCheck, type LogHead } from "./head.js";
export { reviewLayout, type ReviewLayout } from "./layout.js";
export { LOCK_STALE_MS, LOCK_TIMEOUT_MS, withFileLock, type LockOptions } from "./lock.js";
export {
  appendDecision,
  loadReviewLog,
  LOG_MAX_BYTES,
  readLogBytes,
  verifyReviewLog,
  type AppendOptions,
  type DecisionDraft,
  type LogVerification,
  type Reviewer,
} from "./log.js";
export { queueEntry, reviewQueue, type EntryResult, type QueueEntry, type QueueOutcome } from "./queue.js";
export {
  decisionTime,
  GENESIS_PREV,
  isDecisionTime,
  privateNoteDigestOf,
  publicNoteOf,
  reasonOf,
  REVIEW_RECORD_SCHEMA_V1,
  type ReviewRecordV1,
  type ReviewRecordV2,
  type UnsignedRecordV1,
  type UnsignedRecordV2,
  RecordShapeError,
  recordBytes,
  recordDigest,
  recordFromBytes,
  recordFromJson,
  REVIEW_RECORD_SCHEMA,
  signatureProblem,
  SIGNING_DOMAIN,
  signRecord,
  type ReviewerIdentity,
  type ReviewRecord,
  type UnsignedRecord,
} from "./record.js";
export { guardOutward, openReviewTarget, type ReviewTarget } from "./review-target.js";
export {
  createReviewerKey,
  loadReviewerKey,
  migrateReviewerKeyFiles,
  reviewerKeyFileName,
  REVIEWER_KEY_TYPE,
  reviewerKeysDir,
  reviewerNames,
  selectReviewerKey,
  type ReviewerKeyFile,
} from "./reviewer-key.js";
export { finalText, ReviewState, type LoggedRecord } from "./state.js";
export { reviewedRows, shownFor, shownStatus, statusLens, type ApprovalsSummary, type ReviewedRow, type ShownStatus, type StatusLens } from "./status.js";
export {
  isReviewReason,
  NOTE_MAX_CHARS,
  normalizedReviewerName,
  noteProblem,
  reasonProblem,
  REVIEW_REASONS,
  REVIEWER_NAME_MAX_CHARS,
  reviewerNameProblem,
  type ReviewReason,
} from "./text-rules.js";
export { openPrivateNote, privateNoteDigest, privateNotesDir, sealPrivateNote, type OpenedNote } from "./private-notes.js";
export { checkPositions, reestablishCommand, reestablishPosition, REESTABLISH_REASONS, type ReestablishReason } from "./positions.js";
export { parseTrustList, verifyExportBytes, type ExportKey, type ExportLineReport, type ExportReport, type WithdrawnLead } from "./verify-export.js";
export {
  isKnownReviewer,
  loadReviewerRegistry,
  registerReviewer,
  reviewerRegistryPath,
  REVIEWER_REGISTRY_FORMAT,
  type RegisteredReviewer,
  type ReviewerOrigin,
  type ReviewerRegistry,
} from "./reviewer-registry.js";
export { CHECKPOINT_SCHEMA, checkpointLine, extensionProblem, readCheckpoint, type Checkpoint, type Veto } from "./checkpoint.js";
