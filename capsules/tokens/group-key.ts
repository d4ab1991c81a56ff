/**
 * Group keys for match tokens: one random 32-byte key per group, shared out of band among the group's members,
 * in `<home>/keys/groups/<NAME>.key` (key-file format of src/crypto/key-files.ts, type `group-key`, mode 0600;
 * NAME as a reviewer name: 1 to 64 of A-Z a-z 0-9 . _ -). The key id printed and written into token files is a
 * hash of the key under a domain tag: it names the key without revealing it.
 */
import { createHash, randomBytes } from "node:crypto";
import { join } from "node:path";
import { prepareDataDir } from "../../src/crypto/data-dir.js";
import { KeyError } from "../../src/crypto/errors.js";
import { createKeyFile, readKeyFile } from "../../src/crypto/key-files.js";
import { keyLayout } from "../../src/crypto/keys.js";
import { ensurePrivateDir } from "../../src/crypto/safe-write.js";

export const GROUP_KEY_TYPE = "group-key";
export const GROUP_KEY_BYTES = 32;
const KEY_ID_DOMAIN = "evidence-bridge/group-key-id/v1\0";

export class GroupKeyError extends Error {
  override readonly name = "GroupKeyError";
}

export interface GroupKey {
  name: string;
  path: string;
  /** `gk1:` + 32 hexadecimal digits. */
  keyId: string;
  /** Key material: never print it. */
  key: Uint8Array;
}

export function groupKeysDir(home: string): string {
  return join(keyLayout(home).dir, "groups");
}

/**
 * A group name names the group's key file (keys/groups/NAME.key), so it is a file-name-safe label, not a person's
 * name: reviewer names follow their own rule (capsules/review/text-rules.ts).
 */
const GROUP_NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/;

function checkName(name: string): void {
  if (!GROUP_NAME.test(name)) throw new GroupKeyError("group name: expected 1 to 64 characters from A-Z a-z 0-9 . _ - starting with a letter or digit");
}

export function groupKeyId(key: Uint8Array): string {
  return `gk1:${createHash("sha256").update(KEY_ID_DOMAIN).update(key).digest("hex").slice(0, 32)}`;
}

function install(home: string, name: string, key: Uint8Array): GroupKey {
  checkName(name);
  prepareDataDir(home);
  ensurePrivateDir(keyLayout(home).dir);
  const dir = groupKeysDir(home);
  ensurePrivateDir(dir);
  const path = join(dir, `${name}.key`);
  if (!createKeyFile(dir, `${name}.key`, GROUP_KEY_TYPE, key)) {
    const existing = loadGroupKey(home, name);
    if (Buffer.from(existing.key).equals(Buffer.from(key))) return existing;
    throw new KeyError("exists", `a different group key named ${name} already exists (${path}); refusing to replace it`);
  }
  return { name, path, keyId: groupKeyId(key), key };
}

/** Creates a new random group key (refuses to replace an existing one). */
export function createGroupKey(home: string, name: string): GroupKey {
  checkName(name);
  const path = join(groupKeysDir(home), `${name}.key`);
  try {
    loadGroupKey(home, name);
    throw new KeyError("exists", `a group key named ${name} already exists (${path}); refusing to replace it`);
  } catch (e) {
    if (!(e instanceof GroupKeyError)) throw e;
  }
  return install(home, name, new Uint8Array(randomBytes(GROUP_KEY_BYTES)));
}

/**
 * Installs a group key file received from a peer (the file must be a group-key file with mode 0600). Installing
 * the same key again is accepted; a different key under an existing name is refused.
 */
export function addGroupKey(home: string, name: string, file: string): GroupKey {
  checkName(name);
  return install(home, name, readKeyFile(file, GROUP_KEY_TYPE, GROUP_KEY_BYTES));
}

export function loadGroupKey(home: string, name: string): GroupKey {
  checkName(name);
  const path = join(groupKeysDir(home), `${name}.key`);
  let key: Uint8Array;
  try {
    key = readKeyFile(path, GROUP_KEY_TYPE, GROUP_KEY_BYTES);
  } catch (e) {
    if (e instanceof KeyError && e.code === "missing") {
      throw new GroupKeyError(`no group key ${name} (${path}): create one with 'evidence-bridge keys init --group ${name}' or install a peer's with 'evidence-bridge keys add-group ${name} FILE'`);
    }
    throw e;
  }
  return { name, path, keyId: groupKeyId(key), key };
}
