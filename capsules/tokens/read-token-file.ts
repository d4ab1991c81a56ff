/**
 * Reading a received token file: a regular file (no FIFO, device or symlink: an immediate error, never a hang),
 * at most TOKEN_FILE_MAX_BYTES, checked before it is read.
 */
import { closeSync, constants, fstatSync, openSync, readSync } from "node:fs";
import { parseTokenFile, TOKEN_FILE_MAX_BYTES, TokenFileError, type TokenFile } from "./token-file.js";

export function readTokenFile(path: string): TokenFile {
  let fd: number;
  try {
    fd = openSync(path, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK);
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    throw new TokenFileError(`cannot read ${path}: ${code === "ELOOP" ? "it is a symbolic link" : (code ?? (e as Error).message)}`);
  }
  try {
    const st = fstatSync(fd);
    if (!st.isFile()) throw new TokenFileError(`${path} is not a regular file`);
    if (st.size > TOKEN_FILE_MAX_BYTES) throw new TokenFileError(`${path} is larger than ${TOKEN_FILE_MAX_BYTES} bytes`);
    const buf = Buffer.alloc(st.size);
    let off = 0;
    while (off < buf.length) {
      const n = readSync(fd, buf, off, buf.length - off, off);
      if (n === 0) break;
      off += n;
    }
    try {
      return parseTokenFile(buf.subarray(0, off));
    } catch (e) {
      if (e instanceof TokenFileError) throw new TokenFileError(`${path}: ${e.message}`);
      throw e;
    }
  } finally {
    closeSync(fd);
  }
}
