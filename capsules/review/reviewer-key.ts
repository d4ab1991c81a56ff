/**
 * Reviewer keys: one Ed25519 key per human reviewer, in `<home>/keys/reviewers/<fingerprint hex>.key` (key-file
 * format of src/crypto/key-files.ts, type `reviewer-key`, mode 0600; group- or world-readable files are refused).
 * Files are named by the key's fingerprint, never by the reviewer's name (issue 28 item 4): the name is a label
 * kept in the signed reviewer registry (reviewer-registry.ts), and it is the registry's name that a decision signs.
 * Key files of older stores, named `<name>.key`, are renamed to their fingerprint the first time any command looks
 * for reviewer keys (a hard link to the new name, then the old name removed; docs/review.md "Migration").
 *
 * Reviewer keys are separate from the installation's signing key: a decision proves which reviewer key signed it,
 * not which installation. In passphrase mode reviewer keys are still plain key files (personal signing keys, not
 * store secrets).
 */
import { linkSync, readdirSync, unlinkSync } from "node:fs";
import { join } from "node:path";
import { prepareDataDir } from "../../src/crypto/data-dir.js";
import { KeyError } from "../../src/crypto/errors.js";
import { createKeyFile, readKeyFile } from "../../src/crypto/key-files.js";
import { keyLayout, loadOrCreateKeyFileKeysSync, type InstallationKeys } from "../../src/crypto/keys.js";
import { storeHoldsSealedFiles } from "../store/store.js";
import { ensurePrivateDir, fsyncDir } from "../../src/crypto/safe-write.js";
import { generateSigningSeed, SIGNING_SEED_BYTES, signingKeyFromSeed, type SigningKey } from "../../src/crypto/sign.js";
import { errno } from "../../src/errno.js";
import { ReviewError } from "./errors.js";
import type { Reviewer } from "./log.js";
import { writeEnrolment } from "./positions.js";
import { loadReviewerRegistry, registerReviewer } from "./reviewer-registry.js";
import { normalizedReviewerName, reviewerNameProblem } from "./text-rules.js";

export const REVIEWER_KEY_TYPE = "reviewer-key";
const KEY_SUFFIX = ".key";
const FINGERPRINT_FILE = /^([0-9a-f]{64})\.key$/;

export interface ReviewerKeyFile extends Reviewer {
  path: string;
}

export function reviewerKeysDir(home: string): string {
  return join(keyLayout(home).dir, "reviewers");
}

/** The key file name of a reviewer key: its fingerprint's hex digits. */
export function reviewerKeyFileName(fingerprint: string): string {
  return `${fingerprint.replace(/^ed25519:/, "")}${KEY_SUFFIX}`;
}

/**
 * Creates a reviewer key and registers it in the store's reviewer registry (reviewer-registry.ts), signed with
 * the installation keys: `opts.installation` when given (the CLI loads them, also in passphrase mode), else the
 * key-file keys, created when the data directory has none and no sealed files. The name is taken in Unicode NFC
 * and must follow the name rule (text-rules.ts). Refuses (KeyError `exists`) a name already registered.
 */
export function createReviewerKey(home: string, typedName: string, opts: { installation?: InstallationKeys } = {}): ReviewerKeyFile {
  const name = normalizedReviewerName(typedName);
  const problem = reviewerNameProblem(name);
  if (problem !== undefined) throw new ReviewError("invalid-name", `reviewer name: ${problem}`);
  prepareDataDir(home);
  const taken = loadReviewerRegistry(home).byName(name);
  if (taken !== undefined) throw new KeyError("exists", `a reviewer named ${name} is already registered (key ${taken.fingerprint}); refusing to create another`);
  const installation = opts.installation ?? loadOrCreateKeyFileKeysSync(home, { allowCreate: !storeHoldsSealedFiles(home) });
  const dir = reviewerKeysDir(home);
  ensurePrivateDir(keyLayout(home).dir);
  ensurePrivateDir(dir);
  const seed = generateSigningSeed();
  const key = signingKeyFromSeed(seed);
  const file = reviewerKeyFileName(key.fingerprint);
  if (!createKeyFile(dir, file, REVIEWER_KEY_TYPE, seed)) throw new KeyError("exists", `a reviewer key ${join(dir, file)} already exists; refusing to replace it`);
  registerReviewer(home, installation, { fingerprint: key.fingerprint, name, origin: "created" });
  // It has signed nothing yet: the enrolment position makes deleting its position later a refusal (positions.ts).
  writeEnrolment(dir, key);
  return { name, key, path: join(dir, file) };
}

/**
 * Renames the key files of older stores (`<name>.key`) to their fingerprint (`<hex>.key`): a hard link to the new
 * name, then the old name removed. A name-named file whose key is already present under its fingerprint is removed
 * only when both hold the same key. Damaged files are left alone (loading them names the problem).
 */
export function migrateReviewerKeyFiles(home: string): void {
  const dir = reviewerKeysDir(home);
  let changed = false;
  for (const n of listDir(dir)) {
    if (!n.endsWith(KEY_SUFFIX) || FINGERPRINT_FILE.test(n)) continue;
    let key: SigningKey;
    try {
      key = signingKeyFromSeed(readKeyFile(join(dir, n), REVIEWER_KEY_TYPE, SIGNING_SEED_BYTES));
    } catch {
      continue;
    }
    const target = join(dir, reviewerKeyFileName(key.fingerprint));
    try {
      linkSync(join(dir, n), target);
    } catch (e) {
      if (errno(e) !== "EEXIST") throw new ReviewError("io", `cannot rename the reviewer key file ${join(dir, n)} to ${target}: ${errno(e) ?? (e as Error).message}`);
      const there = signingKeyFromSeed(readKeyFile(target, REVIEWER_KEY_TYPE, SIGNING_SEED_BYTES));
      if (there.fingerprint !== key.fingerprint) continue;
    }
    unlinkSync(join(dir, n));
    // Enrolled now (unless a position of this key exists, such as an older name-named one): from here on, a missing
    // position of this key is refused like that of a key created by 'keys init --reviewer'.
    writeEnrolment(dir, key);
    changed = true;
  }
  if (changed) fsyncDir(dir);
}

function listDir(dir: string): string[] {
  try {
    return readdirSync(dir).sort();
  } catch (e) {
    if (errno(e) === "ENOENT") return [];
    throw new ReviewError("io", `cannot list ${dir}: ${errno(e) ?? (e as Error).message}`);
  }
}

/** Loads the key of the reviewer registered as `name` (missing, exposed or malformed files are errors naming the file). */
export function loadReviewerKey(home: string, typedName: string): ReviewerKeyFile {
  const name = normalizedReviewerName(typedName);
  migrateReviewerKeyFiles(home);
  const registered = loadReviewerRegistry(home).byName(name);
  if (registered === undefined) {
    throw new ReviewError("reviewer-key", `no registered reviewer named ${name}: create a key with 'evidence-bridge keys init --reviewer NAME' ('keys show' lists the registered reviewers)`);
  }
  return loadKeyOf(home, registered.fingerprint, registered.name);
}

function loadKeyOf(home: string, fingerprint: string, name: string): ReviewerKeyFile {
  const path = join(reviewerKeysDir(home), reviewerKeyFileName(fingerprint));
  let key: SigningKey;
  try {
    key = signingKeyFromSeed(readKeyFile(path, REVIEWER_KEY_TYPE, SIGNING_SEED_BYTES));
  } catch (e) {
    if (e instanceof KeyError && e.code === "missing") {
      throw new ReviewError("reviewer-key", `no key file for reviewer ${name} (${path}): the key lives on another machine, or was removed`);
    }
    throw e;
  }
  if (key.fingerprint !== fingerprint) throw new ReviewError("reviewer-key", `the key file ${path} holds key ${key.fingerprint}, not ${fingerprint}: it was renamed or replaced`);
  return { name, key, path };
}

/** Names (from the registry) of the registered reviewers whose key file is on this machine, sorted. */
export function reviewerNames(home: string): string[] {
  migrateReviewerKeyFiles(home);
  const present = new Set(listDir(reviewerKeysDir(home)).filter((n) => FINGERPRINT_FILE.test(n)));
  return loadReviewerRegistry(home)
    .reviewers.filter((r) => present.has(reviewerKeyFileName(r.fingerprint)))
    .map((r) => r.name)
    .sort();
}

/** The fingerprints of every reviewer key file on this machine, registered or not (sorted). */
function localKeyFiles(home: string): string[] {
  migrateReviewerKeyFiles(home);
  return listDir(reviewerKeysDir(home)).filter((n) => FINGERPRINT_FILE.test(n));
}

/** The reviewer key to sign with: the one registered as `name`, or the only registered key on this machine. */
export function selectReviewerKey(home: string, name: string | undefined): ReviewerKeyFile {
  if (name !== undefined) return loadReviewerKey(home, name);
  const names = reviewerNames(home);
  if (names.length === 0) {
    const files = localKeyFiles(home);
    if (files.length > 0) {
      const fp = `ed25519:${FINGERPRINT_FILE.exec(files[0])![1]}`;
      throw new ReviewError(
        "reviewer-key",
        `reviewer key ${fp} is not registered in this store: register it with 'evidence-bridge keys trust ${fp} --name NAME', or create one with 'evidence-bridge keys init --reviewer NAME'`,
      );
    }
    throw new ReviewError("reviewer-key", "no reviewer key: create one with 'evidence-bridge keys init --reviewer NAME'");
  }
  if (names.length > 1) throw new ReviewError("reviewer-key", `several reviewer keys (${names.join(", ")}): choose one with --reviewer NAME`);
  return loadReviewerKey(home, names[0]);
}
