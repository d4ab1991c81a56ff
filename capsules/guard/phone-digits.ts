/**
 * The digits of a private phone value and its national significant number, as the outward guard searches them
 * (value-forms.ts): the national number comes from libphonenumber-js, and is a form of its own only when it is not a
 * run of the digits as written.
 *
 * Reading a number costs the library about 9 µs, most of a guard's work on a capsule with two phones. For a
 * number written with ASCII digits and separators only, the library takes the country calling code from the front
 * of the digits and then only strips a national prefix, so the national number is the end of the digits, unless
 * the country has a `national_prefix_transform_rule` in the library's metadata (which can insert digits: +1 340 …
 * for the US Virgin Islands). Those calling codes are read from the metadata on first use; a number of any other
 * calling code is not parsed. Anything else (letters, other scripts, a plus inside the value, an unknown or
 * non-geographic calling code, or metadata that does not say) is parsed as before.
 */
import { getCountries, getCountryCallingCode, Metadata, parsePhoneNumberFromString } from "libphonenumber-js";
import { asciiDigits } from "./decimal-digits.js";

const NOT_ASCII_DIGIT = /\D/g;
const ASCII_ONLY = /^[\x00-\x7f]*$/;
const ASCII_DIGITS = /\d/g;
/** A plus sign (ASCII or full-width): without one, and without a default country, the library finds no number. */
const PLUS = /[+\uff0b]/;
/** One number written with ASCII digits and separators, a plus sign at most in front. */
const PLAIN_NUMBER = /^\s*\+?[0-9 ().\-/]*$/;
/** Country calling codes are 1 to 3 digits, and no code is the start of another (ITU-T E.164). */
const MAX_CODE_DIGITS = 3;

/** The digits of a value as ASCII digits: full-width ones through NFKD, those of every other script by their value. */
export function phoneDigits(value: string): string {
  // NFKD and other scripts' digits only matter for characters outside ASCII.
  if (ASCII_ONLY.test(value)) return value.replace(NOT_ASCII_DIGIT, "");
  return (asciiDigits(value.normalize("NFKD")).match(ASCII_DIGITS) ?? []).join("");
}

let codes: Set<string> | null | undefined;

/**
 * The geographic calling codes of the library's metadata none of whose countries rewrites national numbers, or
 * null when its numbering plans do not say what they rewrite.
 */
export function plainCallingCodes(): Set<string> | null {
  if (codes !== undefined) return codes;
  try {
    const m = new Metadata();
    const all = new Set<string>();
    const rewriting = new Set<string>();
    for (const country of getCountries()) {
      m.selectNumberingPlan(country);
      // Not in the library's published types: read defensively, and any doubt means "parse every number".
      const plan = m.numberingPlan as unknown as { nationalPrefixTransformRule?: () => string | undefined } | undefined;
      if (typeof plan?.nationalPrefixTransformRule !== "function") throw new Error("no transform rules in the metadata");
      const code = getCountryCallingCode(country);
      all.add(code);
      if (plan.nationalPrefixTransformRule()) rewriting.add(code);
    }
    codes = new Set([...all].filter((c) => !rewriting.has(c)));
  } catch {
    codes = null;
  }
  return codes;
}

/** True when the library's national number for `value` can only be a run of `digits` (so it need not be read). */
export function nationalIsARunOfDigits(value: string, digits: string): boolean {
  if (!PLAIN_NUMBER.test(value)) return false;
  const plain = plainCallingCodes();
  if (plain === null) return false;
  for (let n = 1; n <= MAX_CODE_DIGITS && n <= digits.length; n++) if (plain.has(digits.slice(0, n))) return true;
  return false;
}

/**
 * The national significant number of `value` when it may differ from every run of its digits, else undefined (also
 * when the library reads no number). `digits` is {@link phoneDigits} of `value`.
 */
export function nationalNumberForm(value: string, digits: string): string | undefined {
  if (nationalIsARunOfDigits(value, digits)) return undefined;
  return nationalNumber(value, digits);
}

/** The library's national significant number of `value`, or undefined. */
export function nationalNumber(value: string, digits: string): string | undefined {
  try {
    // Parsing a number the library cannot read costs it an exception; a value without a plus sign is read as
    // its digits with one.
    const p =
      (PLUS.test(value) ? parsePhoneNumberFromString(value) : undefined) ?? (digits.length >= 8 ? parsePhoneNumberFromString(`+${digits}`) : undefined);
    return p?.nationalNumber;
  } catch {
    return undefined;
  }
}
