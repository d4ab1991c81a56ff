/**
 * Defanged links and e-mail addresses (`hxxps://evil[.]example/x`, `ops[at]desk[.]example`, `t[.]me/name`): where
 * their defanging marks are and what they stand for. Pure functions on strings; one set of rules for every user:
 * the IOC extraction finds links in a view of the message with these marks undone (and records them as written),
 * client IOCs are located the same way, and match tokens canonicalise a value refanged.
 *
 * The marks undone (ASCII case ignored, spaces allowed inside the brackets):
 * - `hxxp`, `hXXp`, `h**p` as a scheme (followed by `s`, `:` or `[:`) → `http`;
 * - `[.]`, `(.)`, `{.}`, `[dot]`, `(dot)`, `{dot}` → `.` (the word forms may have one space on each side);
 * - `[@]`, `(@)`, `{@}`, `[at]`, `(at)`, `{at}` → `@` (with one optional space on each side);
 * - `[:]` → `:`, `[://]` → `://`, `[/]` → `/`.
 *
 * Unbracketed words (`ops at desk dot example`) are not undone: `meet at home dot` is ordinary prose.
 */

/** One defanging mark: `text.slice(start, end)` stands for `to`. */
export interface DefangMark {
  start: number;
  end: number;
  to: string;
}

const MARKS =
  /h(?:xx|\*\*)p(?=s?(?::|\[:))|[[({]\s*\.\s*[\])}]| ?[[({]\s*dot\s*[\])}] ?| ?[[({]\s*(?:@|at)\s*[\])}] ?|\[:\/\/\]|\[:\]|\[\/\]/gi;

/** Fast pre-check: no bracket and no `hxxp`/`h**p` means nothing to undo. */
const MAY_HAVE_MARKS = /[[({]|h(?:xx|\*\*)p/i;

function meaning(mark: string): string {
  const m = mark.toLowerCase();
  if (m.startsWith("h")) return "http";
  if (m.includes("://")) return "://";
  if (m.includes(":")) return ":";
  if (m.includes("/")) return "/";
  if (m.includes("@") || m.includes("at")) return "@";
  return ".";
}

/** The defanging marks of `text`, in order, not overlapping. */
export function defangMarks(text: string): DefangMark[] {
  if (!MAY_HAVE_MARKS.test(text)) return [];
  const out: DefangMark[] = [];
  MARKS.lastIndex = 0;
  for (let m = MARKS.exec(text); m !== null; m = MARKS.exec(text)) {
    out.push({ start: m.index, end: m.index + m[0].length, to: meaning(m[0]) });
  }
  return out;
}

/** `value` with its defanging marks undone (`hxxps://evil[.]example` → `https://evil.example`); the same string when it has none. */
export function refang(value: string): string {
  const marks = defangMarks(value);
  if (marks.length === 0) return value;
  let out = "";
  let at = 0;
  for (const m of marks) {
    out += value.slice(at, m.start) + m.to;
    at = m.end;
  }
  return out + value.slice(at);
}
