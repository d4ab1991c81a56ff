/**
 * Key files: small typed text files with mode 0600.
 *
 *     evidence-bridge <type> v1\n
 *     <lowercase hex of the key bytes>\n
 *
 * Reading refuses, each with its own message: a missing file, a symlink or non-regular file, a file that group
 * or others may access (with the chmod that fixes it), a file of another key type, and a short or malformed file.
 * The key bytes never appear in a message.
 */
import { closeSync, fstatSync, lstatSync } from "node:fs";
import { bytesToHex, hexToBytes } from "@noble/hashes/utils.js";
import { KeyError } from "./errors.js";
import { openRegularFile, readUpTo, SafeReadError } from "./safe-read.js";
import { createFileExclusive } from "./safe-write.js";
import { errno } from "../errno.js";

/** Largest key file read; any real key file is far smaller. */
export const KEY_FILE_MAX_BYTES = 65_536;

const KEY_LINE = /^evidence-bridge ([a-z][a-z0-9-]{0,63}) v(\d{1,4})$/;

export function encodeKeyFile(type: string, key: Uint8Array): Uint8Array {
  return new TextEncoder().encode(`evidence-bridge ${type} v1\n${bytesToHex(key)}\n`);
}

function modeText(mode: number): string {
  return (mode & 0o777).toString(8).padStart(4, "0");
}

/**
 * Reads a secret file after checking it: opened through the safe reader (src/crypto/safe-read.ts: must exist and be
 * a regular file, no link followed, no FIFO waited on), with no group or other permission bits. Used for key files and the passphrase parameter file.
 */
export function readSecretFile(path: string, what = "key file"): Uint8Array {
  let opened: { fd: number; size: number };
  try {
    opened = openRegularFile(path, `${what} ${path}`);
  } catch (e) {
    if (!(e instanceof SafeReadError)) throw e;
    if (e.code === "missing") throw new KeyError("missing", `${what} ${path} is missing`);
    if (e.code === "link" || e.code === "not-regular") throw new KeyError("not-regular", `${e.message}; key files must be regular files`);
    if (e.errno === "EACCES") throw new KeyError("permissions", `${what} ${path} cannot be read by this user (EACCES)`);
    throw new KeyError("missing", e.message);
  }
  const { fd, size } = opened;
  try {
    const st = fstatSync(fd);
    if ((st.mode & 0o077) !== 0) {
      throw new KeyError(
        "permissions",
        `${what} ${path} is accessible by group or others (mode ${modeText(st.mode)}); fix it with: chmod 600 ${path}`,
      );
    }
    if (size > KEY_FILE_MAX_BYTES) throw new KeyError("malformed", `${what} ${path} is malformed: larger than ${KEY_FILE_MAX_BYTES} bytes`);
    return readUpTo(fd, size);
  } finally {
    closeSync(fd);
  }
}

/** Reads a key file of `type` holding exactly `length` key bytes. */
export function readKeyFile(path: string, type: string, length: number): Uint8Array {
  const bytes = readSecretFile(path);
  const expected = `'evidence-bridge ${type} v1' and ${length * 2} hexadecimal digits`;
  let text: string;
  try {
    text = new TextDecoder("utf-8", { fatal: true }).decode(bytes);
  } catch {
    throw new KeyError("malformed", `key file ${path} is malformed: not text (expected ${expected})`);
  }
  const lines = text.endsWith("\n") ? text.slice(0, -1).split("\n") : text.split("\n");
  const head = KEY_LINE.exec(lines[0] ?? "");
  if (!head) throw new KeyError("malformed", `key file ${path} is malformed: expected ${expected}`);
  if (head[1] !== type) throw new KeyError("wrong-type", `key file ${path} holds a ${head[1]}, not a ${type}`);
  if (head[2] !== "1") throw new KeyError("malformed", `key file ${path} has unsupported version v${head[2]} (expected v1)`);
  if (lines.length !== 2 || !/^[0-9a-f]*$/.test(lines[1])) {
    throw new KeyError("malformed", `key file ${path} is malformed: expected ${expected}`);
  }
  if (lines[1].length !== length * 2) {
    throw new KeyError("malformed", `key file ${path} is malformed: ${lines[1].length} hexadecimal digits where ${length * 2} are required`);
  }
  return hexToBytes(lines[1]);
}

/** Creates a key file (0600) unless one exists; returns whether this call created it. */
export function createKeyFile(dir: string, name: string, type: string, key: Uint8Array): boolean {
  return createFileExclusive(dir, name, encodeKeyFile(type, key)) === "created";
}

/** True when something (of any type) exists at `path`, without following a final symlink. */
export function pathExists(path: string): boolean {
  try {
    lstatSync(path);
    return true;
  } catch (e) {
    if (errno(e) === "ENOENT") return false;
    throw new KeyError("missing", `${path} cannot be inspected: ${errno(e) ?? (e as Error).message}`);
  }
}
