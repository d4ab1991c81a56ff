/**
 * The store's sharing ceiling (issue 16 item 4): `<home>/store/sharing.json`, mode 0600,
 *
 *     {"max_tlp":"amber+strict","schema_version":"evidence-bridge-sharing/v1"}
 *
 * Absent file: the default ceiling, TLP:AMBER+STRICT. The file is read strictly (unknown members, another
 * schema_version or an unknown level are errors naming the member), so a damaged file never widens sharing.
 * A marked export (STIX, MISP, CSV) whose TLP shares more widely than `max_tlp` is refused.
 */
import { join } from "node:path";
import { prepareDataDir } from "../../src/crypto/data-dir.js";
import { readRegularFileIfExists, SafeReadError } from "../../src/crypto/safe-read.js";
import { ensurePrivateDir, replaceFile } from "../../src/crypto/safe-write.js";
import { canonicalBytes } from "../../src/json/canonical.js";
import { parseStrictJson } from "../../src/json/parse.js";
import { isJsonObject } from "../../src/json/value.js";
import { storeLayout } from "../store/layout.js";
import { DEFAULT_MAX_TLP, isTlpLevel, TLP_LEVELS, type TlpLevel } from "./tlp.js";

export const SHARING_SCHEMA = "evidence-bridge-sharing/v1";
const FILE = "sharing.json";
const MAX_BYTES = 4096;

export class SharingPolicyError extends Error {
  override readonly name = "SharingPolicyError";
}

export function sharingPolicyPath(home: string): string {
  return join(storeLayout(home).root, FILE);
}

function readSmall(path: string): Uint8Array | undefined {
  try {
    return readRegularFileIfExists(path, { maxBytes: MAX_BYTES });
  } catch (e) {
    if (e instanceof SafeReadError) throw new SharingPolicyError(e.message);
    throw e;
  }
}

/** The store's `max_tlp` (the default when no setting was written). */
export function readMaxTlp(home: string): TlpLevel {
  const path = sharingPolicyPath(home);
  const bytes = readSmall(path);
  if (bytes === undefined) return DEFAULT_MAX_TLP;
  let doc;
  try {
    doc = parseStrictJson(bytes);
  } catch (e) {
    throw new SharingPolicyError(`${path}: ${(e as Error).message}`);
  }
  if (!isJsonObject(doc)) throw new SharingPolicyError(`${path}: expected an object`);
  for (const k of doc.keys()) {
    if (k !== "max_tlp" && k !== "schema_version") throw new SharingPolicyError(`${path}: unknown member ${JSON.stringify(k)}`);
  }
  if (doc.get("schema_version") !== SHARING_SCHEMA) throw new SharingPolicyError(`${path}: schema_version: expected ${JSON.stringify(SHARING_SCHEMA)}`);
  const max = doc.get("max_tlp");
  if (!isTlpLevel(max)) throw new SharingPolicyError(`${path}: max_tlp: expected one of ${TLP_LEVELS.join(", ")}`);
  return max;
}

/** Writes the store's `max_tlp` atomically (mode 0600). */
export function writeMaxTlp(home: string, level: TlpLevel): string {
  if (!isTlpLevel(level)) throw new SharingPolicyError(`max_tlp: expected one of ${TLP_LEVELS.join(", ")}`);
  prepareDataDir(home);
  const dir = storeLayout(home).root;
  ensurePrivateDir(dir);
  replaceFile(dir, FILE, canonicalBytes({ max_tlp: level, schema_version: SHARING_SCHEMA }, "sharing policy"));
  return join(dir, FILE);
}
