/**
 * guardExport's `isPublicString` (capsules/exports/guard-export.ts): strings public by construction (a token file's
 * HMAC tokens) are not searched, in the text or in the decoded value; every other byte still is. Without it, a
 * hex token holding a phone's local digits by chance refused the token file of a store of 1,000 capsules.
 */
import { describe, expect, test } from "vitest";
import { guardExport } from "../../../capsules/exports/guard-export.js";
import { OutwardGuard } from "../../../capsules/guard/outward-guard.js";

const PHONE = "+91 98765 00244";
// A 64-digit hex token that holds the phone's local digits (6500244) inside a digit run, as HMAC outputs do by chance.
const TOKEN = "e2064be2c27052ab1616500244c0e52e63234d4aa0b1c2d3e4f5a6b7c8d9e0f1";
const guard = () => new OutwardGuard([{ kind: "ioc_value", ioc: "phones", value: PHONE }]);
const bytes = (doc: unknown) => new TextEncoder().encode(JSON.stringify(doc));
const isToken = (s: string) => s === TOKEN;

describe("guardExport isPublicString", () => {
  test("the chance digit run of a hex token is a hit without the option", () => {
    expect(TOKEN).toMatch(/^[0-9a-f]{64}$/);
    expect(guardExport(bytes({ tokens: [TOKEN] }), guard(), { json: true, what: "the token file" })).toMatch(/ioc_value in the token file/);
  });

  test("a public string is searched neither in the text nor in the value", () => {
    expect(guardExport(bytes({ tokens: [TOKEN, TOKEN] }), guard(), { json: true, what: "the token file", isPublicString: isToken })).toBeUndefined();
  });

  test("everything else is still searched: the phone in another member, or beside a public string, is refused", () => {
    expect(guardExport(bytes({ tokens: [TOKEN], note: `call ${PHONE}` }), guard(), { json: true, what: "the token file", isPublicString: isToken })).toMatch(/ioc_value/);
    // A string that merely contains the public one is not public.
    expect(guardExport(bytes({ tokens: [`${TOKEN}x`] }), guard(), { json: true, what: "the token file", isPublicString: isToken })).toMatch(/ioc_value/);
    // The same digits escaped in the text are found in the decoded value.
    const escaped = new TextEncoder().encode(`{"tokens":["${TOKEN}"],"n":"\\u0036500244 98765 91"}`);
    expect(guardExport(escaped, guard(), { json: true, what: "the token file", isPublicString: isToken })).toMatch(/ioc_value/);
  });
});
