/**
 * The regions a message's phone numbers written without a country code are read in (docs/assess.md "Phone
 * regions"), in order:
 *
 * 1. the judgement's `region`, when it names one: then only that region;
 * 2. countries the message names (`Россия`, `Indonesia`, `台灣`, `مصر`…), in order of first mention: every region
 *    libphonenumber-js has metadata for, by its name in the languages of Intl.DisplayNames (English, Hindi,
 *    Chinese simplified and traditional, Russian, Thai, Vietnamese, Indonesian, Arabic);
 * 3. the regions of the message's scripts: for each script written in the message, the regions whose likely script
 *    is that one (CLDR likely subtags through `Intl.Locale.maximize()`: Cyrillic → RU first, then BY, KZ, UA…;
 *    Arabic → EG first, then AE, SA…; Han → CN, HK, MO, TW; Thai → TH; Devanagari → IN…), the script's own region
 *    first; Latin text with Vietnamese letters counts as Vietnamese (VN);
 * 4. India (`IN`), the default of the bridge's users.
 *
 * Nothing here is a hand-typed table: country names, likely scripts and regions come from the platform's Unicode
 * data (ICU) and from libphonenumber-js's list of regions. Computed once, on first use.
 */
import { getCountries, type CountryCode } from "libphonenumber-js/max";

/** Region assumed for phone numbers written without a country code when nothing in the message names one. */
export const DEFAULT_PHONE_REGION: CountryCode = "IN";

/** The regions a judgement's `region` may name: every region libphonenumber-js has metadata for, sorted. */
export const PHONE_REGIONS: readonly CountryCode[] = [...getCountries()].sort();

const NAME_LANGUAGES = ["en", "hi", "zh-Hans", "zh-Hant", "ru", "th", "vi", "id", "ar"];

/** Unicode script codes (`\p{Script=…}`) for CLDR's script subtags where they differ. */
const SCRIPT_OF_SUBTAG: Readonly<Record<string, string>> = { Hans: "Han", Hant: "Han", Jpan: "Hiragana", Kore: "Hangul" };

interface Tables {
  /** Country names (lower case; a Cyrillic one as its stem, its last letter dropped) by their first two characters. */
  names: Map<string, { name: string; region: CountryCode; cyrillic: boolean; upper: boolean }[]>;
  /** Per script: its test and its regions (the script's own first). */
  scripts: { test: RegExp; regions: CountryCode[] }[];
  vietnamese: CountryCode;
}

let tables: Tables | undefined;

const CYRILLIC_END = /[\u0400-\u04ff]$/;
const isCyrillic = (c: number): boolean => c >= 0x400 && c <= 0x4ff;
/** A letter of a script that writes spaces between words and whose country names are matched as words. */
const isWordLetter = (c: number): boolean => (c >= 0x61 && c <= 0x7a) || (c >= 0x41 && c <= 0x5a) || (c >= 0xc0 && c <= 0x24f && c !== 0xd7 && c !== 0xf7) || isCyrillic(c) || (c >= 0x1e00 && c <= 0x1eff);

function build(): Tables {
  const names: Tables["names"] = new Map();
  const seen = new Set<string>();
  for (const lang of NAME_LANGUAGES) for (const style of ["long", "short"] as const) {
    const display = new Intl.DisplayNames([lang], { type: "region", style, fallback: "none" });
    for (const region of PHONE_REGIONS) {
      const written = display.of(region);
      const full = written?.toLowerCase();
      if (written === undefined || full === undefined || full.length < 2 || seen.has(full)) continue;
      seen.add(full);
      // An abbreviation (`UK`, `US`) counts only in capitals: `us` is a word.
      const upper = /^[A-Z]{2,3}$/.test(written);
      // A Cyrillic name is matched by its stem and any one-letter ending: Россия, России, Россию.
      const cyrillic = CYRILLIC_END.test(full) && full.length > 4;
      const name = cyrillic ? full.slice(0, -1) : full;
      const bucket = names.get(name.slice(0, 2)) ?? [];
      bucket.push({ name: upper ? written : name, region, cyrillic, upper });
      names.set(name.slice(0, 2), bucket);
    }
  }
  // Longest first in each bucket (so `papua new guinea` wins over `papua`… and `guinea` is not read inside it).
  for (const bucket of names.values()) bucket.sort((x, y) => y.name.length - x.name.length);

  const scriptRegions = new Map<string, CountryCode[]>();
  for (const region of PHONE_REGIONS) {
    let script: string | undefined;
    try {
      script = new Intl.Locale(`und-${region}`).maximize().script;
    } catch {
      continue;
    }
    if (script === undefined || script === "Latn") continue;
    const list = scriptRegions.get(script) ?? [];
    list.push(region);
    scriptRegions.set(script, list);
  }
  const scripts: Tables["scripts"] = [];
  const merged = new Map<string, CountryCode[]>();
  for (const [subtag, regions] of scriptRegions) {
    const own = new Intl.Locale(`und-${subtag}`).maximize().region as CountryCode | undefined;
    const ordered = own !== undefined && regions.includes(own) ? [own, ...regions.filter((r) => r !== own)] : regions;
    const unicode = SCRIPT_OF_SUBTAG[subtag] ?? subtag;
    merged.set(unicode, [...(merged.get(unicode) ?? []), ...ordered.filter((r) => !(merged.get(unicode) ?? []).includes(r))]);
  }
  for (const [unicode, regions] of merged) {
    let test: RegExp;
    try {
      test = unicode === "Hiragana" ? /[\p{Script=Hiragana}\p{Script=Katakana}]/u : new RegExp(`\\p{Script=${unicode}}`, "u");
    } catch {
      continue; // a script subtag the regular expressions do not know
    }
    scripts.push({ test, regions });
  }
  return { names, scripts, vietnamese: (new Intl.Locale("vi").maximize().region ?? "VN") as CountryCode };
}

/** Letters only Vietnamese writes among the Latin-script languages (ơ ư đ and the tone-marked vowels of U+1EA0–1EF9). */
const VIETNAMESE_LETTERS = /[ơưđƠƯĐ\u1ea0-\u1ef9]/u;

/** The regions of {@link module} for `message`: `override` alone when given, else inferred, ending with IN. */
export function phoneRegions(message: string, override?: CountryCode): CountryCode[] {
  if (override !== undefined) return [override];
  tables ??= build();
  const out: CountryCode[] = [];
  const add = (r: CountryCode) => {
    if (!out.includes(r)) out.push(r);
  };
  const lower = message.toLowerCase();
  for (let i = 0; i + 1 < lower.length; i++) {
    // Latin and Cyrillic names are whole words (checked cheaply first: most positions are inside a word); names in
    // other scripts may be glued to the text around them.
    if (i > 0 && isWordLetter(lower.charCodeAt(i - 1)) && isWordLetter(lower.charCodeAt(i))) continue;
    const bucket = tables.names.get(lower.slice(i, i + 2));
    if (bucket === undefined) continue;
    for (const n of bucket) {
      if (!(n.upper ? message : lower).startsWith(n.name, i)) continue;
      let end = i + n.name.length;
      if (n.cyrillic && end < lower.length && isCyrillic(lower.charCodeAt(end))) end++;
      if (end < lower.length && isWordLetter(lower.charCodeAt(end - 1)) && isWordLetter(lower.charCodeAt(end))) continue;
      add(n.region);
      i = end - 1;
      break;
    }
  }
  // The scripts are tested on the message's distinct non-ASCII characters (few, even in a long message).
  const distinct = new Set<string>();
  for (const ch of message) if (ch.charCodeAt(0) >= 0x80) distinct.add(ch);
  const others = [...distinct].join("");
  if (others !== "") {
    for (const s of tables.scripts) if (s.test.test(others)) s.regions.forEach(add);
    if (VIETNAMESE_LETTERS.test(others)) add(tables.vietnamese);
  }
  add(DEFAULT_PHONE_REGION);
  return out;
}
