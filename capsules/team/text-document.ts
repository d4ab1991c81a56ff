/**
 * The text form of the documents members pass by hand (join request, invitation): exactly two lines,
 *
 *     evidence-bridge team <kind> v1
 *     <canonical JSON of the document>
 *
 * each ending in LF, UTF-8, nothing before, between or after. Anything else (another kind, another version, a
 * third line, CRLF, trailing spaces) is refused naming the rule, before the JSON is read.
 */
import { TeamError } from "./errors.js";

/** Largest document accepted (a membership of a few hundred members fits easily). */
export const TEAM_TEXT_MAX_BYTES = 1024 * 1024;

export function encodeTextDocument(kind: string, json: Uint8Array): string {
  return `evidence-bridge team ${kind} v1\n${Buffer.from(json).toString("utf8")}\n`;
}

/** The JSON line of a text document of `kind`; throws TeamError `malformed` naming the rule. */
export function decodeTextDocument(bytes: Uint8Array, kind: string, what: string): Uint8Array {
  if (bytes.length > TEAM_TEXT_MAX_BYTES) throw new TeamError("malformed", `${what}: larger than ${TEAM_TEXT_MAX_BYTES} bytes`);
  let text: string;
  try {
    text = new TextDecoder("utf-8", { fatal: true }).decode(bytes);
  } catch {
    throw new TeamError("malformed", `${what}: not UTF-8 text`);
  }
  const head = `evidence-bridge team ${kind} v1`;
  const lines = text.split("\n");
  if (lines.length !== 3 || lines[2] !== "") throw new TeamError("malformed", `${what}: expected exactly two lines ('${head}' and one line of JSON), each ending in a newline`);
  if (lines[0] !== head) {
    const other = /^evidence-bridge team ([a-z-]+) v(\d+)$/.exec(lines[0]);
    if (other && other[1] === kind) throw new TeamError("malformed", `${what}: version v${other[2]} is not supported by this build (expected v1)`);
    if (other) throw new TeamError("malformed", `${what}: this is a team ${other[1]}, not a team ${kind}`);
    throw new TeamError("malformed", `${what}: the first line must be '${head}'`);
  }
  return new TextEncoder().encode(lines[1]);
}
