/** Key files and passphrase mode (src/crypto/keys.ts, key-files.ts, data-dir.ts): every bad input is refused precisely. */
import { chmodSync, mkdirSync, readFileSync, statSync, symlinkSync, unlinkSync, writeFileSync, copyFileSync, existsSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, test } from "vitest";
import { DataDirError, KeyError } from "../../../src/crypto/errors.js";
import { createKeys, describeKeys, keyLayout, loadKeys, loadOrCreateKeys, readInstallationPublicKey, storedKeyMode } from "../../../src/crypto/keys.js";
import { tempDir, TEST_KDF } from "./helpers.js";

async function keyError(p: Promise<unknown> | (() => unknown)): Promise<KeyError> {
  try {
    await (typeof p === "function" ? p() : p);
  } catch (e) {
    expect(e).toBeInstanceOf(KeyError);
    return e as KeyError;
  }
  throw new Error("expected a KeyError");
}

const mode = (p: string) => statSync(p).mode & 0o777;

describe("key-file mode", () => {
  test("creates the data directory (0700), keys directory (0700) and two 0600 typed key files", async () => {
    const home = join(tempDir("kf"), "nested", "home");
    const keys = await createKeys(home, undefined);
    const l = keyLayout(home);
    expect(mode(home)).toBe(0o700);
    expect(mode(l.dir)).toBe(0o700);
    expect(mode(l.storeKey)).toBe(0o600);
    expect(mode(l.signingKey)).toBe(0o600);
    expect(readdirSync(l.dir).sort()).toEqual(["signing.key", "store.key"]);
    expect(readFileSync(l.storeKey, "utf8")).toMatch(/^evidence-bridge store-key v1\n[0-9a-f]{64}\n$/);
    expect(readFileSync(l.signingKey, "utf8")).toMatch(/^evidence-bridge signing-key v1\n[0-9a-f]{64}\n$/);
    expect(keys.mode).toBe("key-file");
    expect(storedKeyMode(home)).toBe("key-file");
    const again = await loadKeys(home, undefined);
    expect(again.store.idHex).toBe(keys.store.idHex);
    expect(again.signing.fingerprint).toBe(keys.signing.fingerprint);
    expect(readInstallationPublicKey(home)?.fingerprint).toBe(keys.signing.fingerprint);
  });

  test("keys are random and never replaced", async () => {
    const a = tempDir("kf2");
    const b = tempDir("kf3");
    const ka = await createKeys(a, undefined);
    const kb = await createKeys(b, undefined);
    expect(ka.store.idHex).not.toBe(kb.store.idHex);
    const before = readFileSync(keyLayout(a).storeKey);
    const e = await keyError(createKeys(a, undefined));
    expect(e.code).toBe("exists");
    expect(e.message).toContain("refusing to replace them");
    expect(readFileSync(keyLayout(a).storeKey).equals(before)).toBe(true);
    expect((await loadOrCreateKeys(a, undefined)).created).toBe(false);
  });

  test("key files readable or writable by group or others are refused with the chmod that fixes them", async () => {
    const home = tempDir("perm");
    await createKeys(home, undefined);
    const l = keyLayout(home);
    for (const [file, m] of [
      [l.storeKey, 0o644],
      [l.storeKey, 0o640],
      [l.storeKey, 0o604],
      [l.signingKey, 0o620],
      [l.signingKey, 0o602],
    ] as const) {
      chmodSync(file, m);
      const e = await keyError(loadKeys(home, undefined));
      expect(e.code).toBe("permissions");
      expect(e.message).toBe(
        `key file ${file} is accessible by group or others (mode 0${m.toString(8)}); fix it with: chmod 600 ${file}`,
      );
      chmodSync(file, 0o600);
    }
    await expect(loadKeys(home, undefined)).resolves.toBeDefined();
  });

  test("missing, short, non-hex, wrongly typed, future-version, symlinked and directory key files", async () => {
    const home = tempDir("bad");
    await createKeys(home, undefined);
    const l = keyLayout(home);
    const original = readFileSync(l.storeKey);
    const write = (text: string) => {
      unlinkSync(l.storeKey);
      writeFileSync(l.storeKey, text, { mode: 0o600 });
    };
    const cases: [string, KeyError["code"], string][] = [
      ["evidence-bridge store-key v1\n" + "ab".repeat(31) + "\n", "malformed", "62 hexadecimal digits where 64 are required"],
      ["evidence-bridge store-key v1\n", "malformed", "expected 'evidence-bridge store-key v1' and 64 hexadecimal digits"],
      ["", "malformed", "expected 'evidence-bridge store-key v1' and 64 hexadecimal digits"],
      ["evidence-bridge store-key v1\n" + "zz".repeat(32) + "\n", "malformed", "expected 'evidence-bridge store-key v1'"],
      ["evidence-bridge signing-key v1\n" + "ab".repeat(32) + "\n", "wrong-type", "holds a signing-key, not a store-key"],
      ["evidence-bridge store-key v2\n" + "ab".repeat(32) + "\n", "malformed", "unsupported version v2"],
      ["ab".repeat(32), "malformed", "expected 'evidence-bridge store-key v1'"],
    ];
    for (const [text, code, fragment] of cases) {
      write(text);
      const e = await keyError(loadKeys(home, undefined));
      expect(e.code, text).toBe(code);
      expect(e.message).toContain(l.storeKey);
      expect(e.message).toContain(fragment);
    }
    unlinkSync(l.storeKey);
    writeFileSync(join(home, "elsewhere.key"), original, { mode: 0o600 });
    symlinkSync(join(home, "elsewhere.key"), l.storeKey);
    expect((await keyError(loadKeys(home, undefined))).code).toBe("not-regular");
    unlinkSync(l.storeKey);
    mkdirSync(l.storeKey);
    expect((await keyError(loadKeys(home, undefined))).message).toBe(`key file ${l.storeKey} is a directory; only regular files are read; key files must be regular files`);
  });

  test("a missing signing key next to an existing store key is reported, never silently recreated", async () => {
    const home = tempDir("nosign");
    await createKeys(home, undefined);
    const l = keyLayout(home);
    unlinkSync(l.signingKey);
    for (const load of [() => loadKeys(home, undefined), () => loadOrCreateKeys(home, undefined)]) {
      const e = await keyError(load());
      expect(e.code).toBe("missing");
      expect(e.message).toBe(`key file ${l.signingKey} is missing (but ${l.storeKey} exists): restore it from your backup of the keys directory`);
    }
    expect(existsSync(l.signingKey)).toBe(false);
  });

  test("an interrupted setup (signing key written, store key not yet) is completed with that signing key", async () => {
    const home = tempDir("interrupted");
    const first = await createKeys(home, undefined);
    unlinkSync(keyLayout(home).storeKey);
    const { keys, created } = await loadOrCreateKeys(home, undefined);
    expect(created).toBe(true);
    expect(keys.signing.fingerprint).toBe(first.signing.fingerprint);
    expect(keys.store.idHex).not.toBe(first.store.idHex);
  });

  test("no keys: loading says how to create them; allowCreate false refuses to create", async () => {
    const home = tempDir("none");
    mkdirSync(home);
    const e = await keyError(loadKeys(home, undefined));
    expect(e.message).toBe(`no keys in ${join(home, "keys")}: run 'evidence-bridge keys init' (or build a capsule, which creates them)`);
    const e2 = await keyError(loadOrCreateKeys(home, undefined, { allowCreate: false }));
    expect(e2.message).toContain("holds sealed files but its keys are missing");
    expect(readdirSync(home)).toEqual([]);
  });
});

describe("passphrase mode", () => {
  test("creates keys/passphrase.json only (0600): scrypt parameters, salt, key id, public key, sealed signing seed", async () => {
    const home = tempDir("pp");
    const keys = await createKeys(home, "correct horse battery staple", { kdfCost: TEST_KDF });
    const l = keyLayout(home);
    expect(readdirSync(l.dir)).toEqual(["passphrase.json"]);
    expect(mode(l.passphraseFile)).toBe(0o600);
    const doc = JSON.parse(readFileSync(l.passphraseFile, "utf8"));
    expect(Object.keys(doc)).toEqual(["format", "kdf", "store_key_id", "signing_public_key", "signing_key_sealed", "checksum"]);
    expect(doc.kdf).toMatchObject({ algorithm: "scrypt", n: 1024, r: 8, p: 1, dk_len: 32, normalization: "NFC" });
    expect(doc.kdf.salt).toMatch(/^[0-9a-f]{64}$/);
    expect(doc.store_key_id).toBe(keys.store.idHex);
    expect(keys.mode).toBe("passphrase");
    // The seed is sealed: its hex does not appear in the file.
    expect(readFileSync(l.passphraseFile, "utf8")).not.toContain(Buffer.from(keys.signing.seed).toString("hex"));
    const again = await loadKeys(home, "correct horse battery staple");
    expect(again.store.idHex).toBe(keys.store.idHex);
    expect(again.signing.fingerprint).toBe(keys.signing.fingerprint);
    expect(readInstallationPublicKey(home)?.fingerprint).toBe(keys.signing.fingerprint);
  });

  test("default parameters are n=2^16, r=8, p=2 with a random 32-byte salt per store", async () => {
    const { newKdfParams, DEFAULT_SCRYPT } = await import("../../../src/crypto/kdf.js");
    expect(DEFAULT_SCRYPT).toEqual({ n: 65536, r: 8, p: 2 });
    const a = newKdfParams();
    expect(a.salt).not.toBe(newKdfParams().salt);
  });

  test("a wrong passphrase is reported as such", async () => {
    const home = tempDir("ppwrong");
    await createKeys(home, "right", { kdfCost: TEST_KDF });
    const e = await keyError(loadKeys(home, "wrong"));
    expect(e.code).toBe("wrong-passphrase");
    expect(e.message).toBe(`wrong passphrase: EVIDENCE_BRIDGE_PASSPHRASE does not unlock the store keys in ${keyLayout(home).passphraseFile}`);
  });

  test("damage is reported as damage, not as a wrong passphrase", async () => {
    const home = tempDir("ppdamage");
    await createKeys(home, "right", { kdfCost: TEST_KDF });
    const l = keyLayout(home);
    const text = readFileSync(l.passphraseFile, "utf8");
    const rewrite = (t: string) => {
      unlinkSync(l.passphraseFile);
      writeFileSync(l.passphraseFile, t, { mode: 0o600 });
    };
    rewrite(text.replace('"n": 1024', '"n": 2048'));
    let e = await keyError(loadKeys(home, "right"));
    expect(e.code).toBe("malformed");
    expect(e.message).toBe(`key file ${l.passphraseFile} is malformed: json.checksum: does not match the file's contents (the file was changed or damaged)`);
    rewrite(text.replace('"n": 1024', '"n": 1000'));
    e = await keyError(loadKeys(home, "right"));
    expect(e.message).toContain("json.kdf: scrypt n must be a power of two");
    rewrite(text.replace('"format"', '"extra": 1,\n  "format"'));
    expect((await keyError(loadKeys(home, "right"))).message).toContain('json: unknown member "extra"');
    rewrite("not json");
    expect((await keyError(loadKeys(home, "right"))).message).toContain("is malformed: invalid JSON");
    rewrite(text);
    chmodSync(l.passphraseFile, 0o644);
    expect((await keyError(loadKeys(home, "right"))).code).toBe("permissions");
  });

  test("the passphrase is NFC-normalized", async () => {
    const home = tempDir("nfc");
    await createKeys(home, "caf\u00e9", { kdfCost: TEST_KDF });
    await expect(loadKeys(home, "cafe\u0301")).resolves.toBeDefined();
  });

  test("a store is never opened in the other mode", async () => {
    const kf = tempDir("mix1");
    await createKeys(kf, undefined);
    const e1 = await keyError(loadKeys(kf, "a passphrase"));
    expect(e1.code).toBe("mode-mismatch");
    expect(e1.message).toBe(
      `the store uses key files (${keyLayout(kf).storeKey}) but EVIDENCE_BRIDGE_PASSPHRASE is set: unset it to open this store; a store cannot change mode`,
    );
    expect((await keyError(loadOrCreateKeys(kf, "a passphrase"))).code).toBe("mode-mismatch");
    const pp = tempDir("mix2");
    await createKeys(pp, "secret", { kdfCost: TEST_KDF });
    const e2 = await keyError(loadKeys(pp, undefined));
    expect(e2.message).toBe(`the store is passphrase-protected (${keyLayout(pp).passphraseFile}): set EVIDENCE_BRIDGE_PASSPHRASE to open it`);
    expect((await keyError(loadOrCreateKeys(pp, undefined))).code).toBe("mode-mismatch");
    expect(readdirSync(keyLayout(pp).dir)).toEqual(["passphrase.json"]);
    copyFileSync(keyLayout(kf).storeKey, keyLayout(pp).storeKey);
    expect((await keyError(() => storedKeyMode(pp))).message).toContain("a store has exactly one key mode");
  });
});

describe("describeKeys", () => {
  test("fingerprints and paths only, passphrase checked only when given", async () => {
    const home = tempDir("desc");
    const keys = await createKeys(home, "pw", { kdfCost: TEST_KDF });
    const open = await describeKeys(home, undefined);
    expect(open).toMatchObject({ mode: "passphrase", passphraseChecked: false, storeKey: { fingerprint: `store-key:${keys.store.idHex}` } });
    expect(await describeKeys(home, "pw")).toMatchObject({ passphraseChecked: true, signingKey: { fingerprint: keys.signing.fingerprint } });
    expect((await keyError(describeKeys(home, "nope"))).code).toBe("wrong-passphrase");
    expect(JSON.stringify(open)).not.toContain(Buffer.from(keys.store.bytes).toString("hex"));
    expect(await describeKeys(tempDir("absent"), undefined)).toBeUndefined();
  });
});

describe("data directory", () => {
  test("a file, a path under a file, and a directory without write permission are refused; nothing is created", async () => {
    const base = tempDir("dd");
    mkdirSync(base);
    const file = join(base, "afile");
    writeFileSync(file, "x");
    await expect(loadOrCreateKeys(file, undefined)).rejects.toThrow(new DataDirError(`data directory ${file} is not a directory (choose another with --home or EVIDENCE_BRIDGE_HOME)`));
    await expect(loadOrCreateKeys(join(file, "sub"), undefined)).rejects.toThrow(/a parent path is a file/);
    const ro = join(base, "readonly");
    mkdirSync(ro, { mode: 0o500 });
    chmodSync(ro, 0o500);
    await expect(loadOrCreateKeys(ro, undefined)).rejects.toThrow(new DataDirError(`data directory ${ro} is not writable (fix its permissions, e.g. chmod 700 ${ro})`));
    expect(readdirSync(ro)).toEqual([]);
    chmodSync(ro, 0o700);
  });
});
