/**
 * The sealed derivation cache (issue 14 item 6, docs/feed.md): written when capsules are stored (put, import), read
 * by the next feed instead of deriving, rebuilt when the pack or the candidate policy changes, and never trusted
 * beyond its authentication: edited, moved or inconsistent rows are derived again, so the feed's bytes are the
 * same with and without the cache.
 */
import { existsSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { deflateRawSync, inflateRawSync } from "node:zlib";
import { afterAll, expect, test } from "vitest";
import { storeKey } from "../../../src/crypto/seal.js";
import { openCache, sealCache } from "../../../capsules/store/cache-seal.js";
import { buildFeed, feedFromCache } from "../../../capsules/feed/index.js";
import { CANDIDATE_POLICY_VERSION } from "../../../capsules/pipeline/derive.js";
import { storable } from "../../helpers/storable.js";
import { cacheDerivationsOnPut, probeOfValues, StoredDerivations } from "../../../capsules/pipeline/stored.js";
import { OUTCOMES_NAME, PENDING_DIR, VALUES_NAME } from "../../../capsules/store/derivation-cache.js";
import { OutwardGuard } from "../../../capsules/guard/outward-guard.js";
import { openOrCreateStore, type SealedStore } from "../../../capsules/store/store.js";
import type { IntelligencePack } from "../../../published/pack/types.js";
import { describeShared } from "../../helpers/shared.js";
import { cli } from "../review/cli-run.js";
import { exampleCapsules, leakGuardCapsule, PACK_FILE, removeHomes, storeWith, tempHome, testPack, text } from "../feed/store-fixtures.js";

afterAll(removeHomes);

const VIEWS = [
  { includeTypologyMatches: false, includeClean: false },
  { includeTypologyMatches: true, includeClean: true },
];

/**
 * Every view of the feed as text, and how many capsules the cache could not answer before it ran (the first feed
 * derives those and saves them).
 */
async function feedOf(store: SealedStore, pack: IntelligencePack = testPack()): Promise<{ lines: string[]; derived: number }> {
  const derived = countMisses(store, pack);
  const lines: string[] = [];
  for (const view of VIEWS) lines.push(await text(buildFeed(store, pack, view)));
  return { lines, derived };
}

/** The same store seen without its cache: derivations made afresh (nothing saved). */
function plainStoreFor(store: SealedStore): SealedStore {
  const view = Object.create(store) as SealedStore;
  Object.defineProperty(view, "layout", { value: { ...store.layout, root: join(store.layout.root, "no-cache-here") } });
  return view;
}

/** How many stored capsules the cache cannot answer for `pack` right now (a probe: nothing is saved). */
function countMisses(store: SealedStore, pack: IntelligencePack): number {
  const d = new StoredDerivations(store, pack);
  for (const id of store.capsuleIds()) d.outcome(id);
  return d.derived;
}

const cacheFiles = (store: SealedStore) => [OUTCOMES_NAME, VALUES_NAME].map((n) => join(store.layout.root, n));
const pendingFiles = (store: SealedStore) => {
  const dir = join(store.layout.root, PENDING_DIR);
  return existsSync(dir) ? readdirSync(dir) : [];
};

function dropCache(store: SealedStore): void {
  for (const f of cacheFiles(store)) rmSync(f, { force: true });
  rmSync(join(store.layout.root, PENDING_DIR), { recursive: true, force: true });
}

/**
 * Opens a cache file with the store key, lets `edit` change its header (rows point into the blob of candidate bytes
 * that follows it), and seals it again: a writer holding the key.
 */
function resealed(store: SealedStore, name: string, edit: (doc: { policy: string; rows: unknown[][] }) => void): void {
  const path = join(store.layout.root, name);
  // The outcomes file is deflated before sealing (derivation-cache.ts).
  const deflated = name === OUTCOMES_NAME;
  const sealed = openCache(readFileSync(path), store.keys.store, `store/${name}`)!;
  const plain = deflated ? inflateRawSync(sealed) : sealed;
  const headerLength = plain.readUInt32BE(0);
  const doc = JSON.parse(plain.subarray(4, 4 + headerLength).toString("utf8"));
  edit(doc);
  const header = Buffer.from(JSON.stringify(doc), "utf8");
  const length = Buffer.alloc(4);
  length.writeUInt32BE(header.length);
  const out = Buffer.concat([length, header, plain.subarray(4 + headerLength)]);
  writeFileSync(path, sealCache(deflated ? deflateRawSync(out) : out, store.keys.store, `store/${name}`));
}

test("cache sealing: opens only under the same store key and file name, intact", () => {
  const key = storeKey(new Uint8Array(32).fill(1));
  const plain = new TextEncoder().encode("rows");
  const sealed = sealCache(plain, key, "store/derivations.sealed");
  expect(Buffer.from(sealed).includes(Buffer.from("rows"))).toBe(false);
  expect(openCache(sealed, key, "store/derivations.sealed")?.toString()).toBe("rows");
  expect(openCache(sealed, key, "store/derivation-values.sealed")).toBeUndefined();
  expect(openCache(sealed, storeKey(new Uint8Array(32).fill(2)), "store/derivations.sealed")).toBeUndefined();
  for (const at of [0, 8, 12, 20, sealed.length - 20, sealed.length - 1]) {
    const bad = Buffer.from(sealed);
    bad[at] ^= 0x01;
    expect(openCache(bad, key, "store/derivations.sealed"), `bit flipped at ${at}`).toBeUndefined();
  }
  expect(openCache(sealed.subarray(0, sealed.length - 1), key, "store/derivations.sealed")).toBeUndefined();
});

describeShared("the sealed derivation cache", () => {
  test("put writes each capsule's derivation sealed; the next feed reads it and derives nothing; output equals a cacheless feed", async () => {
    const home = tempHome("dcache-put");
    const store = await openOrCreateStore({ home, passphrase: undefined });
    cacheDerivationsOnPut(store, testPack());
    const capsules = exampleCapsules();
    store.putCapsules(capsules.map((c) => storable(c.bytes, c.id)));
    expect(pendingFiles(store).sort()).toEqual(capsules.map((c) => `${c.id}.sealed`).sort());
    // Sealed: no plaintext of any capsule's private values in the files.
    for (const f of pendingFiles(store)) expect(readFileSync(join(store.layout.root, PENDING_DIR, f)).toString("latin1")).not.toMatch(/sha256|handles|candidate/);
    expect(countMisses(store, testPack())).toBe(0);

    const warm = await feedOf(store);
    expect(warm.derived).toBe(0);
    // The first reader merged the pending files into the two cache files and removed them.
    expect(pendingFiles(store)).toEqual([]);
    for (const f of cacheFiles(store)) expect(existsSync(f)).toBe(true);

    // A cached candidate is the fresh one, member order included (what review show and get_candidates print).
    const fresh = new StoredDerivations(plainStoreFor(store), testPack());
    const cached = new StoredDerivations(store, testPack());
    for (const c of capsules) {
      for (const view of VIEWS) {
        const [a, b] = [cached.candidate(c.id, view), fresh.candidate(c.id, view)];
        expect(a.status).toBe(b.status);
        if (a.status !== "emitted" || b.status !== "emitted") continue;
        expect(JSON.stringify(a.candidate)).toBe(JSON.stringify(b.candidate));
        expect([a.digest, Buffer.from(a.bytes).toString()]).toEqual([b.digest, Buffer.from(b.bytes).toString()]);
      }
    }
    expect(cached.derived).toBe(0);
    expect(fresh.derived).toBe(capsules.length);
    // The CLI's cached path gives the same bytes, and declines a store whose rows are missing.
    for (const [i, view] of VIEWS.entries()) expect(await text(feedFromCache(store, testPack(), view)!)).toBe(warm.lines[i]);
    const { store: plain } = await storeWith("dcache-plain", capsules);
    expect(feedFromCache(plain, testPack(), VIEWS[0])).toBeUndefined();
    const cold = await feedOf(plain);
    expect(cold.lines).toEqual(warm.lines);
    dropCache(store);
    const rebuilt = await feedOf(store);
    expect(rebuilt.lines).toEqual(warm.lines);
  });

  test("each values row keeps the probe of its own and store values; a row whose probe is malformed is dropped and derived again", async () => {
    const home = tempHome("dcache-probe");
    const store = await openOrCreateStore({ home, passphrase: undefined });
    cacheDerivationsOnPut(store, testPack());
    const capsules = exampleCapsules().slice(0, 4);
    store.putCapsules(capsules.map((c) => storable(c.bytes, c.id)));
    const first = new StoredDerivations(store, testPack());
    for (const c of capsules) {
      const v = first.values(c.id);
      // The same hashes as a probe of every value, own and store (a probe has no order).
      expect(new Set(v.probe), c.name).toEqual(new Set(OutwardGuard.probeOf([...(v.privateValues ?? []), ...v.storeValues])));
      expect(v.probe, c.name).toEqual(probeOfValues(v));
      expect(v.probe!.length, c.name).toBeGreaterThan(0);
    }
    first.save();
    const misses = () => {
      const d = new StoredDerivations(store, testPack());
      for (const c of capsules) d.values(c.id);
      // A missing values row is read again alone: no candidate is derived for it.
      expect(d.derived).toBe(0);
      return d.valuesRead;
    };
    expect(misses()).toBe(0);
    const bad = ["not base64!", Buffer.from([1, 2, 3]).toString("base64"), Buffer.from([1, 2, 3, 4, 5, 6]).toString("base64"), 7];
    resealed(store, VALUES_NAME, (doc) => {
      doc.rows.forEach((r, i) => {
        if (i < bad.length) r[3] = bad[i];
      });
    });
    expect(misses()).toBe(Math.min(bad.length, capsules.length));

    // Rows derived without a probe (a cold feed keeps none) get theirs from the first command that narrows a guard
    // over the store, which saves it; the next command reads it.
    dropCache(store);
    await feedOf(store);
    const afterFeed = new StoredDerivations(store, testPack());
    for (const c of capsules) expect(afterFeed.values(c.id).probe, c.name).toBeUndefined();
    const narrowing = new StoredDerivations(store, testPack());
    for (const c of capsules) expect(narrowing.probedValues(c.id).probe).toEqual(probeOfValues(narrowing.values(c.id)));
    narrowing.save();
    const later = new StoredDerivations(store, testPack());
    for (const c of capsules) expect(later.values(c.id).probe, c.name).toEqual(probeOfValues(later.values(c.id)));
    expect(later.derived).toBe(0);
  });

  test("capsule import writes the rows; an unchanged store is a read; a new pack or policy version rebuilds them", async () => {
    const home = tempHome("dcache-import");
    const files = exampleCapsules().map((c) => {
      const f = join(tempHome("dcache-files"), `${c.name}.json`);
      writeFileSync(f, c.bytes);
      return f;
    });
    expect((await cli(["--home", home, "--pack", PACK_FILE, "capsule", "import", ...files])).code).toBe(0);
    const store = await openOrCreateStore({ home, passphrase: undefined });
    expect(pendingFiles(store)).toHaveLength(files.length);
    const first = await feedOf(store);
    expect(first.derived).toBe(0);

    // Another pack (another digest): every row is of the wrong key, so every capsule is derived again.
    const other = { ...testPack(), sha256: "0".repeat(64) } as IntelligencePack;
    expect(countMisses(store, other)).toBe(files.length);
    // Saving under the other pack replaces the files: the configured pack's rows are rebuilt once, then read.
    const s = new StoredDerivations(store, other);
    for (const id of store.capsuleIds()) s.outcome(id);
    s.save();
    expect(countMisses(store, testPack())).toBe(files.length);
    const again = new StoredDerivations(store, testPack());
    for (const id of store.capsuleIds()) again.outcome(id);
    again.save();
    expect(countMisses(store, testPack())).toBe(0);

    // A file of another candidate-policy version (rules changed) is not read: everything is derived again.
    resealed(store, OUTCOMES_NAME, (doc) => {
      expect(doc.policy).toBe(CANDIDATE_POLICY_VERSION);
      doc.policy = "evidence-bridge-candidate-policy/0";
    });
    expect(countMisses(store, testPack())).toBe(files.length);
  });

  test("an edited, moved or inconsistent cache is derived again, never believed", async () => {
    const leaky = leakGuardCapsule();
    const capsules = [...exampleCapsules(), leaky];
    const { store } = await storeWith("dcache-tamper", capsules);
    const reference = await feedOf(store);
    expect(reference.derived).toBe(capsules.length);
    expect(countMisses(store, testPack())).toBe(0);

    // Without the key: a flipped bit anywhere fails authentication, and the whole file is rebuilt.
    const [outcomes] = cacheFiles(store);
    const bytes = readFileSync(outcomes);
    bytes[bytes.length - 100] ^= 0x01;
    writeFileSync(outcomes, bytes);
    expect(countMisses(store, testPack())).toBe(capsules.length);
    const afterFlip = await feedOf(store);
    expect(afterFlip.lines).toEqual(reference.lines);

    // A sealed file of another kind moved to the cache's name (the row index) does not authenticate there.
    const rowIndex = join(store.layout.root, store.layout.indexName);
    store.rows();
    writeFileSync(outcomes, readFileSync(rowIndex));
    expect(countMisses(store, testPack())).toBe(capsules.length);
    await feedOf(store);

    // A pending file copied to another capsule's name does not authenticate under that name.
    const home2 = tempHome("dcache-swap");
    const s2 = await openOrCreateStore({ home: home2, passphrase: undefined });
    cacheDerivationsOnPut(s2, testPack());
    const [a, b] = capsules;
    s2.putCapsules([a, b].map((c) => storable(c.bytes, c.id)));
    const dir = join(s2.layout.root, PENDING_DIR);
    writeFileSync(join(dir, `${b.id}.sealed`), readFileSync(join(dir, `${a.id}.sealed`)));
    const m = new StoredDerivations(s2, testPack());
    for (const id of s2.capsuleIds()) m.outcome(id);
    expect(m.derived).toBe(1);
    expect(m.candidate(b.id, VIEWS[1])).toMatchObject({ status: "emitted", candidate: { capsule_sha256: b.id } });

    // Even a writer with the key cannot make a row speak for another capsule: rows whose candidate names another
    // capsule are dropped and derived again (here two rows' views are swapped, and the leaky capsule's withheld
    // reason is replaced by an emitted candidate).
    resealed(store, OUTCOMES_NAME, (doc) => {
      const rows = doc.rows as [string, unknown[]][];
      const emitted = rows.filter((r) => r[1][0] === "d" && (r[1][2] as unknown[])[0] === "e");
      const [x, y] = emitted;
      [x[1], y[1]] = [y[1], x[1]];
      const leakRow = rows.find((r) => r[0] === leaky.id)!;
      leakRow[1] = x[1];
    });
    expect(countMisses(store, testPack())).toBe(3);
    const afterSwap = await feedOf(store);
    expect(afterSwap.lines).toEqual(reference.lines);
  });
});
