/**
 * E-mail addresses in the form their mailbox reads them (docs/guard.md "E-mail aliases"): one address written with a
 * provider's aliases reaches the same mailbox, so the guard compares the canonical form. The provider rules (Gmail
 * ignores dots and `+tag` and treats googlemail.com as gmail.com; Outlook.com and iCloud drop `+tag`, Yahoo `-tag`;
 * Yandex's domains are one) are those of the maintained `validator` package (`normalizeEmail`), never a table of
 * ours; a `+tag` sub-address (RFC 5233) is dropped for every other domain too.
 */
import normalizeEmailModule from "validator/lib/normalizeEmail.js";

type NormalizeEmail = (email: string) => string | false;
// The package is CommonJS with the function as `exports.default`; imported from ESM or bundled, either shape.
const normalizeEmail: NormalizeEmail =
  typeof normalizeEmailModule === "function" ? (normalizeEmailModule as NormalizeEmail) : (normalizeEmailModule as unknown as { default: NormalizeEmail }).default;

/** An address in text: a local part, `@`, and a domain of two or more labels. */
const EMAIL = /[\p{L}\p{N}_.%+\-]+@[\p{L}\p{N}_\-]+(?:\.[\p{L}\p{N}_\-]+)+/gu;

/** The canonical form of one address (lower case, provider aliases and sub-address removed). */
export function canonicalEmail(address: string): string {
  const n = normalizeEmail(address);
  const out = typeof n === "string" && n !== "" ? n : address.toLowerCase();
  const at = out.lastIndexOf("@");
  if (at <= 0) return out;
  const plus = out.indexOf("+");
  return plus > 0 && plus < at ? out.slice(0, plus) + out.slice(at) : out;
}

/** `text` with every address in it written in its canonical form; undefined when that changes nothing. */
export function canonicalEmails(text: string): string | undefined {
  if (!text.includes("@")) return undefined;
  const out = text.replace(EMAIL, (m) => canonicalEmail(m));
  return out === text ? undefined : out;
}
