/**
 * Fixed character tables of the normalisation N(x) (assessment-v1 §4.1 steps 5–7). These are facts of the
 * specification, kept exactly: 85 confusables, a partial Traditional → Simplified table of 53 entries (3 of them
 * identities), and the invisible characters removed at the end.
 */

function table(pairs: readonly (readonly [number, string])[]): ReadonlyMap<string, string> {
  return new Map(pairs.map(([cp, to]) => [String.fromCodePoint(cp), to]));
}

/** Step 5: confusable characters, one to one (85 entries). */
export const CONFUSABLES: ReadonlyMap<string, string> = table([
  // Cyrillic → Latin (35)
  [0x0410, "A"], [0x0412, "B"], [0x0421, "C"], [0x0415, "E"], [0x041d, "H"], [0x0406, "I"], [0x0408, "J"],
  [0x041a, "K"], [0x041c, "M"], [0x041e, "O"], [0x0420, "P"], [0x0405, "S"], [0x0422, "T"], [0x0425, "X"],
  [0x0423, "Y"], [0x0413, "r"], [0x0430, "a"], [0x0432, "b"], [0x0441, "c"], [0x0435, "e"], [0x043e, "o"],
  [0x0440, "p"], [0x0455, "s"], [0x0442, "t"], [0x0445, "x"], [0x0443, "y"], [0x0456, "i"], [0x0458, "j"],
  [0x0501, "d"], [0x04bb, "h"], [0x04cf, "l"], [0x049b, "k"], [0x043c, "m"], [0x043d, "h"], [0x043a, "k"],
  // Greek → Latin (18)
  [0x0391, "A"], [0x0392, "B"], [0x0395, "E"], [0x0396, "Z"], [0x0397, "H"], [0x0399, "I"], [0x039a, "K"],
  [0x039c, "M"], [0x039d, "N"], [0x039f, "O"], [0x03a1, "P"], [0x03a4, "T"], [0x03a5, "Y"], [0x03a7, "X"],
  [0x03bf, "o"], [0x03c1, "p"], [0x03b1, "a"], [0x03bd, "v"],
  // Latin small capitals (25)
  [0x1d00, "a"], [0x0299, "b"], [0x1d04, "c"], [0x1d05, "d"], [0x1d07, "e"], [0xa730, "f"], [0x0262, "g"],
  [0x029c, "h"], [0x026a, "i"], [0x1d0a, "j"], [0x1d0b, "k"], [0x029f, "l"], [0x1d0d, "m"], [0x0274, "n"],
  [0x1d0f, "o"], [0x1d18, "p"], [0x01eb, "q"], [0x0280, "r"], [0xa731, "s"], [0x1d1b, "t"], [0x1d1c, "u"],
  [0x1d20, "v"], [0x1d21, "w"], [0x028f, "y"], [0x1d22, "z"],
  // Dashes → "-" (7)
  [0xff0d, "-"], [0x2013, "-"], [0x2014, "-"], [0x2796, "-"], [0x2212, "-"], [0x2010, "-"], [0x2011, "-"],
]);

/** Step 6: the partial Traditional → Simplified table (53 entries). A full converter MUST NOT be used. */
export const TRADITIONAL_TO_SIMPLIFIED: ReadonlyMap<string, string> = new Map(
  [
    "鈔钞", "驗验", "僞伪", "偽伪", "幣币", "貨货", "錢钱", "賣卖", "買买", "聯联", "繫系", "從从", "優优", "過过",
    "遞递", "質质", "賽赛", "車车", "彩彩", "內内", "幕幕", "點点", "機机", "銀银", "盧卢", "數数", "發发", "專专",
    "業业", "準准", "現现", "額额", "轉转", "賬账", "戶户", "獲获", "舉举", "報报", "詐诈", "騙骗", "聞闻", "謹谨",
    "範范", "電电", "話话", "樣样", "價价", "隱隐", "識识", "騰腾", "務务", "偵侦", "查查",
  ].map((pair) => [pair[0], pair[1]] as [string, string]),
);

/** Step 7: removed characters, as inclusive code point ranges. */
export const REMOVED_RANGES: readonly (readonly [number, number])[] = [
  [0x00ad, 0x00ad],
  [0x034f, 0x034f],
  [0x061c, 0x061c],
  [0x115f, 0x1160],
  [0x17b4, 0x17b5],
  [0x180b, 0x180e],
  [0x200b, 0x200f],
  [0x202a, 0x202e],
  [0x2060, 0x2064],
  [0x206a, 0x206f],
  [0x3164, 0x3164],
  [0xfe00, 0xfe0f],
  [0xfeff, 0xfeff],
  [0xffa0, 0xffa0],
];

/** Step 3: combining-mark blocks whose `Mn` characters are always dropped. */
export const ALWAYS_DROPPED_MARK_RANGES: readonly (readonly [number, number])[] = [
  [0x0300, 0x036f],
  [0x1ab0, 0x1aff],
  [0x1dc0, 0x1dff],
  [0x20d0, 0x20ff],
  [0xfe20, 0xfe2f],
];

export function inRanges(cp: number, ranges: readonly (readonly [number, number])[]): boolean {
  for (const [lo, hi] of ranges) if (cp >= lo && cp <= hi) return true;
  return false;
}
