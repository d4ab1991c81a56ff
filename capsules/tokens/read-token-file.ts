/**
 * Reading a received token file through the safe reader (src/crypto/safe-read.ts): a regular file only (a FIFO,
 * device, directory or symbolic link is an immediate error naming what it is, never a hang), at most
 * TOKEN_FILE_MAX_BYTES, checked from its size before it is read.
 */
import { readRegularFile, SafeReadError } from "../../src/crypto/safe-read.js";
import { parseTokenFile, TOKEN_FILE_MAX_BYTES, TokenFileError, type TokenFile } from "./token-file.js";

export function readTokenFile(path: string): TokenFile {
  let bytes: Uint8Array;
  try {
    bytes = readRegularFile(path, { maxBytes: TOKEN_FILE_MAX_BYTES, label: path });
  } catch (e) {
    if (e instanceof SafeReadError) throw new TokenFileError(`cannot read ${e.message}`);
    throw e;
  }
  return parseTokenBytes(path, bytes);
}

/** Parses a token file's bytes read from `name` (a file, or `-` for stdin); errors name it. */
export function parseTokenBytes(name: string, bytes: Uint8Array): TokenFile {
  try {
    return parseTokenFile(bytes);
  } catch (e) {
    if (e instanceof TokenFileError) throw new TokenFileError(`${name}: ${e.message}`);
    throw e;
  }
}
