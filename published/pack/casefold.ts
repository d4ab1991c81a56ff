/**
 * Unicode full case folding (CaseFolding.txt statuses C and F), as Python's `str.casefold()` (assessment-v1 §4.1).
 *
 * For every code point, full folding equals "full uppercase, then full lowercase" (the unconditional mappings of
 * UnicodeData + SpecialCasing, which is what JS `toUpperCase`/`toLowerCase` apply), except:
 * - U+0131 `ı` folds to itself (its uppercase `I` would lower to `i`);
 * - U+1E9E `ẞ` folds to `ss` (lowercasing gives `ß`);
 * - Cherokee folds to the **uppercase** letters: U+13F8–13FD → U+13F0–13F5 and U+AB70–ABBF → U+13A0–13EF, while
 *   U+13A0–13F5 fold to themselves;
 * - lowercasing a whole string applies the context-dependent Final_Sigma rule (`Σ` → `ς`); folding maps every
 *   sigma to `σ`, so `ς` is replaced afterwards.
 * Runs of ordinary characters are folded in one string operation (neither rule depends on context otherwise).
 * The exhaustive comparison with CPython 3.11 (Unicode 14.0) over all code points differs only for characters
 * assigned after Unicode 14.0 (Node's ICU is newer); those are documented, not patched.
 */

function foldSpecial(cp: number): string | undefined {
  if (cp === 0x0131) return "\u0131";
  if (cp === 0x1e9e || cp === 0x00df) return "ss";
  if (cp >= 0x13a0 && cp <= 0x13f5) return String.fromCodePoint(cp);
  if (cp >= 0x13f8 && cp <= 0x13fd) return String.fromCodePoint(cp - 8);
  if (cp >= 0xab70 && cp <= 0xabbf) return String.fromCodePoint(cp - 0xab70 + 0x13a0);
  return undefined;
}

function isSpecial(cp: number): boolean {
  return cp === 0x0131 || cp === 0x1e9e || cp === 0x00df || (cp >= 0x13a0 && cp <= 0x13fd) || (cp >= 0xab70 && cp <= 0xabbf);
}

function foldRun(run: string): string {
  const lowered = run.toUpperCase().toLowerCase();
  return lowered.includes("\u03c2") ? lowered.replace(/\u03c2/g, "\u03c3") : lowered;
}

/** Python `str.casefold()`. */
export function caseFold(s: string): string {
  let ascii = true;
  for (let i = 0; i < s.length; i++) {
    if (s.charCodeAt(i) >= 0x80) {
      ascii = false;
      break;
    }
  }
  if (ascii) return s.toLowerCase();
  let out = "";
  let runStart = 0;
  for (let i = 0; i < s.length; ) {
    const cp = s.codePointAt(i) as number;
    const width = cp > 0xffff ? 2 : 1;
    if (isSpecial(cp)) {
      if (i > runStart) out += foldRun(s.slice(runStart, i));
      out += foldSpecial(cp) as string;
      runStart = i + width;
    }
    i += width;
  }
  if (runStart < s.length) out += foldRun(s.slice(runStart));
  return out;
}
