/**
 * Reviewer keys: one Ed25519 key per human reviewer, named, in `<home>/keys/reviewers/<name>.key` (key-file format
 * of src/crypto/key-files.ts, type `reviewer-key`, mode 0600; group- or world-readable files are refused). The
 * name in the file name is the reviewer name recorded with each decision. Reviewer keys are separate from the
 * installation's signing key: a decision proves which reviewer key signed it, not which installation.
 *
 * In passphrase mode reviewer keys are still plain key files (they are personal signing keys, not store secrets).
 */
import { readdirSync } from "node:fs";
import { join } from "node:path";
import { prepareDataDir } from "../../src/crypto/data-dir.js";
import { KeyError } from "../../src/crypto/errors.js";
import { createKeyFile, readKeyFile } from "../../src/crypto/key-files.js";
import { keyLayout, loadOrCreateKeyFileKeysSync, type InstallationKeys } from "../../src/crypto/keys.js";
import { storeHoldsSealedFiles } from "../store/store.js";
import { ensurePrivateDir } from "../../src/crypto/safe-write.js";
import { generateSigningSeed, SIGNING_SEED_BYTES, signingKeyFromSeed } from "../../src/crypto/sign.js";
import { ReviewError } from "./errors.js";
import type { Reviewer } from "./log.js";
import { registerReviewer } from "./reviewer-registry.js";
import { reviewerNameProblem } from "./text-rules.js";

export const REVIEWER_KEY_TYPE = "reviewer-key";
const KEY_SUFFIX = ".key";

export interface ReviewerKeyFile extends Reviewer {
  path: string;
}

export function reviewerKeysDir(home: string): string {
  return join(keyLayout(home).dir, "reviewers");
}

function checkName(name: string): void {
  const problem = reviewerNameProblem(name);
  if (problem !== undefined) throw new ReviewError("invalid-name", `reviewer name: ${problem}`);
}

/**
 * Creates a reviewer key and registers it in the store's reviewer registry (reviewer-registry.ts), signed with
 * the installation keys: `opts.installation` when given (the CLI loads them, also in passphrase mode), else the
 * key-file keys, created when the data directory has none and no sealed files. Refuses (KeyError `exists`) to
 * replace a key.
 */
export function createReviewerKey(home: string, name: string, opts: { installation?: InstallationKeys } = {}): ReviewerKeyFile {
  checkName(name);
  prepareDataDir(home);
  const installation = opts.installation ?? loadOrCreateKeyFileKeysSync(home, { allowCreate: !storeHoldsSealedFiles(home) });
  const dir = reviewerKeysDir(home);
  ensurePrivateDir(keyLayout(home).dir);
  ensurePrivateDir(dir);
  const path = join(dir, `${name}${KEY_SUFFIX}`);
  if (!createKeyFile(dir, `${name}${KEY_SUFFIX}`, REVIEWER_KEY_TYPE, generateSigningSeed())) {
    throw new KeyError("exists", `a reviewer key for ${name} already exists (${path}); refusing to replace it`);
  }
  const created = loadReviewerKey(home, name);
  registerReviewer(home, installation, { fingerprint: created.key.fingerprint, name, origin: "created" });
  return created;
}

/** Loads a named reviewer key (missing, exposed or malformed files are KeyErrors naming the file). */
export function loadReviewerKey(home: string, name: string): ReviewerKeyFile {
  checkName(name);
  const path = join(reviewerKeysDir(home), `${name}${KEY_SUFFIX}`);
  try {
    return { name, key: signingKeyFromSeed(readKeyFile(path, REVIEWER_KEY_TYPE, SIGNING_SEED_BYTES)), path };
  } catch (e) {
    if (e instanceof KeyError && e.code === "missing") {
      throw new ReviewError("reviewer-key", `no reviewer key for ${name} (${path}): create one with 'evidence-bridge keys init --reviewer ${name}'`);
    }
    throw e;
  }
}

/** Names of the reviewer keys present, sorted. */
export function reviewerNames(home: string): string[] {
  let names: string[];
  try {
    names = readdirSync(reviewerKeysDir(home));
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === "ENOENT") return [];
    throw e;
  }
  return names
    .filter((n) => n.endsWith(KEY_SUFFIX))
    .map((n) => n.slice(0, -KEY_SUFFIX.length))
    .filter((n) => reviewerNameProblem(n) === undefined)
    .sort();
}

/** The reviewer key to sign with: the named one, or the only one present. */
export function selectReviewerKey(home: string, name: string | undefined): ReviewerKeyFile {
  if (name !== undefined) return loadReviewerKey(home, name);
  const names = reviewerNames(home);
  if (names.length === 0) {
    throw new ReviewError("reviewer-key", "no reviewer key: create one with 'evidence-bridge keys init --reviewer NAME'");
  }
  if (names.length > 1) throw new ReviewError("reviewer-key", `several reviewer keys (${names.join(", ")}): choose one with --reviewer NAME`);
  return loadReviewerKey(home, names[0]);
}
