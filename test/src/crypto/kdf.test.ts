/** scrypt parameters (src/crypto/kdf.ts): bounds are enforced, derivation depends on every parameter. */
import { scrypt } from "@noble/hashes/scrypt.js";
import { describe, expect, test } from "vitest";
import { derivePassphraseKey, kdfParamsProblem, newKdfParams } from "../../../src/crypto/kdf.js";
import { TEST_KDF } from "./helpers.js";

const hex = (b: Uint8Array) => Buffer.from(b).toString("hex");

describe("scrypt parameters", () => {
  test("in-bounds parameters pass; each out-of-bounds value is named", () => {
    const ok = newKdfParams(TEST_KDF);
    expect(kdfParamsProblem(ok)).toBeUndefined();
    expect(kdfParamsProblem({ ...ok, n: 512 })).toMatch(/power of two between 2\^10 and 2\^20/);
    expect(kdfParamsProblem({ ...ok, n: 3000 })).toMatch(/power of two/);
    expect(kdfParamsProblem({ ...ok, n: 2 ** 21 })).toMatch(/power of two/);
    expect(kdfParamsProblem({ ...ok, r: 0 })).toMatch(/scrypt r/);
    expect(kdfParamsProblem({ ...ok, p: 17 })).toMatch(/scrypt p/);
    expect(kdfParamsProblem({ ...ok, n: 2 ** 20, r: 32 })).toMatch(/256 MiB/);
    expect(kdfParamsProblem({ ...ok, dk_len: 16 })).toMatch(/dk_len/);
    expect(kdfParamsProblem({ ...ok, salt: "AB".repeat(32) })).toMatch(/salt/);
    expect(kdfParamsProblem({ ...ok, algorithm: "argon2id" as "scrypt" })).toMatch(/only scrypt/);
    expect(() => newKdfParams({ n: 100, r: 8, p: 1 })).toThrow(RangeError);
  });

  test("derivation is deterministic and changes with passphrase, salt and cost", async () => {
    const p = newKdfParams(TEST_KDF);
    const k = hex(await derivePassphraseKey("pw", p));
    expect(k).toMatch(/^[0-9a-f]{64}$/);
    expect(hex(await derivePassphraseKey("pw", p))).toBe(k);
    expect(hex(await derivePassphraseKey("pW", p))).not.toBe(k);
    expect(hex(await derivePassphraseKey("pw", newKdfParams(TEST_KDF)))).not.toBe(k);
    expect(hex(await derivePassphraseKey("pw", { ...p, n: 2048 }))).not.toBe(k);
  });

  test("node:crypto's scrypt equals @noble/hashes' (NFC-normalized UTF-8 passphrase)", async () => {
    for (const [pw, cost] of [
      ["pw", TEST_KDF],
      ["e\u0301 ünïcödé 口令", { n: 1024, r: 4, p: 3 }],
      ["", { n: 2048, r: 1, p: 1 }],
    ] as const) {
      const params = newKdfParams(cost);
      const expected = scrypt(pw.normalize("NFC"), Buffer.from(params.salt, "hex"), { N: params.n, r: params.r, p: params.p, dkLen: 32 });
      const got = await derivePassphraseKey(pw, params);
      expect(got.constructor).toBe(Uint8Array);
      expect(hex(got)).toBe(hex(expected));
    }
  });
});
