/**
 * The producing installation as the export formats name it: its signing key fingerprint (public), a stable
 * display name, and a stable time for objects that describe the installation (the first record of the review
 * log, which never changes because the log is append-only).
 */
import { EXPORT_NAMESPACE, uuidV5 } from "./uuid5.js";

export interface Producer {
  /** `ed25519:<64 hex>` of the installation's signing key. */
  fingerprint: string;
  /** ISO time (whole seconds or milliseconds, UTC) used as the identity's created/modified. */
  since: string;
}

export function producerName(p: Producer): string {
  return `evidence-bridge installation ${p.fingerprint.slice(0, "ed25519:".length + 16)}`;
}

/** A UUID for the installation (STIX identity, MISP organisation). */
export function producerUuid(p: Producer): string {
  return uuidV5(EXPORT_NAMESPACE, `installation/${p.fingerprint}`);
}
