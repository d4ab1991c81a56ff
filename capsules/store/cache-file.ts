/**
 * Reading one of the store's cache files (the sealed row index, the derivation cache): at most `maxBytes` of a
 * regular file. A missing file and an oversized one are "no cache" (it is rebuilt); a link, FIFO or device at the
 * cache's name is refused at once as a {@link StoreError} `integrity`, never waited on.
 */
import { readRegularFileIfExists, SafeReadError } from "../../src/crypto/safe-read.js";
import { StoreError } from "./errors.js";

export function readCacheFile(path: string, maxBytes: number, label: string): Uint8Array | undefined {
  try {
    return readRegularFileIfExists(path, { maxBytes, label });
  } catch (e) {
    if (e instanceof SafeReadError && e.code === "too-large") return undefined;
    if (e instanceof SafeReadError) throw new StoreError("integrity", e.message);
    throw e;
  }
}
