/**
 * A copy of a string that does not keep alive the text it was cut from. The strict parser cuts the strings of an
 * ASCII document out of the document's text (src/json/parse.ts), and V8 keeps the whole text alive for as long as
 * any such string of 13 or more characters lives: a 27-character `created_at` kept from a parsed 13 KB capsule kept
 * the 13 KB (and the assessment text decoded from it), so the row index of 100,000 capsules rebuilt in one process
 * held about 2 GB. Whatever outlives the document it came from (an index row, a private value a guard keeps for the
 * life of a process) goes through here.
 */

/** V8 makes no slice of a shorter string: such strings are copies already. */
const SHORTEST_SLICE = 13;

/** `s` with characters of its own (the same text). */
export function ownString(s: string): string {
  // Concatenation then slice makes V8 flatten the pair into a new string; the slice refers to that string only.
  return s.length < SHORTEST_SLICE ? s : (" " + s).slice(1);
}
