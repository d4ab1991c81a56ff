/**
 * The one call every export format and token file makes before its bytes leave: the outward guard over the whole
 * output, against the private values of the store's capsules. Kept to one function so the guard behind it can be
 * replaced in one line.
 *
 * The bytes are searched twice: as text (every byte exactly as written), and, for JSON output, as the decoded
 * value (so an escaped form such as `\u0040` is searched as the character it stands for).
 */
import { guardCandidate, type PrivateValues } from "../candidates/leak-guard.js";

export interface GuardExportOptions {
  /** Also search the decoded JSON value of the bytes. */
  json?: boolean;
  /** Names the output in the reason (`the STIX bundle`). */
  what: string;
}

/** Undefined when `bytes` carry no private value, else the reason (kinds and places, never a value). */
export function guardExport(bytes: Uint8Array, secrets: readonly PrivateValues[], opts: GuardExportOptions): string | undefined {
  let text: string;
  try {
    text = new TextDecoder("utf-8", { fatal: true }).decode(bytes);
  } catch {
    return `outward guard: ${opts.what} is not UTF-8 text, so it cannot be checked`;
  }
  const merged: PrivateValues = { needles: secrets.flatMap((s) => s.needles) };
  const subject: unknown[] = [text];
  if (opts.json === true) {
    try {
      subject.push(JSON.parse(text));
    } catch {
      return `outward guard: ${opts.what} is not JSON, so it cannot be checked as JSON`;
    }
  }
  const verdict = guardCandidate(subject, merged);
  return verdict.ok ? undefined : verdict.reason.replace(/(in |of )candidate(?=[.[;]|$)/g, `$1${opts.what}`);
}
