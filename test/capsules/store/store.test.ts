/** The sealed store (capsules/store/store.ts): puts, idempotence, conflicts, receipts, messages, layout and modes. */
import { readdirSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync, mkdirSync, unlinkSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, test } from "vitest";
import { loadCapsuleBytes } from "../../../capsules/capsule/load.js";
import { verifyCapsule } from "../../../capsules/capsule/verify.js";
import { StoreError } from "../../../capsules/store/errors.js";
import { checkStoredReceipt, RECEIPT_FORMAT } from "../../../capsules/store/receipts.js";
import { openOrCreateStore, openStore, surelyNoStore } from "../../../capsules/store/store.js";
import { KeyError } from "../../../src/crypto/errors.js";
import { SEAL_MAGIC } from "../../../src/crypto/seal.js";
import { sha256Hex } from "../../../src/hash.js";
import { CANARY, syntheticCapsule, tempHome } from "./synthetic.js";
import { storable } from "../../helpers/storable.js";

const homes: string[] = [];
afterAll(() => {
  for (const h of homes) rmSync(h, { recursive: true, force: true });
});
function home(tag: string): string {
  const h = tempHome(tag);
  homes.push(h);
  return h;
}

function storeError(fn: () => unknown): StoreError {
  try {
    fn();
  } catch (e) {
    expect(e).toBeInstanceOf(StoreError);
    return e as StoreError;
  }
  throw new Error("expected a StoreError");
}

describe("putCapsule / getCapsule", () => {
  test("round trip, exact bytes, files 0600 in 0700 directories, only ciphertext on disk", async () => {
    const h = home("put");
    const store = await openOrCreateStore({ home: h, passphrase: undefined });
    const c = syntheticCapsule(1);
    expect(store.putCapsule(storable(c.bytes, c.id))).toEqual({ id: c.id, stored: "new" });
    expect(Buffer.from(store.getCapsule(c.id)).equals(Buffer.from(c.bytes))).toBe(true);
    const dir = store.layout.capsules;
    expect(readdirSync(dir).sort()).toEqual([`${c.id}.receipt`, `${c.id}.sealed`]);
    for (const d of [h, store.layout.root, dir]) expect(statSync(d).mode & 0o777).toBe(0o700);
    for (const f of readdirSync(dir)) expect(statSync(join(dir, f)).mode & 0o777).toBe(0o600);
    const sealed = readFileSync(join(dir, `${c.id}.sealed`));
    expect([...sealed.subarray(0, 8)]).toEqual([...SEAL_MAGIC]);
    expect(sealed.includes(Buffer.from(CANARY.handle))).toBe(false);
    expect(store.hasCapsule(c.id)).toBe(true);
    expect(store.capsuleIds()).toEqual([c.id]);
  });

  test("idempotent: same id and bytes succeed; different bytes under an existing id are refused and the first copy kept", async () => {
    const store = await openOrCreateStore({ home: home("idem"), passphrase: undefined });
    const c = syntheticCapsule(2);
    store.putCapsule(storable(c.bytes, c.id));
    const before = readFileSync(join(store.layout.capsules, `${c.id}.sealed`));
    expect(store.putCapsule(storable(c.bytes, c.id))).toEqual({ id: c.id, stored: "existing" });
    const e = storeError(() => store.putCapsule(storable(c.prettyBytes, c.id)));
    expect(e.code).toBe("conflict");
    expect(e.message).toBe(`capsule ${c.id} is already stored with different bytes; the stored copy is kept`);
    expect(readFileSync(join(store.layout.capsules, `${c.id}.sealed`)).equals(before)).toBe(true);
    expect(readdirSync(store.layout.capsules).sort()).toEqual([`${c.id}.receipt`, `${c.id}.sealed`]);
  });

  test("bytes that are not the capsule named by the id are refused at opening; only pipeline values are sealed", async () => {
    const store = await openOrCreateStore({ home: home("mismatch"), passphrase: undefined });
    const a = syntheticCapsule(3);
    const b = syntheticCapsule(4);
    let e = storeError(() => store.putCapsule(storable(a.bytes, b.id)));
    expect(e.code).toBe("mismatch");
    expect(e.message).toBe(`capsule ${b.id}: recomputed content_sha256 ${a.id} does not equal the capsule id ${b.id}`);
    e = storeError(() => store.putCapsule(storable(new TextEncoder().encode("{not json"), a.id)));
    expect(e.message).toMatch(/^capsule [0-9a-f]{64} is not a capsule file: invalid JSON/);
    e = storeError(() => store.putCapsule(storable(a.bytes, "ABC")));
    expect(e.message).toBe(`capsule ABC: recomputed content_sha256 ${a.id} does not equal the capsule id ABC`);
    // A look-alike of a pipeline value (bytes and an id, no proof) is refused before anything is written.
    const fake = { bytes: b.bytes, id: b.id, envelope: new Map(), proof: "identity", report: undefined };
    expect(() => store.putCapsule(fake as never)).toThrow(/^putCapsule takes a built or opened capsule/);
    expect(store.capsuleIds()).toEqual([]);
  });

  test("a declared content_sha256 that differs from the recomputed one is refused", async () => {
    const store = await openOrCreateStore({ home: home("declared"), passphrase: undefined });
    const c = syntheticCapsule(5);
    const wrong = Buffer.from(Buffer.from(c.bytes).toString("utf8").replace(c.id, "0".repeat(64)));
    expect(storeError(() => store.putCapsule(storable(wrong, c.id))).message).toBe(`capsule ${c.id}: declared content_sha256 does not equal the capsule id ${c.id}`);
  });

  test("batch puts, golden capsule files stored byte-exactly, prefix resolution", async () => {
    const store = await openOrCreateStore({ home: home("batch"), passphrase: undefined });
    const items = [6, 7, 8].map((i) => syntheticCapsule(i));
    const results = store.putCapsules(items.map((c) => storable(c.bytes, c.id)));
    expect(results.map((r) => r.stored)).toEqual(["new", "new", "new"]);
    const id = items[0].id;
    expect(store.resolveCapsuleId(id.slice(0, 10))).toBe(id);
    expect(store.resolveCapsuleId(id)).toBe(id);
    expect(storeError(() => store.resolveCapsuleId("abc")).code).toBe("invalid-id");
    expect(storeError(() => store.resolveCapsuleId("ffffff" + "0".repeat(58))).code).toBe("not-found");
    expect(storeError(() => store.getCapsule("0".repeat(64))).message).toBe(`no capsule ${"0".repeat(64)} in the store`);
  });
});

describe("receipts", () => {
  test("a valid Ed25519 receipt over the id beside each capsule; the capsule's attestations are untouched", async () => {
    const h = home("receipt");
    const store = await openOrCreateStore({ home: h, passphrase: undefined });
    const c = syntheticCapsule(10);
    store.putCapsule(storable(c.bytes, c.id));
    const receiptPath = join(store.layout.capsules, `${c.id}.receipt`);
    const doc = JSON.parse(readFileSync(receiptPath, "utf8"));
    expect(Object.keys(doc)).toEqual(["content_sha256", "format", "public_key", "signature"]);
    expect(doc.format).toBe(RECEIPT_FORMAT);
    expect(doc.content_sha256).toBe(c.id);
    expect(store.receipt(c.id)).toEqual({ status: "valid", signer: store.keys.signing.fingerprint, stored: true });
    expect(checkStoredReceipt({ home: h }, c.id)).toEqual({ status: "valid", signer: store.keys.signing.fingerprint, stored: true });
    const report = verifyCapsule(loadCapsuleBytes(store.getCapsule(c.id)));
    expect(report.ok).toBe(true);
    expect(report.attestations.count).toBe(0);
  });

  test("missing, tampered, re-targeted and foreign receipts; no store", async () => {
    const h = home("receipt2");
    const store = await openOrCreateStore({ home: h, passphrase: undefined });
    const [a, b] = [11, 12].map((i) => syntheticCapsule(i));
    store.putCapsules([a, b].map((c) => storable(c.bytes, c.id)));
    const path = (id: string) => join(store.layout.capsules, `${id}.receipt`);
    const original = readFileSync(path(a.id), "utf8");
    const sig = JSON.parse(original).signature as string;
    writeFileSync(path(a.id), original.replace(sig, (sig[0] === "0" ? "1" : "0") + sig.slice(1)));
    expect(checkStoredReceipt({ home: h }, a.id)).toEqual({ status: "invalid", stored: true, reason: "receipt signature does not verify" });
    writeFileSync(path(a.id), readFileSync(path(b.id)));
    expect(checkStoredReceipt({ home: h }, a.id).reason).toBe("receipt names a different content_sha256");
    const other = await openOrCreateStore({ home: home("receipt3"), passphrase: undefined });
    other.putCapsule(storable(a.bytes, a.id));
    writeFileSync(path(a.id), readFileSync(join(other.layout.capsules, `${a.id}.receipt`)));
    expect(checkStoredReceipt({ home: h }, a.id).reason).toBe(`receipt was signed by another key (${other.keys.signing.fingerprint})`);
    writeFileSync(path(a.id), "{}");
    expect(checkStoredReceipt({ home: h }, a.id).status).toBe("invalid");
    unlinkSync(path(a.id));
    expect(checkStoredReceipt({ home: h }, a.id)).toEqual({ status: "missing", stored: true });
    // Putting the same capsule again restores the receipt.
    store.putCapsule(storable(a.bytes, a.id));
    expect(checkStoredReceipt({ home: h }, a.id).status).toBe("valid");
    expect(checkStoredReceipt({ home: h }, "1".repeat(64))).toEqual({ status: "missing", stored: false });
    expect(checkStoredReceipt({ home: home("never") }, a.id).status).toBe("unavailable");
    expect(checkStoredReceipt({ home: h }, "xyz").status).toBe("unavailable");
  });
});

describe("retained messages", () => {
  test("sealed under a keyed name that does not reveal message_sha256; hash-checked both ways", async () => {
    const h = home("msg");
    const store = await openOrCreateStore({ home: h, passphrase: undefined });
    const c = syntheticCapsule(20);
    expect(store.hasMessage(c.messageSha256)).toBe(false);
    expect(store.putMessage(c.message, c.messageSha256)).toEqual({ id: c.messageSha256, stored: "new" });
    expect(store.putMessage(new TextEncoder().encode(c.message), c.messageSha256).stored).toBe("existing");
    expect(Buffer.from(store.getMessage(c.messageSha256)).toString("utf8")).toBe(c.message);
    const names = readdirSync(store.layout.messages);
    expect(names).toEqual([`${store.messageName(c.messageSha256)}.sealed`]);
    expect(names[0]).not.toContain(c.messageSha256);
    expect(readFileSync(join(store.layout.messages, names[0])).includes(Buffer.from("CANARY"))).toBe(false);
    const e = storeError(() => store.putMessage(c.message + " ", c.messageSha256));
    expect(e.code).toBe("mismatch");
    expect(e.message).not.toContain(c.messageSha256);
    expect(storeError(() => store.getMessage(sha256Hex("other"))).message).toBe("no retained message for that message_sha256");
  });
});

describe("opening", () => {
  test("surelyNoStore says true only where openStore finds no store, and false wherever it opens one or fails", async () => {
    const verdict = (h: string) => openStore({ home: h, passphrase: undefined }).then(
      () => "opened",
      (e: unknown) => (e instanceof StoreError && e.code === "no-store" ? "no-store" : "error"),
    );
    const h = home("surely");
    // Absent, then empty: no store, and the cheap check knows it.
    expect([surelyNoStore(h), await verdict(h)]).toEqual([true, "no-store"]);
    mkdirSync(h, { mode: 0o700 });
    expect([surelyNoStore(h), await verdict(h)]).toEqual([true, "no-store"]);
    // An empty keys directory: still no store, but only opening can tell.
    mkdirSync(join(h, "keys"));
    expect([surelyNoStore(h), await verdict(h)]).toEqual([false, "no-store"]);
    rmSync(join(h, "keys"), { recursive: true });
    // A link named keys, even one that leads nowhere, is left to openStore.
    symlinkSync(join(h, "nowhere"), join(h, "keys"));
    expect(surelyNoStore(h)).toBe(false);
    unlinkSync(join(h, "keys"));
    // A store: opened.
    const store = await openOrCreateStore({ home: h, passphrase: undefined });
    const c = syntheticCapsule(31);
    store.putCapsule(storable(c.bytes, c.id));
    expect([surelyNoStore(h), await verdict(h)]).toEqual([false, "opened"]);
    // Sealed files without their keys: an error, never "no store".
    rmSync(join(h, "keys"), { recursive: true });
    expect([surelyNoStore(h), await verdict(h)]).toEqual([false, "error"]);
    // A data directory that is a file: openStore's error.
    const file = join(h, "a-file");
    writeFileSync(file, "x");
    expect([surelyNoStore(file), await verdict(file)]).toEqual([false, "error"]);
  });

  test("no store yet; sealed files without keys; stale temps are cleaned on open", async () => {
    const h = home("open");
    await expect(openStore({ home: h, passphrase: undefined })).rejects.toThrow(
      new StoreError("no-store", `no store in ${h} yet: build or import a capsule, or run 'evidence-bridge keys init'`),
    );
    const store = await openOrCreateStore({ home: h, passphrase: undefined });
    const c = syntheticCapsule(30);
    store.putCapsule(storable(c.bytes, c.id));
    const stale = join(store.layout.capsules, ".tmp-999999999-0123456789abcdef");
    writeFileSync(stale, "ciphertext leftovers");
    await openStore({ home: h, passphrase: undefined });
    expect(readdirSync(store.layout.capsules).some((n) => n.startsWith(".tmp-"))).toBe(false);
    rmSync(join(h, "keys"), { recursive: true });
    for (const open of [openStore, openOrCreateStore]) {
      const err = await open({ home: h, passphrase: undefined }).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(KeyError);
      expect((err as Error).message).toContain("holds sealed files but its keys are missing");
    }
    expect(readdirSync(h).sort()).toEqual(["store"]);
  });

  test("passphrase store: same API; wrong passphrase and mode mix-ups are refused", async () => {
    const h = home("pp");
    const store = await openOrCreateStore({ home: h, passphrase: "s3cret" }, { kdfCost: { n: 1024, r: 8, p: 1 } });
    const c = syntheticCapsule(31);
    store.putCapsule(storable(c.bytes, c.id));
    const again = await openStore({ home: h, passphrase: "s3cret" });
    expect(Buffer.from(again.getCapsule(c.id)).equals(Buffer.from(c.bytes))).toBe(true);
    expect(again.receipt(c.id).status).toBe("valid");
    expect(checkStoredReceipt({ home: h }, c.id).status).toBe("valid"); // no passphrase needed for receipts
    await expect(openStore({ home: h, passphrase: "wrong" })).rejects.toThrow(/^wrong passphrase/);
    await expect(openStore({ home: h, passphrase: undefined })).rejects.toThrow(/is passphrase-protected/);
  });

  test("a data directory that is a file or not writable is refused by openOrCreateStore, nothing written", async () => {
    const base = home("dd");
    mkdirSync(base);
    writeFileSync(join(base, "file"), "x");
    await expect(openOrCreateStore({ home: join(base, "file"), passphrase: undefined })).rejects.toThrow(/is not a directory/);
    const ro = join(base, "ro");
    mkdirSync(ro, { mode: 0o500 });
    await expect(openOrCreateStore({ home: ro, passphrase: undefined })).rejects.toThrow(`data directory ${ro} is not writable`);
    expect(readdirSync(ro)).toEqual([]);
  });
});
