/**
 * Lookups for idempotent recording (docs/assess.md "Idempotence"): which stored capsules carry an assessment with a
 * given `message_sha256` or `assessment_id`, and the store-held key that turns a message source into a pseudonym.
 *
 * The identifiers come from the store's sealed row index (row-index.ts, which keeps them beside each row, sealed),
 * so a lookup reads one file however large the store is; only capsules the index does not describe yet are opened
 * (an index of an older format is rebuilt once). They are also remembered in memory per store instance (capsule ids
 * are content hashes, so an entry never goes stale), and a capsule sealed through that instance is noted at once
 * ({@link noteRecorded}), so a long-running process reads the index again only when the directory lists a capsule
 * it has not seen (sealed by another process or another instance). Nothing here writes to disk except the store's
 * own index refresh.
 */
import { hmacSha256Hex } from "../../src/hash.js";
import type { RecordedKeys } from "./rows.js";
import type { SealedStore } from "./store.js";

interface Recorded extends RecordedKeys {
  createdAt: string;
}

/** Per store instance: capsule id → its recorded keys. */
const knownByStore = new WeakMap<SealedStore, Map<string, Recorded>>();

function knownOf(store: SealedStore): Map<string, Recorded> {
  let known = knownByStore.get(store);
  if (known === undefined) knownByStore.set(store, (known = new Map()));
  return known;
}

/** Remembers the identifiers of a capsule just sealed through `store` (so the next lookup need not read the index). */
export function noteRecorded(store: SealedStore, id: string, keys: RecordedKeys & { createdAt: string }): void {
  knownOf(store).set(id, { messageSha256: keys.messageSha256, assessmentId: keys.assessmentId, createdAt: keys.createdAt });
}

/** Ids of the stored capsules whose assessment has this `message_sha256` / `assessment_id`, oldest first. */
export function findRecorded(store: SealedStore, by: { messageSha256?: string; assessmentId?: string }): string[] {
  const known = knownOf(store);
  const ids = store.capsuleIds();
  if (ids.some((id) => !known.has(id))) {
    for (const [id, e] of store.indexEntries()) noteRecorded(store, id, { ...e.recorded, createdAt: e.facts.created_at ?? "" });
  }
  const out: { id: string; createdAt: string }[] = [];
  for (const id of ids) {
    const r = known.get(id);
    if (r === undefined) continue; // removed between the listing and the index refresh
    const hit = (by.messageSha256 !== undefined && r.messageSha256 === by.messageSha256) || (by.assessmentId !== undefined && r.assessmentId === by.assessmentId);
    if (hit) out.push({ id, createdAt: r.createdAt });
  }
  // created_at strings of one grammar order as their instants; ties keep id order.
  return out.sort((a, b) => (a.createdAt < b.createdAt ? -1 : a.createdAt > b.createdAt ? 1 : 0)).map((x) => x.id);
}

const PSEUDONYM_DOMAIN = new TextEncoder().encode("evidence-bridge/source-pseudonym-key/v1");

/** The installation's pseudonym key (hex), derived from the store key: it exists only where the store key does. */
export function pseudonymKey(store: SealedStore): string {
  return hmacSha256Hex(store.keys.store.bytes, PSEUDONYM_DOMAIN);
}
