/**
 * The private values of the sealed store that must never leave the machine through a public tool call
 * (product.md §2 and §9, the egress guard): every exact IOC value (detector IOCs and observation-bound IOC values)
 * and the message hash of every stored assessment capsule.
 *
 * Reading is deliberately lenient: whatever parses in an inline assessment artifact is collected, even when the
 * assessment would not pass intake today, because a guard must not miss a value over a schema detail. Capsules
 * are immutable under their id, so callers cache per id and only read capsules they have not seen.
 */
import { parseStrictJson } from "../../src/json/parse.js";
import { isJsonObject, type JsonObject, type JsonValue } from "../../src/json/value.js";
import { decodeBase64Strict } from "../capsule/base64.js";
import type { SealedStore } from "./store.js";

function member(v: JsonValue | undefined, key: string): JsonValue | undefined {
  return isJsonObject(v) ? v.get(key) : undefined;
}

function strings(v: JsonValue | undefined, out: Set<string>): void {
  if (typeof v === "string") {
    if (v !== "") out.add(v);
  } else if (Array.isArray(v)) for (const x of v) strings(x, out);
}

/** The assessments inside a capsule envelope: every inline artifact whose bytes parse as an object. */
function inlineDocuments(envelope: JsonObject): JsonObject[] {
  const artifacts = member(member(envelope, "content"), "artifacts");
  if (!Array.isArray(artifacts)) return [];
  const docs: JsonObject[] = [];
  for (const a of artifacts) {
    const location = member(a, "location");
    const data = member(location, "data");
    if (member(location, "type") !== "inline" || typeof data !== "string") continue;
    try {
      const doc = parseStrictJson(decodeBase64Strict(data));
      if (isJsonObject(doc)) docs.push(doc);
    } catch {
      // Not a JSON artifact: it holds no assessment fields.
    }
  }
  return docs;
}

/** IOC values and message hashes of one capsule envelope (empty for capsules without an inline assessment). */
export function capsulePrivateValues(envelope: JsonObject): string[] {
  const out = new Set<string>();
  for (const doc of inlineDocuments(envelope)) {
    const hash = doc.get("message_sha256");
    if (typeof hash === "string" && hash !== "") out.add(hash);
    const iocs = member(doc.get("detector"), "iocs");
    if (isJsonObject(iocs)) for (const values of iocs.values()) strings(values, out);
    const hypotheses = doc.get("hypotheses");
    if (Array.isArray(hypotheses)) {
      for (const h of hypotheses) {
        const observations = member(h, "external_observations");
        if (Array.isArray(observations)) for (const o of observations) strings(member(o, "matched_ioc_value"), out);
      }
    }
  }
  return [...out];
}

/**
 * Adds the private values of every stored capsule missing from `known` (id → values) and returns the ids added.
 * Store errors (a capsule that does not authenticate) propagate: a guard that cannot read the store must not
 * pretend it holds nothing.
 */
export function collectStorePrivateValues(store: SealedStore, known: Map<string, string[]>): string[] {
  const added: string[] = [];
  for (const id of store.capsuleIds()) {
    if (known.has(id)) continue;
    known.set(id, capsulePrivateValues(store.openCapsule(id).envelope));
    added.push(id);
  }
  return added;
}
