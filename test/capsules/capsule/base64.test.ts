/** Strict base64 decoding (capsule-v1 §8.4.1, D1, D2) against Node's decoder for valid input. */
import fc from "fast-check";
import { describe, expect, test } from "vitest";
import { Base64Error, decodeBase64Exact, decodeBase64Strict } from "../../../capsules/capsule/base64.js";

const detail = (s: string) => {
  try {
    decodeBase64Strict(s);
    return "";
  } catch (e) {
    expect(e).toBeInstanceOf(Base64Error);
    return (e as Error).message;
  }
};

describe("decodeBase64Strict", () => {
  test("canonical encodings of random bytes round-trip", () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 64 }), (bytes) => {
        const b64 = Buffer.from(bytes).toString("base64");
        expect(Buffer.from(decodeBase64Strict(b64))).toEqual(Buffer.from(bytes));
      }),
      { numRuns: 2_000 },
    );
  });

  test("known values", () => {
    expect(Buffer.from(decodeBase64Strict("")).length).toBe(0);
    expect(Buffer.from(decodeBase64Strict("QQ==")).toString()).toBe("A");
    expect(Buffer.from(decodeBase64Strict("QUI=")).toString()).toBe("AB");
    expect(Buffer.from(decodeBase64Strict("QUJD")).toString()).toBe("ABC");
    expect(Buffer.from(decodeBase64Strict("+/+/")).toString("hex")).toBe("fbffbf");
  });

  test.each([
    ["!!!!", "Only base64 data is allowed"],
    ["A B=", "Only base64 data is allowed"],
    ["QQ\n==", "Only base64 data is allowed"],
    ["QQ-_", "Only base64 data is allowed"],
    ["QQ", "Incorrect padding"],
    ["QQ=", "Incorrect padding"],
    ["QUJ", "Incorrect padding"],
    ["Q", "Invalid base64-encoded string: number of data characters (1) cannot be 1 more than a multiple of 4"],
    ["QUJDR", "Invalid base64-encoded string: number of data characters (5) cannot be 1 more than a multiple of 4"],
    ["Q=", "Invalid base64-encoded string: number of data characters (1) cannot be 1 more than a multiple of 4"],
    ["QQ==Q", "Excess data after padding"],
    ["QQ===", "Excess data after padding"],
    ["QQ==\n", "Excess data after padding"],
    ["QUJD=QUJD", "Discontinuous padding not allowed"],
    ["QQ=A", "Discontinuous padding not allowed"],
    ["=QQQ", "Leading padding not allowed"],
    ["é", "string argument should contain only ASCII characters"],
    ["QQ==\u{1F600}", "string argument should contain only ASCII characters"],
    ["QR==", "Non-zero padding bits"],
    ["QUJ=", "Non-zero padding bits"],
    ["QUJD=", "Excess padding after a complete quantum"],
    ["QUJD==", "Excess padding after a complete quantum"],
    ["QUJD===", "Excess padding after a complete quantum"],
  ])("%j → %s", (s, message) => {
    expect(detail(s)).toBe(message);
  });

  test("any non-canonical final quantum is rejected (D1): every accepted string is Node's canonical encoding", () => {
    fc.assert(
      fc.property(fc.stringMatching(/^[A-Za-z0-9+/]{0,8}={0,3}$/), (s) => {
        if (detail(s) === "") expect(Buffer.from(decodeBase64Strict(s)).toString("base64")).toBe(s);
      }),
      { numRuns: 3_000 },
    );
  });
});

describe("fast path agrees with the exact decoder", () => {
  const outcome = (f: () => Uint8Array): string => {
    try {
      return `ok:${Buffer.from(f()).toString("hex")}`;
    } catch (e) {
      return `err:${(e as Error).message}`;
    }
  };
  test("on every short string over the alphabet, padding and a few strays", () => {
    fc.assert(
      fc.property(fc.stringMatching(/^[A-Za-z0-9+/=\-_ é]{0,12}$/), (s) => {
        expect(outcome(() => decodeBase64Strict(s))).toBe(outcome(() => decodeBase64Exact(s)));
      }),
      { numRuns: 20_000 },
    );
  });
  test("on canonical encodings of random bytes", () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 300 }), (bytes) => {
        const s = Buffer.from(bytes).toString("base64");
        expect(outcome(() => decodeBase64Strict(s))).toBe(outcome(() => decodeBase64Exact(s)));
      }),
      { numRuns: 2_000 },
    );
  });
});
