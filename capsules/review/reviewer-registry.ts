/**
 * The known reviewers of a store: the reviewer keys it created (`keys init --reviewer NAME`) or was told to trust
 * (`keys trust FINGERPRINT --name NAME`), in `<home>/keys/reviewers.json` (mode 0600), signed by the installation's
 * signing key. Every reader of the review log refuses a record signed by a key outside this registry, so a record
 * signed by a freshly generated key (any name) is named as such, however well it chains.
 *
 *     {"format":"evidence-bridge-reviewer-registry/v1","installation_key":<hex Ed25519 public key>,
 *      "reviewers":[{"fingerprint":"ed25519:…","name":…,"origin":"created"|"trusted"},…],"signature":<hex>}
 *
 * canonical JSON + LF; `reviewers` sorted by fingerprint, fingerprints and names unique; the signature is Ed25519
 * by the installation signing key over `REGISTRY_DOMAIN` + the canonical bytes without `signature`, and
 * `installation_key` must be this installation's signing public key. An absent file is an empty registry.
 *
 * Limits: whoever holds the installation signing key can rewrite the registry (in key-file mode that is whoever
 * can read `keys/signing.key`; in passphrase mode whoever knows the passphrase).
 */
import { join } from "node:path";
import { canonicalBytes } from "../../src/json/canonical.js";
import { parseStrictJson } from "../../src/json/parse.js";
import { bytesToHex, hexToBytes } from "../../src/hash.js";
import { isJsonObject } from "../../src/json/value.js";
import { keyLayout, readInstallationPublicKey, type InstallationKeys } from "../../src/crypto/keys.js";
import { readRegularFileIfExists, SafeReadError } from "../../src/crypto/safe-read.js";
import { ensurePrivateDir, replaceFile } from "../../src/crypto/safe-write.js";
import { verifySignature } from "../../src/crypto/sign.js";
import { ReviewError } from "./errors.js";
import { withFileLock } from "./lock.js";
import { recordedNameProblem, reviewerNameProblem } from "./text-rules.js";

export const REVIEWER_REGISTRY_FORMAT = "evidence-bridge-reviewer-registry/v1";
export const REGISTRY_DOMAIN = "evidence-bridge reviewer registry v1\u0000";
const REGISTRY_NAME = "reviewers.json";
const REGISTRY_MAX_BYTES = 1024 * 1024;
const FINGERPRINT = /^ed25519:[0-9a-f]{64}$/;
const ORIGINS = ["created", "trusted"] as const;

export type ReviewerOrigin = (typeof ORIGINS)[number];

export interface RegisteredReviewer {
  /** `ed25519:` + SHA-256 hex of the reviewer's public key. */
  fingerprint: string;
  name: string;
  /** `created` by `keys init --reviewer` on this installation, or `trusted` with `keys trust`. */
  origin: ReviewerOrigin;
}

export interface ReviewerRegistry {
  /** `<home>/keys/reviewers.json`. */
  path: string;
  /** Whether the file exists (an absent registry knows no reviewer). */
  present: boolean;
  /** Sorted by fingerprint. */
  reviewers: readonly RegisteredReviewer[];
  /** True when `fingerprint` is a registered reviewer key. */
  isKnown(fingerprint: string): boolean;
  /** The registered reviewer with this fingerprint. */
  get(fingerprint: string): RegisteredReviewer | undefined;
  /** The registered reviewer with this name. */
  byName(name: string): RegisteredReviewer | undefined;
}

export function reviewerRegistryPath(home: string): string {
  return join(keyLayout(home).dir, REGISTRY_NAME);
}

function registryOf(path: string, present: boolean, reviewers: RegisteredReviewer[]): ReviewerRegistry {
  const byFp = new Map(reviewers.map((r) => [r.fingerprint, r]));
  const byName = new Map(reviewers.map((r) => [r.name, r]));
  return { path, present, reviewers, isKnown: (fp) => byFp.has(fp), get: (fp) => byFp.get(fp), byName: (n) => byName.get(n) };
}

function signedMessage(installationKey: string, reviewers: readonly RegisteredReviewer[]): Uint8Array {
  const body = canonicalBytes({ format: REVIEWER_REGISTRY_FORMAT, installation_key: installationKey, reviewers: reviewers.map((r) => ({ ...r })) }, "registry");
  const domain = new TextEncoder().encode(REGISTRY_DOMAIN);
  const out = new Uint8Array(domain.length + body.length);
  out.set(domain);
  out.set(body, domain.length);
  return out;
}

/**
 * The registry last verified in this process, with the exact file bytes and installation key it was verified
 * under: a command reads the file again wherever it needs it (under the log lock, after an append), but parses and
 * verifies the same bytes only once (issue 14: one parse per input and process).
 */
let lastVerified: { path: string; bytes: Uint8Array; installationKey: string; registry: ReviewerRegistry } | undefined;

function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  return a.length === b.length && Buffer.compare(Buffer.from(a.buffer, a.byteOffset, a.length), Buffer.from(b.buffer, b.byteOffset, b.length)) === 0;
}

/** The registry verified earlier from exactly these bytes under this installation key, if any. */
function alreadyVerified(home: string, path: string, bytes: Uint8Array): ReviewerRegistry | undefined {
  const last = lastVerified;
  if (last === undefined || last.path !== path || !sameBytes(last.bytes, bytes)) return undefined;
  try {
    const installation = readInstallationPublicKey(home);
    return installation !== undefined && bytesToHex(installation.publicKey) === last.installationKey ? last.registry : undefined;
  } catch {
    return undefined; // the full check below names the problem
  }
}

/**
 * Loads and verifies the registry of the store in `home`. Throws {@link ReviewError} `reviewer-key` naming the rule
 * when the file is not a regular file, is malformed, names another installation key, or its signature fails.
 */
export function loadReviewerRegistry(home: string): ReviewerRegistry {
  const path = reviewerRegistryPath(home);
  const bad = (why: string) => new ReviewError("reviewer-key", `the reviewer registry ${path} ${why}`);
  let bytes: Uint8Array | undefined;
  try {
    bytes = readRegularFileIfExists(path, { maxBytes: REGISTRY_MAX_BYTES, label: path });
  } catch (e) {
    throw new ReviewError("reviewer-key", e instanceof SafeReadError ? `the reviewer registry: ${e.message}` : `the reviewer registry ${path} cannot be read: ${(e as Error).message}`);
  }
  if (bytes === undefined) return registryOf(path, false, []);
  const known = alreadyVerified(home, path, bytes);
  if (known !== undefined) return known;
  let doc;
  try {
    doc = parseStrictJson(bytes);
  } catch {
    throw bad("is not strict JSON");
  }
  if (!isJsonObject(doc)) throw bad("is not a JSON object");
  const names = [...doc.keys()].sort().join(",");
  if (names !== "format,installation_key,reviewers,signature") throw bad("must have exactly format, installation_key, reviewers and signature");
  if (doc.get("format") !== REVIEWER_REGISTRY_FORMAT) throw bad(`format: expected "${REVIEWER_REGISTRY_FORMAT}"`);
  const installationKey = doc.get("installation_key");
  const signature = doc.get("signature");
  if (typeof installationKey !== "string" || !/^[0-9a-f]{64}$/.test(installationKey)) throw bad("installation_key: expected 64 lowercase hexadecimal digits");
  if (typeof signature !== "string" || !/^[0-9a-f]{128}$/.test(signature)) throw bad("signature: expected 128 lowercase hexadecimal digits");
  const list = doc.get("reviewers");
  if (!Array.isArray(list)) throw bad("reviewers: expected an array");
  const reviewers: RegisteredReviewer[] = list.map((r, i) => {
    const at = `reviewers[${i}]`;
    if (!isJsonObject(r) || [...r.keys()].sort().join(",") !== "fingerprint,name,origin") throw bad(`${at}: expected exactly fingerprint, name and origin`);
    const fingerprint = r.get("fingerprint");
    const name = r.get("name");
    const origin = r.get("origin");
    if (typeof fingerprint !== "string" || !FINGERPRINT.test(fingerprint)) throw bad(`${at}.fingerprint: expected ed25519: and 64 lowercase hexadecimal digits`);
    // Entries registered before the name rule keep their names until renamed (registerReviewer).
    const np = recordedNameProblem(name, true);
    if (np !== undefined) throw bad(`${at}.name: ${np}`);
    if (!(ORIGINS as readonly unknown[]).includes(origin)) throw bad(`${at}.origin: expected "created" or "trusted"`);
    return { fingerprint, name: name as string, origin: origin as ReviewerOrigin };
  });
  for (let i = 1; i < reviewers.length; i++) {
    if (reviewers[i - 1].fingerprint >= reviewers[i].fingerprint) throw bad("reviewers: not sorted by fingerprint, or a fingerprint repeats");
  }
  if (new Set(reviewers.map((r) => r.name)).size !== reviewers.length) throw bad("reviewers: a name repeats");
  let installation;
  try {
    installation = readInstallationPublicKey(home);
  } catch (e) {
    throw bad(`cannot be checked: ${(e as Error).message}`);
  }
  if (installation === undefined) throw bad("cannot be checked: this data directory has no installation keys");
  if (installationKey !== bytesToHex(installation.publicKey)) throw bad("was signed for another installation key (not this installation's signing key)");
  if (!verifySignature(installation.publicKey, signedMessage(installationKey, reviewers), hexToBytes(signature))) {
    throw bad("signature does not verify with this installation's signing key (the file was changed)");
  }
  const registry = registryOf(path, true, reviewers);
  lastVerified = { path, bytes: Uint8Array.from(bytes), installationKey, registry };
  return registry;
}

/** True when `fingerprint` is registered in the store in `home` (false when the registry does not verify). */
export function isKnownReviewer(home: string, fingerprint: string): boolean {
  try {
    return loadReviewerRegistry(home).isKnown(fingerprint);
  } catch {
    return false;
  }
}

/**
 * Adds a reviewer and re-signs the registry with the installation signing key (`keys`, already loaded). Idempotent
 * for the same fingerprint and name; refuses another name for a registered key and a name registered with
 * another key, except that a key registered under a name from before the name rule (text-rules.ts) takes the new
 * name, keeping its origin (the migration docs/review.md describes). Serialised by `keys/reviewers.lock`.
 */
export function registerReviewer(home: string, keys: InstallationKeys, entry: RegisteredReviewer): RegisteredReviewer {
  const nameProblem = reviewerNameProblem(entry.name);
  if (nameProblem !== undefined) throw new ReviewError("invalid-name", `reviewer name: ${nameProblem}`);
  if (!FINGERPRINT.test(entry.fingerprint)) throw new ReviewError("reviewer-key", "fingerprint: expected ed25519: and 64 lowercase hexadecimal digits");
  const dir = keyLayout(home).dir;
  ensurePrivateDir(dir);
  return withFileLock(join(dir, "reviewers.lock"), () => {
    const current = loadReviewerRegistry(home);
    const same = current.get(entry.fingerprint);
    const renaming = same !== undefined && same.name !== entry.name && reviewerNameProblem(same.name) !== undefined;
    if (same !== undefined && !renaming) {
      if (same.name !== entry.name) throw new ReviewError("reviewer-key", `key ${entry.fingerprint} is already registered as ${same.name}`);
      return same;
    }
    const clash = current.reviewers.find((r) => r.name === entry.name);
    if (clash !== undefined) throw new ReviewError("reviewer-key", `a reviewer named ${entry.name} is already registered with key ${clash.fingerprint}`);
    const kept = current.reviewers.filter((r) => r.fingerprint !== entry.fingerprint);
    const added = { fingerprint: entry.fingerprint, name: entry.name, origin: same?.origin ?? entry.origin };
    const reviewers = [...kept, added].sort((a, b) =>
      a.fingerprint < b.fingerprint ? -1 : 1,
    );
    const installationKey = bytesToHex(keys.signing.publicKey);
    const signature = bytesToHex(keys.signing.sign(signedMessage(installationKey, reviewers)));
    const body = canonicalBytes({ format: REVIEWER_REGISTRY_FORMAT, installation_key: installationKey, reviewers: reviewers.map((r) => ({ ...r })), signature }, "registry");
    replaceFile(dir, REGISTRY_NAME, new Uint8Array([...body, 0x0a]));
    return added;
  });
}
