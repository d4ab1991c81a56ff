/**
 * `collection.script_hints` (assessment-v1 §2.5): which of five scripts occur in the message, in the canonical
 * order `latin` (ASCII letters), `devanagari` (U+0900–097F), `han` (U+3400–9FFF), `arabic` (U+0600–06FF),
 * `cyrillic` (U+0400–04FF); `["undetermined"]` when none does.
 */
const SCRIPTS: readonly (readonly [string, RegExp])[] = [
  ["latin", /[A-Za-z]/],
  ["devanagari", /[\u0900-\u097f]/],
  ["han", /[\u3400-\u9fff]/],
  ["arabic", /[\u0600-\u06ff]/],
  ["cyrillic", /[\u0400-\u04ff]/],
];

export function scriptHints(message: string): string[] {
  const hints = SCRIPTS.filter(([, re]) => re.test(message)).map(([name]) => name);
  return hints.length > 0 ? hints : ["undetermined"];
}
