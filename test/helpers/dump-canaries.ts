/**
 * Canary search in a database dump (issue 34: "a database dump searched for canary values of every private class:
 * none"). `pg_dump` writes text columns as they are and bytea columns as `\x` + lower-case hex, so each canary is
 * searched in the forms it could take there, case-insensitively:
 * - the text itself, JSON-escaped, URL-encoded, and its compact form (capsules/guard/forms.ts: letters and digits
 *   only, folded) when that is distinctive;
 * - its UTF-8 and UTF-16LE bytes as hex (inside a bytea column);
 * - its UTF-8 bytes in base64 and base64url, at each of the three byte alignments (the stable inner part), as text
 *   and as hex (base64 text inside a bytea column);
 * - for a hex value (a message hash, a pseudonym, a key), its windows of HEX_WINDOW digits (the guard's window).
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
  // A hex value: its windows of HEX_WINDOW digits at every HEX_WINDOW-th digit (any copy of 2 * HEX_WINDOW - 1
  // or more of its digits holds one of them whole).
  const hex = canary.replace(/^0x/i, "");
  if (/^[0-9a-f]+$/i.test(hex) && hex.length >= 2 * HEX_WINDOW) {
    for (let i = 0; i + HEX_WINDOW <= hex.length; i += HEX_WINDOW) add(hex.slice(i, i + HEX_WINDOW), `hex window at ${i}`);
  }
  return forms;
}

const K = MIN_FORM;
const B = 0x01000193;
/** B^(K-1) mod 2^32, to drop the character leaving the window. */
const B_TOP = (() => {
  let x = 1;
  for (let i = 0; i < K - 1; i++) x = Math.imul(x, B);
  return x >>> 0;
})();

function prefixHash(s: Uint8Array): number {
  let h = 0;
  for (let i = 0; i < K; i++) h = (Math.imul(h, B) + s[i]) >>> 0;
  return h;
}

/**
 * Which of `forms` (each at least K bytes in UTF-8) occur in `text`: one pass with a rolling hash of every K-byte
 * window of its UTF-8 bytes, looked up among the forms' first K bytes (a bit filter first), each hit confirmed by
 * comparing the bytes. A dump of 1,000 sealed capsules is tens of megabytes and thousands of forms are searched:
 * one `includes` per form took minutes.
 */
export function formsIn(text: string, forms: readonly string[]): Set<string> {
  const byPrefix = new Map<number, { form: string; bytes: Buffer }[]>();
  const filter = new Uint8Array(1 << 21); // 2^24 bits
  for (const form of forms) {
    const bytes = Buffer.from(form, "utf8");
    if (bytes.length < K) continue;
    const h = prefixHash(bytes);
    const list = byPrefix.get(h);
    if (list === undefined) byPrefix.set(h, [{ form, bytes }]);
    else list.push({ form, bytes });
    filter[h >>> 11] |= 1 << ((h >>> 8) & 7);
  }
  const found = new Set<string>();
  const hay = Buffer.from(text, "utf8");
  if (hay.length < K) return found;
  let h = prefixHash(hay);
  for (let i = 0; ; i++) {
    if ((filter[h >>> 11] & (1 << ((h >>> 8) & 7))) !== 0) {
      for (const f of byPrefix.get(h) ?? []) {
        if (!found.has(f.form) && i + f.bytes.length <= hay.length && hay.compare(f.bytes, 0, f.bytes.length, i, i + f.bytes.length) === 0) found.add(f.form);
      }
    }
    if (i + K >= hay.length) return found;
    h = (Math.imul((h - Math.imul(hay[i], B_TOP)) >>> 0, B) + hay[i + K]) >>> 0;
  }
}

/** A bytea value in a dump (`\x` + hex; COPY doubles the backslash). */
const BYTEA = /\\\\?x[0-9a-f]+/g;

/**
 * Which canaries `dump` contains, in which form: `"<canary name>: <form label>"` (the first form found), empty when
 * none. Compact forms are searched in the compact form of the dump's text outside bytea values; inside bytea values
 * the compact form's UTF-8 hex is searched with the other hex forms.
 */
export function canariesIn(dump: string, canaries: Readonly<Record<string, string>>): string[] {
  const haystack = dump.toLowerCase();
  const compactHaystack = compactForm(dump.replace(BYTEA, " "));
  const all = Object.entries(canaries).map(([name, value]) => {
    const forms = dumpForms(value);
    const compact = forms.find((f) => f.label === "compact form");
    if (compact !== undefined) forms.push({ form: Buffer.from(compact.form, "utf8").toString("hex"), label: "compact form as UTF-8 hex" });
    return { name, forms };
  });
  const inDump = formsIn(haystack, all.flatMap((c) => c.forms.filter((f) => f.label !== "compact form").map((f) => f.form)));
  const inCompact = formsIn(compactHaystack, all.flatMap((c) => c.forms.filter((f) => f.label === "compact form").map((f) => f.form)));
  const found: string[] = [];
  for (const c of all) {
    const hit = c.forms.find((f) => (f.label === "compact form" ? inCompact : inDump).has(f.form));
    if (hit !== undefined) found.push(`${c.name}: ${hit.label}`);
  }
  return found;
}
