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
import { LONE_SURROGATE, NOT_WELL_FORMED } from "../assessment/assessment-dialect.js";
import { JudgementError } from "./judgement.js";
import { normalisedView } from "./normalise.js";

const VISIBLE = /\S/u;

/**
 * A message text that passed {@link checkMessageText}: the only way to make one, so `assessAndSeal` takes the proof
 * instead of checking (normalising the whole text) again. Each door checks before it opens the store.
 */
export class MessageText {
  private constructor(readonly text: string) {}

  /**
   * The checked message, or {@link JudgementError} when `message` is not a text `assess` can record; `field` names
   * it as the caller's door does (`message_text`, `--message-file`).
   */
  static check(message: string, field = "message"): MessageText {
    if (LONE_SURROGATE.test(message)) {
      throw new JudgementError(`${field}: ${NOT_WELL_FORMED}`, field, "well-formed");
    }
    if (!VISIBLE.test(normalisedView(message, false).text)) {
      throw new JudgementError(`${field}: no visible character (empty, or only spaces and invisible characters)`, field, "empty");
    }
    return new MessageText(message);
  }
}

/** {@link MessageText.check}. */
export const checkMessageText = MessageText.check;
