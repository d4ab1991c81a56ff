/**
 * The installation's keys (product.md §4, §7): a 32-byte store key that seals every stored file, and an
 * Ed25519 signing key for detached receipts. Two modes, fixed when the keys are created:
 *
 * - key-file mode (default): `keys/store.key` and `keys/signing.key`, random, mode 0600;
 * - passphrase mode (`EVIDENCE_BRIDGE_PASSPHRASE` set at creation): `keys/passphrase.json` holds the scrypt
 *   parameters and salt, the store key id (to tell a wrong passphrase from damage), the signing public key and
 *   the signing seed sealed under the derived store key. Nothing secret is on disk in the clear.
 *
 * A store is never opened in the other mode: a passphrase set for a key-file store, or missing for a passphrase
 * store, is an error that says which. Creation is safe against concurrent creators: every file is linked into
 * place without overwriting, and each process then uses what is on disk.
 */
import { join } from "node:path";
import nacl from "tweetnacl";
import { bytesToHex, hexToBytes } from "@noble/hashes/utils.js";
import { sha256Hex } from "../hash.js";
import { canonicalBytes } from "../json/canonical.js";
import { parseStrictJson } from "../json/parse.js";
import { isJsonObject, type JsonObject } from "../json/value.js";
import { prepareDataDir, inspectDataDir } from "./data-dir.js";
import { KeyError, SealError } from "./errors.js";
import { derivePassphraseKey, kdfParamsProblem, newKdfParams, type KdfParams, type ScryptCost } from "./kdf.js";
import { encodeKeyFile, pathExists, readKeyFile, readSecretFile } from "./key-files.js";
import { createFileExclusive, discardStaged, ensurePrivateDir, linkNoReplace, makePrivateDir, stageUnsynced, type StagedFile } from "./safe-write.js";
import { runDurable, runDurableSync, type DurableSteps } from "./sync-set.js";
import { SealKind, seal, STORE_KEY_BYTES, storeKey, unseal, type StoreKey } from "./seal.js";
import { generateSigningSeed, SIGNING_SEED_BYTES, signingKeyFingerprint, signingKeyFromSeed, type SigningKey } from "./sign.js";

export type KeyMode = "key-file" | "passphrase";

export const STORE_KEY_TYPE = "store-key";
export const SIGNING_KEY_TYPE = "signing-key";
export const PASSPHRASE_FORMAT = "evidence-bridge-passphrase-keys/v1";

export interface KeyLayout {
  /** `<home>/keys` (0700). */
  dir: string;
  storeKey: string;
  signingKey: string;
  passphraseFile: string;
}

export function keyLayout(home: string): KeyLayout {
  const dir = join(home, "keys");
  return { dir, storeKey: join(dir, "store.key"), signingKey: join(dir, "signing.key"), passphraseFile: join(dir, "passphrase.json") };
}

export interface InstallationKeys {
  mode: KeyMode;
  store: StoreKey;
  signing: SigningKey;
  layout: KeyLayout;
  /** scrypt parameters (passphrase mode only). */
  kdf?: KdfParams;
}

export interface KeyOptions {
  /** scrypt cost for a passphrase store created by this call (tests lower it); ignored when loading. */
  kdfCost?: ScryptCost;
  /**
   * When false, absent keys are an error instead of being created (the store passes false when sealed files
   * already exist: new keys could never open them).
   */
  allowCreate?: boolean;
}

/** The mode recorded on disk, or undefined when no keys exist yet. Throws when both modes' files exist. */
export function storedKeyMode(home: string): KeyMode | undefined {
  const layout = keyLayout(home);
  const hasKeyFile = pathExists(layout.storeKey);
  const hasPassphrase = pathExists(layout.passphraseFile);
  if (hasKeyFile && hasPassphrase) {
    throw new KeyError(
      "mode-mismatch",
      `both ${layout.storeKey} and ${layout.passphraseFile} exist; a store has exactly one key mode: move the one you did not create aside`,
    );
  }
  return hasKeyFile ? "key-file" : hasPassphrase ? "passphrase" : undefined;
}

function modeMismatch(layout: KeyLayout, stored: KeyMode): KeyError {
  return stored === "key-file"
    ? new KeyError(
        "mode-mismatch",
        `the store uses key files (${layout.storeKey}) but EVIDENCE_BRIDGE_PASSPHRASE is set: unset it to open this store; a store cannot change mode`,
      )
    : new KeyError(
        "mode-mismatch",
        `the store is passphrase-protected (${layout.passphraseFile}): set EVIDENCE_BRIDGE_PASSPHRASE to open it`,
      );
}

// ---- key-file mode --------------------------------------------------------------------------------------------

function loadKeyFileMode(layout: KeyLayout): InstallationKeys {
  const store = storeKey(readKeyFile(layout.storeKey, STORE_KEY_TYPE, STORE_KEY_BYTES));
  let seed: Uint8Array;
  try {
    seed = readKeyFile(layout.signingKey, SIGNING_KEY_TYPE, SIGNING_SEED_BYTES);
  } catch (e) {
    if (e instanceof KeyError && e.code === "missing") {
      throw new KeyError("missing", `${e.message} (but ${layout.storeKey} exists): restore it from your backup of the keys directory`);
    }
    throw e;
  }
  return { mode: "key-file", store, signing: signingKeyFromSeed(seed), layout };
}

/**
 * Creates whatever key-file-mode file is absent (signing key first; the store key completes the set), as durable
 * steps (sync-set.ts). The order on disk is the one of one file after another: each key file's data is synced before
 * it is linked into place, the keys directory is synced after the signing key is linked and before the store key is,
 * and again after the store key is. Only the independent syncs share a set: the data of both key files and the
 * directory that gained `keys/`.
 */
export function* createKeyFileModeSteps(home: string, layout: KeyLayout): DurableSteps<InstallationKeys> {
  const madeDir = makePrivateDir(layout.dir);
  const staged: StagedFile[] = [];
  try {
    const signingTemp = pathExists(layout.signingKey) ? undefined : stageUnsynced(layout.dir, encodeKeyFile(SIGNING_KEY_TYPE, generateSigningSeed()));
    if (signingTemp) staged.push(signingTemp);
    const storeTemp = stageUnsynced(layout.dir, encodeKeyFile(STORE_KEY_TYPE, nacl.randomBytes(STORE_KEY_BYTES)));
    staged.push(storeTemp);
    yield { files: staged, dirs: madeDir ? [home] : [] };
    if (signingTemp && linkNoReplace(signingTemp.path, layout.signingKey)) yield { dirs: [layout.dir] };
    // Validate the signing key on disk (ours or a concurrent creator's) before completing the set.
    readKeyFile(layout.signingKey, SIGNING_KEY_TYPE, SIGNING_SEED_BYTES);
    if (linkNoReplace(storeTemp.path, layout.storeKey)) yield { dirs: [layout.dir] };
  } finally {
    for (const t of staged) discardStaged(t);
  }
  return loadKeyFileMode(layout);
}

function createKeyFileMode(home: string, layout: KeyLayout): InstallationKeys {
  return runDurableSync(createKeyFileModeSteps(home, layout));
}

// ---- passphrase mode ------------------------------------------------------------------------------------------

interface PassphraseDoc {
  kdf: KdfParams;
  storeKeyId: string;
  publicKey: Uint8Array;
  sealedSeed: Uint8Array;
}

const PASSPHRASE_MEMBERS = ["format", "kdf", "store_key_id", "signing_public_key", "signing_key_sealed", "checksum"];

/**
 * `checksum` = SHA-256 hex of the canonical JSON of the other members. It is not a secret and protects nothing
 * against an attacker; it lets a damaged file be reported as damaged instead of as a wrong passphrase.
 */
function passphraseChecksum(doc: JsonObject | Record<string, unknown>): string {
  const entries = doc instanceof Map ? [...doc.entries()] : Object.entries(doc);
  return sha256Hex(canonicalBytes(new Map(entries.filter(([k]) => k !== "checksum")), "json"));
}
const KDF_MEMBERS = ["algorithm", "n", "r", "p", "dk_len", "salt", "normalization"];

function readPassphraseDoc(path: string): PassphraseDoc {
  const bytes = readSecretFile(path, "key file");
  const bad = (why: string) => new KeyError("malformed", `key file ${path} is malformed: ${why}`);
  let doc: unknown;
  try {
    doc = parseStrictJson(bytes);
  } catch (e) {
    throw bad((e as Error).message);
  }
  if (!isJsonObject(doc)) throw bad("expected a JSON object");
  const members = (o: JsonObject, names: string[], where: string) => {
    for (const k of o.keys()) if (!names.includes(k)) throw bad(`${where}: unknown member ${JSON.stringify(k)}`);
    for (const k of names) if (!o.has(k)) throw bad(`${where}: missing member ${JSON.stringify(k)}`);
  };
  members(doc, PASSPHRASE_MEMBERS, "json");
  const format = doc.get("format");
  if (format !== PASSPHRASE_FORMAT) {
    if (typeof format === "string" && /^evidence-bridge-passphrase-keys\/v\d{1,4}$/.test(format)) {
      throw bad(`json.format: unsupported version ${JSON.stringify(format)}; upgrade evidence-bridge`);
    }
    throw bad(`json.format: expected ${JSON.stringify(PASSPHRASE_FORMAT)}`);
  }
  const kdf = doc.get("kdf");
  if (!isJsonObject(kdf)) throw bad("json.kdf: expected an object");
  members(kdf, KDF_MEMBERS, "json.kdf");
  const params = Object.fromEntries(kdf) as unknown as KdfParams;
  const problem = kdfParamsProblem(params);
  if (problem) throw bad(`json.kdf: ${problem}`);
  const id = doc.get("store_key_id");
  if (typeof id !== "string" || !/^[0-9a-f]{16}$/.test(id)) throw bad("json.store_key_id: expected 16 lowercase hexadecimal digits");
  const pub = doc.get("signing_public_key");
  if (typeof pub !== "string" || !/^[0-9a-f]{64}$/.test(pub)) throw bad("json.signing_public_key: expected 64 lowercase hexadecimal digits");
  const sealed = doc.get("signing_key_sealed");
  if (typeof sealed !== "string" || !/^[A-Za-z0-9+/]+={0,2}$/.test(sealed) || sealed.length % 4 !== 0) {
    throw bad("json.signing_key_sealed: expected standard base64");
  }
  if (doc.get("checksum") !== passphraseChecksum(doc)) throw bad("json.checksum: does not match the file's contents (the file was changed or damaged)");
  return { kdf: params, storeKeyId: id, publicKey: hexToBytes(pub), sealedSeed: new Uint8Array(Buffer.from(sealed, "base64")) };
}

const SEALED_SEED_NAME = "keys/passphrase.json#signing_key_sealed";

async function loadPassphraseMode(layout: KeyLayout, passphrase: string): Promise<InstallationKeys> {
  const doc = readPassphraseDoc(layout.passphraseFile);
  const store = storeKey(await derivePassphraseKey(passphrase, doc.kdf));
  if (store.idHex !== doc.storeKeyId) {
    throw new KeyError(
      "wrong-passphrase",
      `wrong passphrase: EVIDENCE_BRIDGE_PASSPHRASE does not unlock the store keys in ${layout.passphraseFile}`,
    );
  }
  let seed: Uint8Array;
  try {
    seed = unseal(doc.sealedSeed, store, SealKind.signingKey, SEALED_SEED_NAME, `${layout.passphraseFile} (signing_key_sealed)`);
  } catch (e) {
    if (e instanceof SealError) throw new KeyError("malformed", `key file ${layout.passphraseFile} is damaged: ${e.message}`);
    throw e;
  }
  if (seed.length !== SIGNING_SEED_BYTES) throw new KeyError("malformed", `key file ${layout.passphraseFile} is damaged: the sealed signing key has the wrong length`);
  const signing = signingKeyFromSeed(seed);
  if (bytesToHex(signing.publicKey) !== bytesToHex(doc.publicKey)) {
    throw new KeyError("malformed", `key file ${layout.passphraseFile} is damaged: signing_public_key does not belong to the sealed signing key`);
  }
  return { mode: "passphrase", store, signing, layout, kdf: doc.kdf };
}

async function createPassphraseMode(layout: KeyLayout, passphrase: string, cost: ScryptCost | undefined): Promise<InstallationKeys> {
  ensurePrivateDir(layout.dir);
  const kdf = newKdfParams(cost);
  const store = storeKey(await derivePassphraseKey(passphrase, kdf));
  const seed = generateSigningSeed();
  const signing = signingKeyFromSeed(seed);
  const doc = {
    format: PASSPHRASE_FORMAT,
    kdf,
    store_key_id: store.idHex,
    signing_public_key: bytesToHex(signing.publicKey),
    signing_key_sealed: Buffer.from(seal(seed, store, SealKind.signingKey, SEALED_SEED_NAME)).toString("base64"),
  };
  const withChecksum = { ...doc, checksum: passphraseChecksum(doc) };
  const result = createFileExclusive(layout.dir, "passphrase.json", new TextEncoder().encode(`${JSON.stringify(withChecksum, null, 2)}\n`));
  if (result === "created") return { mode: "passphrase", store, signing, layout, kdf };
  // A concurrent creator won the race: use what is on disk (a different passphrase there is reported).
  return loadPassphraseMode(layout, passphrase);
}

// ---- public entry points --------------------------------------------------------------------------------------

/** Loads existing keys; absent keys are an error naming the command that creates them. */
export async function loadKeys(home: string, passphrase: string | undefined): Promise<InstallationKeys> {
  const layout = keyLayout(home);
  if (inspectDataDir(home) === "absent") {
    throw new KeyError("missing", `no keys in ${layout.dir}: run 'evidence-bridge keys init' (or build a capsule, which creates them)`);
  }
  const mode = storedKeyMode(home);
  if (mode === undefined) {
    if (passphrase === undefined && pathExists(layout.signingKey)) return loadKeyFileMode(layout); // reports the missing store key
    throw new KeyError("missing", `no keys in ${layout.dir}: run 'evidence-bridge keys init' (or build a capsule, which creates them)`);
  }
  if ((mode === "key-file") !== (passphrase === undefined)) throw modeMismatch(layout, mode);
  return mode === "key-file" ? loadKeyFileMode(layout) : loadPassphraseMode(layout, passphrase!);
}

/** Loads the keys, creating them (in the mode the passphrase selects) when none exist. */
export async function loadOrCreateKeys(
  home: string,
  passphrase: string | undefined,
  opts: KeyOptions = {},
): Promise<{ keys: InstallationKeys; created: boolean }> {
  const layout = keyLayout(home);
  inspectDataDir(home);
  const mode = storedKeyMode(home);
  if (mode !== undefined) return { keys: await loadKeys(home, passphrase), created: false };
  if (passphrase !== undefined && pathExists(layout.signingKey)) {
    throw new KeyError(
      "mode-mismatch",
      `${layout.signingKey} exists from an unfinished key-file setup but EVIDENCE_BRIDGE_PASSPHRASE is set: unset it, or remove that file to create a passphrase store`,
    );
  }
  if (opts.allowCreate === false) {
    throw new KeyError(
      "missing",
      `the store in ${home} holds sealed files but its keys are missing from ${layout.dir}: restore the keys directory from your backup (new keys could not open those files)`,
    );
  }
  prepareDataDir(home);
  // Key-file mode runs its independent syncs at once (sync-set.ts runDurable); the order of its barriers is kept.
  const keys = passphrase === undefined ? await runDurable(createKeyFileModeSteps(home, layout)) : await createPassphraseMode(layout, passphrase, opts.kdfCost);
  return { keys, created: true };
}

/**
 * Key-file mode, synchronously (for library callers that cannot await, such as reviewer-key creation in tests):
 * loads the installation keys, creating key-file keys when none exist and `allowCreate` is not false. A passphrase
 * store is refused here (its key derivation is asynchronous): load it with {@link loadKeys} and pass the keys.
 */
export function loadOrCreateKeyFileKeysSync(home: string, opts: { allowCreate?: boolean } = {}): InstallationKeys {
  const layout = keyLayout(home);
  const mode = storedKeyMode(home);
  if (mode === "passphrase") {
    throw new KeyError("mode-mismatch", `the store is passphrase-protected (${layout.passphraseFile}): set EVIDENCE_BRIDGE_PASSPHRASE and use the command line`);
  }
  if (mode === "key-file" || pathExists(layout.signingKey)) return loadKeyFileMode(layout);
  if (opts.allowCreate === false) throw new KeyError("missing", `no keys in ${layout.dir}: run 'evidence-bridge keys init'`);
  prepareDataDir(home);
  return createKeyFileMode(home, layout);
}

/** Creates keys; refuses when keys already exist (never overwrites a key). */
export async function createKeys(home: string, passphrase: string | undefined, opts: KeyOptions = {}): Promise<InstallationKeys> {
  inspectDataDir(home);
  const mode = storedKeyMode(home);
  if (mode !== undefined) {
    const layout = keyLayout(home);
    throw new KeyError("exists", `keys already exist in ${layout.dir} (${mode} mode); refusing to replace them ('evidence-bridge keys show' prints their fingerprints)`);
  }
  const { keys } = await loadOrCreateKeys(home, passphrase, opts);
  return keys;
}

export interface PublicKeyInfo {
  mode: KeyMode;
  publicKey: Uint8Array;
  fingerprint: string;
}

/**
 * The installation's signing public key without unlocking anything secret in passphrase mode (read from
 * `passphrase.json`, where it is cross-checked against the sealed key whenever the store is opened). In key-file
 * mode the signing key file is read (and its permissions checked). Undefined when no keys exist.
 */
export function readInstallationPublicKey(home: string): PublicKeyInfo | undefined {
  const layout = keyLayout(home);
  const mode = storedKeyMode(home);
  if (mode === undefined) return undefined;
  const publicKey =
    mode === "key-file"
      ? signingKeyFromSeed(readKeyFile(layout.signingKey, SIGNING_KEY_TYPE, SIGNING_SEED_BYTES)).publicKey
      : readPassphraseDoc(layout.passphraseFile).publicKey;
  return { mode, publicKey, fingerprint: signingKeyFingerprint(publicKey) };
}

export interface KeyDescription {
  mode: KeyMode;
  keysDir: string;
  storeKey: { path: string; fingerprint: string };
  signingKey: { path: string; fingerprint: string };
  kdf?: KdfParams;
  /** Passphrase mode: whether EVIDENCE_BRIDGE_PASSPHRASE was given and unlocked the keys. */
  passphraseChecked: boolean;
}

/** Fingerprints and paths of loaded keys. */
export function describeInstallationKeys(keys: InstallationKeys): KeyDescription {
  const { layout } = keys;
  const keyFile = keys.mode === "key-file";
  return {
    mode: keys.mode,
    keysDir: layout.dir,
    storeKey: { path: keyFile ? layout.storeKey : layout.passphraseFile, fingerprint: `store-key:${keys.store.idHex}` },
    signingKey: { path: keyFile ? layout.signingKey : layout.passphraseFile, fingerprint: keys.signing.fingerprint },
    kdf: keys.kdf,
    passphraseChecked: !keyFile,
  };
}

/**
 * Fingerprints and paths only (for `keys show`). Passphrase mode without a passphrase describes the public
 * parts; with one, it also proves the passphrase. A passphrase set for a key-file store is refused as always.
 */
export async function describeKeys(home: string, passphrase: string | undefined): Promise<KeyDescription | undefined> {
  if (inspectDataDir(home) === "absent") return undefined;
  const layout = keyLayout(home);
  const mode = storedKeyMode(home);
  if (mode === undefined) {
    if (pathExists(layout.signingKey)) await loadKeys(home, passphrase); // reports what is missing
    return undefined;
  }
  if (mode === "key-file" || passphrase !== undefined) return describeInstallationKeys(await loadKeys(home, passphrase));
  const doc = readPassphraseDoc(layout.passphraseFile);
  return {
    mode,
    keysDir: layout.dir,
    storeKey: { path: layout.passphraseFile, fingerprint: `store-key:${doc.storeKeyId}` },
    signingKey: { path: layout.passphraseFile, fingerprint: signingKeyFingerprint(doc.publicKey) },
    kdf: doc.kdf,
    passphraseChecked: false,
  };
}
