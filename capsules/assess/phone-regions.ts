/**
 * The regions a message's phone numbers written without a country code are read in (docs/assess.md "Phone
 * regions"), in order:
 *
 * 1. the judgement's `region`, when it names one: then only that region;
 * 2. countries the message names (`Россия`, `Indonesia`, `台灣`, `مصر`…), in order of first mention (English names
 *    first, then those of the other languages): every region
 *    libphonenumber-js has metadata for, by its long and short name in the languages of Intl.DisplayNames whose
 *    script the message writes (English always; Vietnamese with Vietnamese letters; Russian with Cyrillic; Chinese
 *    simplified and traditional with Han; Thai; Hindi with Devanagari; Arabic);
 * 3. the regions of the message's scripts: for each non-Latin script written in the message, the regions whose
 *    likely script is that one (CLDR likely subtags through `Intl.Locale.maximize()`: Cyrillic → RU first, then BG,
 *    BY, KG, KZ…; Arabic → EG first, then AE, SA…; Han → CN, HK, MO, TW; Thai → TH; Devanagari → IN…), the script's
 *    own region first; Latin text with Vietnamese letters counts as Vietnamese (VN);
 * 4. India (`IN`), the default of the bridge's users.
 *
 * Nothing here is a hand-typed table: country names, likely scripts and regions come from the platform's Unicode
 * data (ICU) and from libphonenumber-js's list of regions. Loading a language's names costs the process that
 * language's ICU data (milliseconds each), so each table is built on first need: names are read only for a message
 * with a run of seven digits or more not after `+`; a message in Latin script alone reads the English names only,
 * and no script table.
 */
import { getCountries, type CountryCode } from "libphonenumber-js/max";

/** Region assumed for phone numbers written without a country code when nothing in the message names one. */
export const DEFAULT_PHONE_REGION: CountryCode = "IN";

/** The regions a judgement's `region` may name: every region libphonenumber-js has metadata for, sorted. */
export const PHONE_REGIONS: readonly CountryCode[] = [...getCountries()].sort();

/** A country name as it is looked for. */
interface Name {
  /** Lower case (an abbreviation: as written); a Cyrillic name as its stem, its last letter dropped. */
  name: string;
  region: CountryCode;
  /** The stem takes any one Cyrillic letter as its ending: Россия, России, Россию. */
  cyrillic: boolean;
  /** An abbreviation (`UK`, `US`): matched only in capitals (`us` is a word). */
  upper: boolean;
}

/** Names by their first two characters (lower case). */
type NameIndex = Map<string, Name[]>;

const CYRILLIC_END = /[\u0400-\u04ff]$/;
const isCyrillic = (c: number): boolean => c >= 0x400 && c <= 0x4ff;
/** A letter of a script that writes spaces between words and whose country names are matched as words. */
const isWordLetter = (c: number): boolean =>
  (c >= 0x61 && c <= 0x7a) || (c >= 0x41 && c <= 0x5a) || (c >= 0xc0 && c <= 0x24f && c !== 0xd7 && c !== 0xf7) || isCyrillic(c) || (c >= 0x1e00 && c <= 0x1eff);

const nameIndexes = new Map<string, NameIndex>();

function namesOf(lang: string): NameIndex {
  let index = nameIndexes.get(lang);
  if (index !== undefined) return index;
  index = new Map();
  const seen = new Set<string>();
  for (const style of ["long", "short"] as const) {
    const display = new Intl.DisplayNames([lang], { type: "region", style, fallback: "none" });
    for (const region of PHONE_REGIONS) {
      const written = display.of(region);
      if (written === undefined) continue;
      const full = written.toLowerCase();
      if (full.length < 2 || seen.has(full)) continue;
      seen.add(full);
      const upper = /^[A-Z]{2,3}$/.test(written);
      const cyrillic = CYRILLIC_END.test(full) && full.length > 4;
      const name = upper ? written : cyrillic ? full.slice(0, -1) : full;
      const key = name.slice(0, 2).toLowerCase();
      const bucket = index.get(key) ?? [];
      bucket.push({ name, region, cyrillic, upper });
      index.set(key, bucket);
    }
  }
  // Longest first in each bucket (so `papua new guinea` wins over `papua`).
  for (const bucket of index.values()) bucket.sort((x, y) => y.name.length - x.name.length);
  nameIndexes.set(lang, index);
  return index;
}

/** Unicode script codes (`\p{Script=…}`) for CLDR's script subtags where they differ. */
const SCRIPT_OF_SUBTAG: Readonly<Record<string, string>> = { Hans: "Han", Hant: "Han", Jpan: "Hiragana", Kore: "Hangul" };

let scriptTable: { test: RegExp; regions: CountryCode[] }[] | undefined;

/** Per non-Latin script: its test and the regions whose likely script it is (the script's own region first). */
function scripts(): { test: RegExp; regions: CountryCode[] }[] {
  if (scriptTable !== undefined) return scriptTable;
  const bySubtag = new Map<string, CountryCode[]>();
  for (const region of PHONE_REGIONS) {
    let script: string | undefined;
    try {
      script = new Intl.Locale(`und-${region}`).maximize().script;
    } catch {
      continue;
    }
    if (script === undefined || script === "Latn") continue;
    bySubtag.set(script, [...(bySubtag.get(script) ?? []), region]);
  }
  const merged = new Map<string, CountryCode[]>();
  for (const [subtag, regions] of bySubtag) {
    const own = new Intl.Locale(`und-${subtag}`).maximize().region as CountryCode | undefined;
    const ordered = own !== undefined && regions.includes(own) ? [own, ...regions.filter((r) => r !== own)] : regions;
    const unicode = SCRIPT_OF_SUBTAG[subtag] ?? subtag;
    const list = merged.get(unicode) ?? [];
    merged.set(unicode, [...list, ...ordered.filter((r) => !list.includes(r))]);
  }
  scriptTable = [];
  for (const [unicode, regions] of merged) {
    try {
      const test = unicode === "Hiragana" ? /[\p{Script=Hiragana}\p{Script=Katakana}]/u : new RegExp(`\\p{Script=${unicode}}`, "u");
      scriptTable.push({ test, regions });
    } catch {
      // a script subtag the regular expressions do not know
    }
  }
  return scriptTable;
}

/** Letters only Vietnamese writes among the Latin-script languages (ơ ư đ and the tone-marked vowels of U+1EA0–1EF9). */
const VIETNAMESE_LETTERS = /[\u01a1\u01b0\u0111\u01a0\u01af\u0110\u1ea0-\u1ef9]/u;
/** The languages whose country names are read when the message writes their script (English always). */
const NAME_LANGUAGES_BY_SCRIPT: readonly [RegExp, readonly string[]][] = [
  [VIETNAMESE_LETTERS, ["vi"]],
  [/\p{Script=Cyrillic}/u, ["ru"]],
  [/\p{Script=Han}/u, ["zh-Hans", "zh-Hant"]],
  [/\p{Script=Thai}/u, ["th"]],
  [/\p{Script=Devanagari}/u, ["hi"]],
  [/\p{Script=Arabic}/u, ["ar"]],
];

/** Seven digits (of any script) or more, with phone separators between, not after `+`: a number that may be national. */
const NATIONAL_RUN = /(?<![+\p{Nd}])\p{Nd}(?:[\s().\-/]*\p{Nd}){6}/u;

/** The countries `message` names, in order of first mention, by the names of `index`. */
function namedRegions(message: string, lower: string, index: NameIndex, add: (r: CountryCode) => void): void {
  for (let i = 0; i + 1 < lower.length; i++) {
    // Latin and Cyrillic names are whole words (checked cheaply first: most positions are inside a word); names in
    // other scripts may be glued to the text around them.
    if (i > 0 && isWordLetter(lower.charCodeAt(i - 1)) && isWordLetter(lower.charCodeAt(i))) continue;
    const bucket = index.get(lower.slice(i, i + 2));
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
}

/** The regions (see the module comment) for `message`: `override` alone when given, else inferred, ending with IN. */
export function phoneRegions(message: string, override?: CountryCode): CountryCode[] {
  if (override !== undefined) return [override];
  // The scripts are tested on the message's distinct non-ASCII characters (few, even in a long message).
  const distinct = new Set<string>();
  for (const ch of message) if (ch.charCodeAt(0) >= 0x80) distinct.add(ch);
  const others = [...distinct].join("");
  const named: CountryCode[] = [];
  const fromScripts: CountryCode[] = [];
  const lower = message.toLowerCase();
  // Names only change how numbers written without a country code are read: a message without such a run of digits
  // reads no names (loading them costs the process ICU's region names on first use).
  const languages = !NATIONAL_RUN.test(message) ? [] : ["en", ...NAME_LANGUAGES_BY_SCRIPT.filter(([test]) => others !== "" && test.test(others)).flatMap(([, langs]) => langs)];
  for (const lang of languages) namedRegions(message, lower, namesOf(lang), (r) => void (named.includes(r) || named.push(r)));
  if (others !== "") {
    for (const s of scripts()) if (s.test.test(others)) for (const r of s.regions) if (!fromScripts.includes(r)) fromScripts.push(r);
    if (VIETNAMESE_LETTERS.test(others)) fromScripts.push((new Intl.Locale("vi").maximize().region ?? "VN") as CountryCode);
  }
  const out: CountryCode[] = [];
  for (const r of [...named, ...fromScripts, DEFAULT_PHONE_REGION]) if (!out.includes(r)) out.push(r);
  return out;
}
