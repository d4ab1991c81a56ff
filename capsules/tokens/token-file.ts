/**
 * The match-token file (`evidence-bridge tokens export`), one JSON document laid out after the meta format of
 * the hashlookup project's Private Search Set (PSS): `version`, `name`, `description`, `generated-timestamp`,
 * `algorithm`, `keyid`, `canonicalization-format`, plus `kinds` (the IOC kinds covered) and `tokens` (per kind,
 * the sorted distinct lowercase-hex HMAC-SHA-256 tokens) in place of PSS's separate hash file:
 *
 *     {"algorithm":"HMAC-SHA-256","canonicalization-format":"evidence-bridge-ioc-canonical/v1",
 *      "description":"…","generated-timestamp":1763900000,"keyid":"gk1:…","kinds":["handles",…],
 *      "name":"evidence-bridge-match-tokens","tokens":{"handles":["…"],…},"version":1}
 *
 * token = HMAC-SHA-256(group key, kind || 0x00 || canonical value), hexadecimal. Parsing is strict: unknown
 * members, another version, algorithm or canonicalisation, an unknown kind or a malformed token are errors naming
 * the member; files over {@link TOKEN_FILE_MAX_BYTES} are refused before they are read whole.
 */
import { createHmac } from "node:crypto";
import { canonicalBytes } from "../../src/json/canonical.js";
import { parseStrictJson } from "../../src/json/parse.js";
import { isJsonObject, type JsonValue } from "../../src/json/value.js";
import { IOC_KINDS, type IocKind } from "../../published/pack/vocabulary.js";
import { CANONICALIZATION } from "./canonical.js";

export const TOKEN_FILE_NAME = "evidence-bridge-match-tokens";
export const TOKEN_ALGORITHM = "HMAC-SHA-256";
export const TOKEN_FILE_MAX_BYTES = 64 * 1024 * 1024;
const TOKEN = /^[0-9a-f]{64}$/;
const KEY_ID = /^gk1:[0-9a-f]{32}$/;
const DESCRIPTION = "Keyed HMAC-SHA-256 match tokens of IOC values held by an evidence-bridge store; without the group key they reveal only how many values of each kind it holds.";

export class TokenFileError extends Error {
  override readonly name = "TokenFileError";
}

export interface TokenFile {
  keyId: string;
  generatedAt: number;
  tokens: Map<IocKind, Set<string>>;
}

export function matchToken(key: Uint8Array, kind: IocKind, canonical: string): string {
  return createHmac("sha256", key).update(`${kind}\u0000${canonical}`, "utf8").digest("hex");
}

/**
 * A kind's token list may be as long as the file allows (a store of 100,000 capsules holds far more than the 512
 * items the capsule format bounds an array to): at most this many tokens per kind are read, and the file's byte bound
 * comes first (64 MiB holds about a million 64-digit tokens).
 */
export const MAX_TOKENS_PER_KIND = 1 << 20;
const TOKENS_PLACEHOLDER = '"tokens":{}';

/**
 * The file's bytes: the canonical JSON of the document (sorted members, no spaces) + LF. The members other than
 * `tokens` go through the canonical writer (its 512-item bound never binds them); the token lists, 64 lowercase hex
 * digits each (checked), are written in place of the empty `tokens` object, each sorted, kinds in code-point order:
 * exactly the canonical writer's output, without its per-array bound.
 */
export function tokenFileBytes(file: TokenFile): Uint8Array {
  const kinds = IOC_KINDS.filter((k) => (file.tokens.get(k)?.size ?? 0) > 0);
  const doc = {
    algorithm: TOKEN_ALGORITHM,
    "canonicalization-format": CANONICALIZATION,
    description: DESCRIPTION,
    "generated-timestamp": file.generatedAt,
    keyid: file.keyId,
    kinds,
    name: TOKEN_FILE_NAME,
    tokens: {},
    version: 1,
  };
  const head = new TextDecoder().decode(canonicalBytes(doc, "token file"));
  const at = head.indexOf(TOKENS_PLACEHOLDER);
  if (at < 0 || head.indexOf(TOKENS_PLACEHOLDER, at + 1) >= 0) throw new TokenFileError("token file: the tokens member is not where the canonical writer puts it");
  const lists = [...kinds].sort().map((k) => {
    const list = [...file.tokens.get(k)!].sort();
    if (list.length > MAX_TOKENS_PER_KIND) throw new TokenFileError(`token file.tokens.${k}: more than ${MAX_TOKENS_PER_KIND} tokens`);
    for (const t of list) if (!TOKEN.test(t)) throw new TokenFileError(`token file.tokens.${k}: a token is not 64 lowercase hexadecimal digits`);
    return `"${k}":["${list.join('","')}"]`;
  });
  return new TextEncoder().encode(`${head.slice(0, at)}"tokens":{${lists.join(",")}}${head.slice(at + TOKENS_PLACEHOLDER.length)}\n`);
}

const MEMBERS = new Set(["algorithm", "canonicalization-format", "description", "generated-timestamp", "keyid", "kinds", "name", "tokens", "version"]);

function fail(path: string, rule: string): never {
  throw new TokenFileError(`${path}: ${rule}`);
}

function kindOf(v: JsonValue, path: string): IocKind {
  if (typeof v !== "string" || !(IOC_KINDS as readonly string[]).includes(v)) fail(path, `expected one of ${IOC_KINDS.join(", ")}`);
  return v as IocKind;
}

export function parseTokenFile(bytes: Uint8Array): TokenFile {
  if (bytes.length > TOKEN_FILE_MAX_BYTES) fail("token file", `larger than ${TOKEN_FILE_MAX_BYTES} bytes`);
  let doc: JsonValue;
  try {
    doc = parseStrictJson(bytes, { maxItems: MAX_TOKENS_PER_KIND });
  } catch (e) {
    fail("token file", (e as Error).message);
  }
  if (!isJsonObject(doc)) fail("token file", "expected a JSON object");
  for (const k of doc.keys()) if (!MEMBERS.has(k)) fail("token file", `unknown member ${JSON.stringify(k)}`);
  for (const k of MEMBERS) if (!doc.has(k)) fail(`token file.${k}`, "required");
  if (doc.get("version") !== 1) fail("token file.version", "expected 1");
  if (doc.get("name") !== TOKEN_FILE_NAME) fail("token file.name", `expected ${JSON.stringify(TOKEN_FILE_NAME)}`);
  if (doc.get("algorithm") !== TOKEN_ALGORITHM) fail("token file.algorithm", `expected ${JSON.stringify(TOKEN_ALGORITHM)}`);
  if (doc.get("canonicalization-format") !== CANONICALIZATION) fail("token file.canonicalization-format", `expected ${JSON.stringify(CANONICALIZATION)}`);
  if (typeof doc.get("description") !== "string") fail("token file.description", "expected a string");
  const ts = doc.get("generated-timestamp");
  if (typeof ts !== "number" || !Number.isSafeInteger(ts) || ts < 0) fail("token file.generated-timestamp", "expected a non-negative integer");
  const keyId = doc.get("keyid");
  if (typeof keyId !== "string" || !KEY_ID.test(keyId)) fail("token file.keyid", "expected gk1: and 32 hexadecimal digits");
  const kindsV = doc.get("kinds");
  if (!Array.isArray(kindsV)) fail("token file.kinds", "expected an array");
  const kinds = new Set(kindsV.map((k, i) => kindOf(k, `token file.kinds[${i}]`)));
  const tokensV = doc.get("tokens");
  if (!isJsonObject(tokensV)) fail("token file.tokens", "expected an object");
  const tokens = new Map<IocKind, Set<string>>();
  for (const [k, list] of tokensV) {
    const kind = kindOf(k, "token file.tokens (member name)");
    if (!kinds.has(kind)) fail(`token file.tokens.${kind}`, "kind not listed in kinds");
    if (!Array.isArray(list)) fail(`token file.tokens.${kind}`, "expected an array");
    const set = new Set<string>();
    list.forEach((t, i) => {
      if (typeof t !== "string" || !TOKEN.test(t)) fail(`token file.tokens.${kind}[${i}]`, "expected 64 lowercase hexadecimal digits");
      set.add(t);
    });
    tokens.set(kind, set);
  }
  return { keyId, generatedAt: ts, tokens };
}
