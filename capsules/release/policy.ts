/**
 * The per-kind release policy (issue 32 item 2): which IOC kinds a reviewer may release as values. Kept in the store
 * as `<home>/store/release-policy.json`, signed like the review policy (capsules/review/policy.ts):
 *
 *     {"kinds":["channels","urls","wallets"],"schema_version":"evidence-bridge-release-policy/v1","signature":"<128 hex>"}
 *
 * The signature is the installation's Ed25519 key over `"evidence-bridge release policy v1\0"` + the canonical bytes
 * without `signature`; a file that does not verify, has other members or another version is an error, never read as
 * the default. No file: the default, {@link DEFAULT_RELEASE_KINDS}: wallets, URLs/domains and channels. Phones,
 * e-mails and handles (often a recruited mule's or a victim's) leave only as match tokens unless the policy names them.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { canonicalBytes } from "../../src/json/canonical.js";
import { parseStrictJson } from "../../src/json/parse.js";
import { bytesToHex, hexToBytes } from "../../src/hash.js";
import { isJsonObject } from "../../src/json/value.js";
import { ensurePrivateDir, replaceFile } from "../../src/crypto/safe-write.js";
import { verifySignature } from "../../src/crypto/sign.js";
import { IOC_KINDS, type IocKind } from "../../published/pack/vocabulary.js";
import type { SealedStore } from "../store/store.js";
import { ReleaseError } from "./errors.js";

export const RELEASE_POLICY_SCHEMA = "evidence-bridge-release-policy/v1";
export const RELEASE_POLICY_NAME = "release-policy.json";
export const DEFAULT_RELEASE_KINDS: readonly IocKind[] = Object.freeze(["channels", "urls", "wallets"]);
const DOMAIN = new TextEncoder().encode("evidence-bridge release policy v1\u0000");
const MAX_BYTES = 4096;

function signedBytes(kinds: readonly IocKind[]): Uint8Array {
  const body = canonicalBytes({ kinds: [...kinds], schema_version: RELEASE_POLICY_SCHEMA }, "release policy");
  const out = new Uint8Array(DOMAIN.length + body.length);
  out.set(DOMAIN);
  out.set(body, DOMAIN.length);
  return out;
}

export function releasePolicyPath(store: SealedStore): string {
  return join(store.layout.root, RELEASE_POLICY_NAME);
}

/** Parses `--release wallets,urls,channels` (an empty list is `--release none`). Throws {@link ReleaseError}. */
export function parseReleaseKinds(text: string): IocKind[] {
  if (text === "none") return [];
  const kinds = new Set<IocKind>();
  for (const raw of text.split(",")) {
    const k = raw.trim();
    if (!(IOC_KINDS as readonly string[]).includes(k)) throw new ReleaseError("policy", `--release: ${JSON.stringify(k)} is not a kind; expected a comma-separated list of ${IOC_KINDS.join(", ")}, or none`);
    kinds.add(k as IocKind);
  }
  return sortedKinds(kinds);
}

function sortedKinds(kinds: Iterable<IocKind>): IocKind[] {
  return [...new Set(kinds)].sort();
}

/** The kinds in force: the signed file, or the default. Throws {@link ReleaseError} `policy`. */
export function readReleaseKinds(store: SealedStore): readonly IocKind[] {
  const path = releasePolicyPath(store);
  let bytes: Buffer;
  try {
    bytes = readFileSync(path);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === "ENOENT") return DEFAULT_RELEASE_KINDS;
    throw new ReleaseError("policy", `cannot read the release policy ${path}: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`);
  }
  const bad = (rule: string) => new ReleaseError("policy", `the release policy ${path} ${rule}; set it again with 'evidence-bridge review policy --release KINDS'`);
  if (bytes.length > MAX_BYTES) throw bad(`exceeds ${MAX_BYTES} bytes`);
  let v;
  try {
    v = parseStrictJson(bytes);
  } catch {
    throw bad("is not strict JSON");
  }
  if (!isJsonObject(v) || [...v.keys()].sort().join(",") !== "kinds,schema_version,signature") throw bad("must have exactly the members kinds, schema_version, signature");
  if (v.get("schema_version") !== RELEASE_POLICY_SCHEMA) throw bad(`schema_version: expected ${RELEASE_POLICY_SCHEMA}`);
  const kinds = v.get("kinds");
  if (!Array.isArray(kinds) || kinds.some((k) => typeof k !== "string" || !(IOC_KINDS as readonly string[]).includes(k))) throw bad(`kinds: expected a list of ${IOC_KINDS.join(", ")}`);
  const sorted = sortedKinds(kinds as IocKind[]);
  if (sorted.length !== kinds.length || sorted.some((k, i) => k !== kinds[i])) throw bad("kinds: expected sorted kinds without repetition");
  const sig = v.get("signature");
  if (typeof sig !== "string" || !/^[0-9a-f]{128}$/.test(sig)) throw bad("signature: expected 128 lowercase hexadecimal digits");
  if (!verifySignature(store.keys.signing.publicKey, signedBytes(sorted), hexToBytes(sig))) {
    throw bad("signature: does not verify with this installation's signing key (the file was edited or comes from another store)");
  }
  return sorted;
}

/** Writes a signed release policy (atomic replace). */
export function writeReleaseKinds(store: SealedStore, kinds: readonly IocKind[]): readonly IocKind[] {
  const sorted = sortedKinds(kinds);
  const signature = bytesToHex(store.keys.signing.sign(signedBytes(sorted)));
  const body = canonicalBytes({ kinds: sorted, schema_version: RELEASE_POLICY_SCHEMA, signature }, "release policy");
  try {
    ensurePrivateDir(store.layout.root);
    replaceFile(store.layout.root, RELEASE_POLICY_NAME, new Uint8Array([...body, 0x0a]));
  } catch (e) {
    throw new ReleaseError("io", `cannot write the release policy ${releasePolicyPath(store)}: ${(e as Error).message}`);
  }
  return sorted;
}
