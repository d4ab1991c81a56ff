/**
 * Private review notes (issue 28 item 3): what a reviewer writes with `--note` stays in the sealed store. The signed
 * record carries only a salted digest of it, a commitment that reveals nothing about the note to whoever reads the
 * (unsealed) log or an export:
 *
 *     private_note_sha256 = SHA-256("evidence-bridge private review note v1\0" ‖ salt ‖ UTF-8 note)
 *
 * with a fresh 32-byte random salt per note. The note and its salt are sealed together (src/crypto/seal.ts, kind
 * "private review note") as the canonical JSON `{"format":"evidence-bridge-private-note/v1","note":…,"salt":<hex>}`
 * in `<home>/review/notes/<private_note_sha256>.sealed` (0600 in a 0700 directory), written before the record is
 * appended, so a record never names a note that was not sealed; when the append is refused the note is removed
 * again, and a crash in between leaves an orphan sealed note, which names no record. Opening checks the seal and that the salt and note hash to the name.
 *
 * The note itself is never written unsealed, never exported and never part of a signed record; reviewers see it in
 * `review show` and on the page (both open the store).
 */
import { join } from "node:path";
import { randomBytes } from "node:crypto";
import { canonicalBytes } from "../../src/json/canonical.js";
import { parseStrictJson } from "../../src/json/parse.js";
import { isJsonObject } from "../../src/json/value.js";
import { bytesToHex, hexToBytes, sha256Hex } from "../../src/hash.js";
import { readRegularFileIfExists } from "../../src/crypto/safe-read.js";
import { createFileExclusive, ensurePrivateDir, removeQuietly } from "../../src/crypto/safe-write.js";
import { seal, SEAL_OVERHEAD, SealKind, unseal, type StoreKey } from "../../src/crypto/seal.js";
import { ReviewError } from "./errors.js";
import { reviewLayout } from "./layout.js";
import { NOTE_MAX_CHARS } from "./text-rules.js";

export const PRIVATE_NOTE_FORMAT = "evidence-bridge-private-note/v1";
const DIGEST_DOMAIN = new TextEncoder().encode("evidence-bridge private review note v1\u0000");
const SALT_BYTES = 32;
/** A note is at most 1000 code points (4 bytes each), plus the salt and the JSON around them. */
const NOTE_FILE_MAX_BYTES = NOTE_MAX_CHARS * 4 * 6 + 512 + SEAL_OVERHEAD;
const HEX64 = /^[0-9a-f]{64}$/;

/** The salted digest of `note` under `salt` (what the record signs). */
export function privateNoteDigest(salt: Uint8Array, note: string): string {
  const text = new TextEncoder().encode(note);
  const buf = new Uint8Array(DIGEST_DOMAIN.length + salt.length + text.length);
  buf.set(DIGEST_DOMAIN);
  buf.set(salt, DIGEST_DOMAIN.length);
  buf.set(text, DIGEST_DOMAIN.length + salt.length);
  return sha256Hex(buf);
}

export function privateNotesDir(home: string): string {
  return join(reviewLayout(home).dir, "notes");
}

function fileName(digest: string): string {
  return `${digest}.sealed`;
}

/** The name a sealed note is authenticated under (relative to the data directory). */
function label(digest: string): string {
  return `review/notes/${fileName(digest)}`;
}

/**
 * Seals `note` (already checked with noteProblem) under the store key; returns its salted digest. Throws
 * {@link ReviewError} `io` when it cannot be written.
 */
export function sealPrivateNote(home: string, key: StoreKey, note: string): string {
  const salt = Uint8Array.from(randomBytes(SALT_BYTES));
  const digest = privateNoteDigest(salt, note);
  const body = canonicalBytes({ format: PRIVATE_NOTE_FORMAT, note, salt: bytesToHex(salt) }, "private note");
  const dir = privateNotesDir(home);
  try {
    ensurePrivateDir(reviewLayout(home).dir);
    ensurePrivateDir(dir);
    if (createFileExclusive(dir, fileName(digest), seal(body, key, SealKind.reviewNote, label(digest))) === "exists") {
      throw new Error("a sealed note with this digest already exists"); // 256 random bits: never by chance
    }
  } catch (e) {
    throw new ReviewError("io", `cannot seal the private note in ${dir}: ${(e as Error).message}; nothing was recorded`);
  }
  return digest;
}

/** Removes a sealed note that no record names (its decision was refused after it was sealed); quiet when absent. */
export function removePrivateNote(home: string, digest: string): void {
  if (HEX64.test(digest)) removeQuietly(join(privateNotesDir(home), fileName(digest)));
}

/** A private note opened for a reviewer, or why it cannot be shown (never the note's text in a problem). */
export type OpenedNote = { note: string } | { problem: string };

/** Opens the sealed note a record's `private_note_sha256` names, checking the seal and the digest. */
export function openPrivateNote(home: string, key: StoreKey, digest: string): OpenedNote {
  if (!HEX64.test(digest)) return { problem: "private_note_sha256 is not a digest" };
  const path = join(privateNotesDir(home), fileName(digest));
  let sealed: Uint8Array | undefined;
  try {
    sealed = readRegularFileIfExists(path, { maxBytes: NOTE_FILE_MAX_BYTES, label: label(digest) });
  } catch (e) {
    return { problem: (e as Error).message };
  }
  if (sealed === undefined) return { problem: `the sealed note ${label(digest)} is missing` };
  try {
    const doc = parseStrictJson(unseal(sealed, key, SealKind.reviewNote, label(digest)));
    if (!isJsonObject(doc) || [...doc.keys()].sort().join(",") !== "format,note,salt" || doc.get("format") !== PRIVATE_NOTE_FORMAT) {
      return { problem: `${label(digest)} is not a v1 private note` };
    }
    const note = doc.get("note");
    const salt = doc.get("salt");
    if (typeof note !== "string" || typeof salt !== "string" || !HEX64.test(salt) || privateNoteDigest(hexToBytes(salt), note) !== digest) {
      return { problem: `${label(digest)} does not hash to the digest the record signed` };
    }
    return { note };
  } catch (e) {
    return { problem: (e as Error).message };
  }
}
