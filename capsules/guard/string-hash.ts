/**
 * FNV-1a over UTF-16 code units, the one string hash of the guard: probes and the shared summary hash text keys with
 * it (probe.ts), and the value-forms cache picks a slot with it (value-forms.ts). Not a cryptographic hash.
 */

/** The FNV-1a offset basis, the usual seed. */
export const FNV_OFFSET = 0x811c9dc5;

/** FNV-1a over `n` UTF-16 code units of `s` from `at` (at most to its end; no substring is made), from `seed`. */
export function stringHash(s: string, seed: number, at = 0, n = s.length - at): number {
  let h = seed;
  const end = Math.min(at + n, s.length);
  for (let i = at; i < end; i++) h = Math.imul(h ^ s.charCodeAt(i), 0x01000193);
  return h >>> 0;
}
