/**
 * Lookups for idempotent recording (docs/assess.md "Idempotence"): which stored capsules carry an assessment with a
 * given `message_sha256` or `assessment_id`, and the store-held key that turns a message source into a pseudonym.
 *
 * The identifiers are read from each sealed capsule's assessment artifact once per process and kept in memory only
 * (capsule ids are content hashes, so an entry never goes stale); nothing here writes to disk.
 */
import { hmac } from "@noble/hashes/hmac.js";
import { sha256 } from "@noble/hashes/sha2.js";
import { bytesToHex } from "@noble/hashes/utils.js";
import { parseStrictJson } from "../../src/json/parse.js";
import { isJsonObject, type JsonObject, type JsonValue } from "../../src/json/value.js";
import { decodeBase64Strict } from "../capsule/base64.js";
import type { SealedStore } from "./store.js";

interface Recorded {
  messageSha256: string | null;
  assessmentId: string | null;
  createdAt: string;
}

const known = new Map<string, Recorded>();

function member(o: JsonValue | undefined, key: string): JsonValue | undefined {
  return isJsonObject(o) ? o.get(key) : undefined;
}

function identifiers(envelope: JsonObject): Recorded {
  const created = member(member(envelope, "content"), "created_at");
  const none = { messageSha256: null, assessmentId: null, createdAt: typeof created === "string" ? created : "" };
  const artifacts = member(member(envelope, "content"), "artifacts");
  const artifact = Array.isArray(artifacts) ? artifacts.find((a) => member(a, "id") === "assessment") : undefined;
  const data = member(member(artifact, "location"), "data");
  if (typeof data !== "string") return none;
  try {
    const doc = parseStrictJson(decodeBase64Strict(data));
    const m = member(doc, "message_sha256");
    const a = member(doc, "assessment_id");
    return { ...none, messageSha256: typeof m === "string" ? m : null, assessmentId: typeof a === "string" ? a : null };
  } catch {
    return none;
  }
}

/** Ids of the stored capsules whose assessment has this `message_sha256` / `assessment_id`, oldest first. */
export function findRecorded(store: SealedStore, by: { messageSha256?: string; assessmentId?: string }): string[] {
  const out: { id: string; createdAt: string }[] = [];
  for (const id of store.capsuleIds()) {
    let r = known.get(id);
    if (r === undefined) {
      r = identifiers(store.openCapsule(id).envelope);
      known.set(id, r);
    }
    const hit = (by.messageSha256 !== undefined && r.messageSha256 === by.messageSha256) || (by.assessmentId !== undefined && r.assessmentId === by.assessmentId);
    if (hit) out.push({ id, createdAt: r.createdAt });
  }
  // created_at strings of one grammar order as their instants; ties keep id order.
  return out.sort((a, b) => (a.createdAt < b.createdAt ? -1 : a.createdAt > b.createdAt ? 1 : 0)).map((x) => x.id);
}

const PSEUDONYM_DOMAIN = new TextEncoder().encode("evidence-bridge/source-pseudonym-key/v1");

/** The installation's pseudonym key (hex), derived from the store key: it exists only where the store key does. */
export function pseudonymKey(store: SealedStore): string {
  return bytesToHex(hmac(sha256, store.keys.store.bytes, PSEUDONYM_DOMAIN));
}
