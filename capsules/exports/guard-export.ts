/**
 * The one call every export format and token file makes before its bytes leave: the outward guard over the whole
 * output, against the private values of the store's capsules (capsules/guard: every form it knows).
 *
 * The bytes are searched twice: as text (every byte exactly as written), and, for JSON output, as the decoded
 * value (so an escaped form such as `\u0040` is searched as the character it stands for).
 */
import type { OutwardGuard } from "../guard/outward-guard.js";

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
  const subject: unknown[] = [text];
  if (opts.json === true) {
    try {
      subject.push(JSON.parse(text));
    } catch {
      return `outward guard: ${opts.what} is not JSON, so it cannot be checked as JSON`;
    }
  }
  const verdict = guard.check(subject, opts.what);
  return verdict.ok ? undefined : `outward guard: ${verdict.reason}`;
}
