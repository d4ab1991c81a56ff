/** Message hash and source pseudonym (assessment-v1 §5.1, §5.2). */
import { describe, expect, test } from "vitest";
import { messageSha256, pseudonym } from "../../src/message-hash.js";

describe("messageSha256", () => {
  test("hashes the exact UTF-8 bytes, without normalisation or trimming", () => {
    expect(messageSha256("abc")).toBe("ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
    expect(messageSha256("abc\n")).not.toBe(messageSha256("abc"));
    expect(messageSha256("é")).toBe(messageSha256(new Uint8Array([0xc3, 0xa9])));
    expect(messageSha256("e\u0301")).not.toBe(messageSha256("é"));
  });
});

describe("pseudonym", () => {
  const key = "fixture-only-hmac-key-not-a-production-secret-0001";
  test.each([
    ["telegram-user:5123456789", "4080784d2be288390fbe20ac"],
    ["-1002233445566", "2a03e167de54e6928d11b52f"],
    ["-1001122334455", "bd63752a477439e2ded02847"],
  ])("%s", (raw, expected) => {
    expect(pseudonym(key, raw)).toBe(expected);
  });

  test("is empty when the key or the raw source is empty", () => {
    expect(pseudonym("", "telegram-user:1")).toBe("");
    expect(pseudonym(key, "")).toBe("");
  });
});
