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
}

/** Undefined when `bytes` carry no private value, else the reason (kinds and places, never a value). */
export function guardExport(bytes: Uint8Array, guard: OutwardGuard, opts: GuardExportOptions): string | undefined {
  let text: string;
  try {
    text = new TextDecoder("utf-8", { fatal: true }).decode(bytes);
  } catch {
    return `outward guard: ${opts.what} is not UTF-8 text, so it cannot be checked`;
  }
  const verdicts = [guard.check(text, opts.what)];
  if (opts.json === true) {
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch {
      return `outward guard: ${opts.what} is not JSON, so it cannot be checked as JSON`;
    }
    verdicts.push(guard.check(value, opts.what));
  }
  // The text and the decoded value name the same places; each place is reported once.
  const hits = verdicts.flatMap((v) => (v.ok ? [] : v.hits));
  return hits.length === 0 ? undefined : `leak guard: ${summarizeHits(hits)}`;
}
