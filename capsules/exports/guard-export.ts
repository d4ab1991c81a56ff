/**
 * The one call every export format and token file makes before its bytes leave: the outward guard over the whole
 * output, against the private values of the store's capsules (capsules/guard: every form it knows).
 *
 * The bytes are searched twice: as text (every byte exactly as written), and, for JSON output, as the decoded
 * value (so an escaped form such as `\u0040` is searched as the character it stands for).
 */
import { summarizeHits, type OutwardGuard } from "../guard/outward-guard.js";

export interface GuardExportOptions {
  /** Also search the decoded JSON value of the bytes. */
  json?: boolean;
  /** Names the output in the reason (`the STIX bundle`). */
  what: string;
  /**
   * Exact public strings of the loaded pack (its source URLs): never read by the form guard, so no digit–letter
   * folding of `2024` or `0b…` inside them finds a private value there (issue 28 item 7). A JSON string equal to
   * one is not searched; in the text, each occurrence is taken out before the search (what surrounds it still is).
   */
  literals?: ReadonlySet<string>;
  /**
   * Whole JSON strings that are public by construction (a token file's HMAC tokens, each already checked to be 64
   * hexadecimal digits): a JSON string it accepts is not searched, and in the text each such string literal (one
   * written without escapes) is taken out before the search; everything around it still is. Linear in the output,
   * where `literals` costs one pass per literal.
   */
  isPublicString?: (s: string) => boolean;
}

/** A JSON string literal written without escapes. */
const PLAIN_STRING = /"([^"\\]*)"/g;

/** Undefined when `bytes` carry no private value, else the reason (kinds and places, never a value). */
export function guardExport(bytes: Uint8Array, guard: OutwardGuard, opts: GuardExportOptions): string | undefined {
  let text: string;
  try {
    text = new TextDecoder("utf-8", { fatal: true }).decode(bytes);
  } catch {
    return `outward guard: ${opts.what} is not UTF-8 text, so it cannot be checked`;
  }
  const literals = opts.literals ?? new Set<string>();
  let searched = text;
  for (const l of literals) if (l !== "" && searched.includes(l)) searched = searched.split(l).join(" ");
  const publicString = opts.isPublicString;
  if (publicString !== undefined) searched = searched.replace(PLAIN_STRING, (whole, inner: string) => (publicString(inner) ? '" "' : whole));
  const verdicts = [guard.check(searched, opts.what)];
  if (opts.json === true) {
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch {
      return `outward guard: ${opts.what} is not JSON, so it cannot be checked as JSON`;
    }
    verdicts.push(guard.check(value, opts.what, { isPublic: (s) => literals.has(s) || (publicString?.(s) ?? false) }));
  }
  // The text and the decoded value name the same places; each place is reported once.
  const hits = verdicts.flatMap((v) => (v.ok ? [] : v.hits));
  return hits.length === 0 ? undefined : `leak guard: ${summarizeHits(hits)}`;
}
