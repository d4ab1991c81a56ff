/** Public API of the sealed private store. */
export { StoreError, type StoreErrorCode } from "./errors.js";
export { ImportError, importCandidates, readImportCandidate, type ImportCandidate, type ImportOptions } from "./import-capsules.js";
export { storeLayout, type StoreLayout } from "./layout.js";
export { capsuleOpener, checkCapsuleId, openSealedCapsule, readSealedCapsule, type CapsuleOpener, type OpenedCapsule } from "./open-capsule.js";
export { checkReceiptBytes, checkStoredReceipt, makeReceipt, RECEIPT_FORMAT, receiptMessage, type ReceiptCheck } from "./receipts.js";
export { DEFAULT_REVIEW_STATUS, REVIEW_STATUSES, rowFacts, type CapsuleRow, type ReviewStatus, type RowFacts } from "./rows.js";
export {
  MESSAGE_MAX_BYTES,
  openOrCreateStore,
  openStore,
  SealedStore,
  type StorableCapsule,
  type PutResult,
  type StoreConfig,
  type StoreOptions,
} from "./store.js";
