/**
 * What linkify-it reads as a link but a careful reader does not (docs/assess.md "IOC extraction"):
 *
 * - a bare name (no scheme, no `www.`, no path, port, query or fragment) whose first label is one character
 *   (`B.Com`, `b.com`, `a.m`): degree and abbreviation spellings, not sites;
 * - a bare name whose top-level domain is written with capitals while the name is not one shouted word: mixed case
 *   (`B.Com`, `M.Sc`, `Node.Js`, a sentence glued to the next: `update.Now`) or all capitals after a short first
 *   label (`ASP.NET`, `VB.NET`);
 * - a bare name of two labels whose top-level domain is also a usual file extension (`README.md`, `setup.py`,
 *   `run.sh`, `main.rs`, `lib.so`, `main.tf`, `files.zip`): file names.
 *
 * And the label glued before an e-mail address: linkify-it reads `Email:x@…` or `mailto:x@…` as one address (its
 * local part allows `:`, `;` and `,`); the address starts after the last of them.
 */

/** Top-level domains that are also common file extensions (some are no domain today: kept, should they become one). */
const FILE_EXTENSION_TLDS = new Set(["md", "py", "sh", "pl", "rs", "ps", "pm", "mk", "ml", "tf", "so", "zip", "mov", "csv", "pdf", "exe", "apk", "js", "ts"]);

/** False when `raw` (a linkify-it match with schema `schema`) is a bare name of one of the kinds above. */
export function isLinkValue(raw: string, schema: string): boolean {
  if (schema !== "" || /^www\./i.test(raw) || /[/?#:]/.test(raw)) return true;
  const labels = raw.split(".");
  if (labels.length < 2) return true;
  const first = labels[0];
  const tld = labels[labels.length - 1];
  if (first.length === 1) return false;
  if (/[A-Z]/.test(tld) && (tld !== tld.toUpperCase() || first.length <= 3)) return false;
  if (labels.length === 2 && FILE_EXTENSION_TLDS.has(tld.toLowerCase())) return false;
  return true;
}

/** How many characters of an e-mail match are a glued label (`Email:`, `mailto:`): up to its last `:`, `;` or `,` before `@`. */
export function trimEmail(raw: string): number {
  const at = raw.indexOf("@");
  const local = at === -1 ? raw : raw.slice(0, at);
  return Math.max(local.lastIndexOf(":"), local.lastIndexOf(";"), local.lastIndexOf(",")) + 1;
}
