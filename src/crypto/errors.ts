/**
 * Errors of the key, sealing and safe-write layer. Each message is one precise line that names the file and the
 * rule and, where the user can fix it, says how. Messages never contain key material or plaintext.
 */

/** Why a key could not be used: missing, malformed, wrongly typed or exposed key files, wrong passphrase, mode mix-up. */
export type KeyErrorCode =
  | "missing"
  | "not-regular"
  | "permissions"
  | "malformed"
  | "wrong-type"
  | "wrong-passphrase"
  | "mode-mismatch"
  | "exists";

export class KeyError extends Error {
  override readonly name = "KeyError";
  constructor(
    readonly code: KeyErrorCode,
    message: string,
  ) {
    super(message);
  }
}

/** `auth`: the file is not what we sealed (any flipped bit, truncation, wrong key); `version`: a newer format. */
export type SealErrorCode = "auth" | "version";

export class SealError extends Error {
  override readonly name = "SealError";
  constructor(
    readonly code: SealErrorCode,
    message: string,
    /** The file label used in the message (a path relative to the data directory). */
    readonly label: string,
  ) {
    super(message);
  }
}

/** A failed file-system step of a safe write (the temporary file is already removed). */
export class SafeWriteError extends Error {
  override readonly name = "SafeWriteError";
  constructor(
    message: string,
    readonly code?: string,
  ) {
    super(message);
  }
}

/** The data directory cannot be used: it is a file, or it is not writable when a command must write. */
export class DataDirError extends Error {
  override readonly name = "DataDirError";
}
