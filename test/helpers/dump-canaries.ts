/**
 * Canary search in a database dump (issue 34: "a database dump searched for canary values of every private class:
 * none"). `pg_dump` writes text columns as they are and bytea columns as `\x` + lower-case hex, so each canary is
 * searched in the forms it could take there, case-insensitively:
 * - the text itself, JSON-escaped, URL-encoded, and its compact form (capsules/guard/forms.ts: letters and digits
 *   only, folded) when that is distinctive;
 * - its UTF-8 and UTF-16LE bytes as hex (inside a bytea column);
 * - its UTF-8 bytes in base64 and base64url, at each of the three byte alignments (the stable inner part), as text
 *   and as hex (base64 text inside a bytea column);
 * - for a hex value (a message hash, a pseudonym, a key), every window of HEX_WINDOW digits (as the guard matches).
 */
import { compactForm, HEX_WINDOW } from "../../capsules/guard/forms.js";

/** Shorter forms than this are left out (they would turn up in any dump by chance). */
const MIN_FORM = 8;

function base64Inner(bytes: Buffer, url: boolean): string[] {
  const out: string[] = [];
  for (let pad = 0; pad < 3; pad++) {
    const enc = Buffer.concat([Buffer.alloc(pad), bytes]).toString(url ? "base64url" : "base64").replace(/=+$/, "");
    // Characters touched by the padding bytes at the start or by the end of the input are not stable.
    const start = pad === 0 ? 0 : Math.ceil((pad * 4) / 3) + 1;
    const end = enc.length - ((pad + bytes.length) % 3 === 0 ? 0 : 3);
    if (end - start >= MIN_FORM) out.push(enc.slice(start, end));
  }
  return out;
}

/** The forms one canary is searched in (lower case), each with a label for the failure message. */
export function dumpForms(canary: string): { form: string; label: string }[] {
  const utf8 = Buffer.from(canary, "utf8");
  const forms: { form: string; label: string }[] = [];
  const add = (form: string, label: string) => {
    if (form.length >= MIN_FORM) forms.push({ form: form.toLowerCase(), label });
  };
  add(canary, "text");
  add(JSON.stringify(canary).slice(1, -1), "JSON-escaped");
  add(encodeURIComponent(canary), "URL-encoded");
  const compact = compactForm(canary);
  if (compact !== canary.toLowerCase()) add(compact, "compact form");
  add(utf8.toString("hex"), "UTF-8 hex");
  add(Buffer.from(canary, "utf16le").toString("hex"), "UTF-16LE hex");
  for (const url of [false, true]) {
    for (const b of base64Inner(utf8, url)) {
      add(b, url ? "base64url" : "base64");
      add(Buffer.from(b, "latin1").toString("hex"), url ? "base64url as hex" : "base64 as hex");
    }
  }
  const hex = canary.replace(/^0x/i, "");
  if (/^[0-9a-f]+$/i.test(hex) && hex.length >= 2 * HEX_WINDOW) {
    for (let i = 0; i + HEX_WINDOW <= hex.length; i++) add(hex.slice(i, i + HEX_WINDOW), `hex window at ${i}`);
  }
  return forms;
}

/** Which canaries `dump` contains, in which form: `"<canary name>: <form label>"`, empty when none. */
export function canariesIn(dump: string, canaries: Readonly<Record<string, string>>): string[] {
  const haystack = dump.toLowerCase();
  const compactHaystack = compactForm(dump);
  const found: string[] = [];
  for (const [name, value] of Object.entries(canaries)) {
    for (const { form, label } of dumpForms(value)) {
      const where = label === "compact form" ? compactHaystack : haystack;
      if (where.includes(form)) {
        found.push(`${name}: ${label}`);
        break;
      }
    }
  }
  return found;
}
