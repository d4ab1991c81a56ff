/**
 * What `assess` accepts as a message, before anything is derived (docs/assess.md "The message"), for both doors:
 *
 * - well-formed Unicode: a lone surrogate (possible in an MCP `message_text`, a JSON string) is refused, because
 *   UTF-8 encoding would replace it with U+FFFD and two different texts would get one `message_sha256`;
 * - at least one visible character: an empty message, or one of only spaces and invisible characters (the ones the
 *   normalisation removes: zero-width characters, bidi controls, BOM, fillers), records nothing and is refused.
 *
 * Errors name the rule, never the text.
 */
import { JudgementError } from "./judgement.js";
import { normalisedView } from "./normalise.js";

/** A lone (unpaired) surrogate: with the `u` flag a pair is one code point, so only unpaired halves match. */
const LONE_SURROGATE = /\p{Cs}/u;
const VISIBLE = /\S/u;

/**
 * Throws {@link JudgementError} when `message` is not a text `assess` can record; `field` names it as the caller's
 * door does (`message_text`, `--message-file`).
 */
export function checkMessageText(message: string, field = "message"): void {
  if (LONE_SURROGATE.test(message)) {
    throw new JudgementError(`${field}: not well-formed Unicode (a lone surrogate; UTF-16 halves must come in pairs)`, field, "well-formed");
  }
  if (!VISIBLE.test(normalisedView(message, false).text)) {
    throw new JudgementError(`${field}: no visible character (empty, or only spaces and invisible characters)`, field, "empty");
  }
}
