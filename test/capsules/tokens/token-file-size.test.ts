/**
 * Token files of large stores (issue 33 item 4): a kind may hold far more than the 512 items the capsule format
 * bounds an array to. The file is still exactly the canonical JSON of its document, and it reads back.
 */
import { randomBytes } from "node:crypto";
import { describe, expect, test } from "vitest";
import { CANONICALIZATION } from "../../../capsules/tokens/canonical.js";
import { MAX_TOKENS_PER_KIND, parseTokenFile, TOKEN_ALGORITHM, TOKEN_FILE_NAME, tokenFileBytes, TokenFileError, type TokenFile } from "../../../capsules/tokens/token-file.js";
import type { IocKind } from "../../../published/pack/vocabulary.js";
import { canonicalBytes } from "../../../src/json/canonical.js";

const tokens = (n: number) => new Set(Array.from({ length: n }, () => randomBytes(32).toString("hex")));
const file = (lists: [IocKind, number][]): TokenFile => ({ keyId: `gk1:${"ab".repeat(16)}`, generatedAt: 1763900000, tokens: new Map(lists.map(([k, n]) => [k, tokens(n)])) });

describe("tokenFileBytes", () => {
  test("is the canonical writer's output of the whole document (kinds in code-point order, lists sorted) + LF", () => {
    const f = file([["wallets", 3], ["emails", 2], ["handles", 5]]);
    const bytes = tokenFileBytes(f);
    const doc = JSON.parse(new TextDecoder().decode(bytes)) as Record<string, unknown>;
    expect(doc.name).toBe(TOKEN_FILE_NAME);
    expect(doc.algorithm).toBe(TOKEN_ALGORITHM);
    expect(doc["canonicalization-format"]).toBe(CANONICALIZATION);
    const expected = Buffer.concat([Buffer.from(canonicalBytes(doc, "token file")), Buffer.from("\n")]);
    expect(Buffer.from(bytes).equals(expected)).toBe(true);
    expect(Object.keys(doc.tokens as object)).toEqual(["emails", "handles", "wallets"]);
    expect((doc.tokens as Record<string, string[]>).handles).toEqual([...f.tokens.get("handles")!].sort());
  });

  test("a kind with 5,000 tokens is written and read back (more than the capsule format's 512 items)", () => {
    const f = file([["handles", 5000], ["phones", 600]]);
    const back = parseTokenFile(tokenFileBytes(f));
    expect(back.keyId).toBe(f.keyId);
    expect([...back.tokens.get("handles")!].sort()).toEqual([...f.tokens.get("handles")!].sort());
    expect(back.tokens.get("phones")!.size).toBe(600);
  });

  test("a token that is not 64 lowercase hex digits is refused, never written", () => {
    const f = file([["urls", 2]]);
    f.tokens.get("urls")!.add(`${"A".repeat(64)}`);
    expect(() => tokenFileBytes(f)).toThrow(TokenFileError);
    f.tokens.get("urls")!.delete("A".repeat(64));
    f.tokens.get("urls")!.add('0","x');
    expect(() => tokenFileBytes(f)).toThrow(/64 lowercase hexadecimal digits/);
  });

  test("reading bounds a kind's list by MAX_TOKENS_PER_KIND (short items, so the byte bound does not come first)", () => {
    expect(MAX_TOKENS_PER_KIND).toBeGreaterThan(512);
    const text = new TextDecoder().decode(tokenFileBytes(file([["emails", 1]])));
    const big = text.replace(/"emails":\["[0-9a-f]{64}"\]/, `"emails":[${Array.from({ length: MAX_TOKENS_PER_KIND + 1 }, () => '"0"').join(",")}]`);
    expect(() => parseTokenFile(new TextEncoder().encode(big))).toThrow(/exceeds/);
  });
});
