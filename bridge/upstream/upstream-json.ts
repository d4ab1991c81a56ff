/**
 * Upstream answers as data (issue 29 item 1): every body the hosted server sends (a JSON answer, an error body, the
 * data of an event-stream event) is read with the project's strict loader (src/json/parse.ts) under the limits
 * below, and what the bridge writes is serialised again from the parsed value, never spliced from the text received.
 *
 * The writer uses the form of CPython's `json.dumps` defaults, which the reference server writes: `", "` and `": "`
 * separators, every character outside printable ASCII escaped (`\u00e9`, `\n`), key order as received, floats as
 * their received token (`1.0` stays `1.0`, `1e-05` stays `1e-05`). A well-formed answer of the reference therefore
 * comes out byte for byte, and every answer comes out as one line of printable ASCII.
 */
import { JsonLoadError, parseStrictJson, type JsonLoadRule, type StrictJsonLimits } from "../../src/json/parse.js";
import { pythonFloatRepr } from "../../src/json/legacy.js";
import { JsonFloat, type JsonValue } from "../../src/json/value.js";

/** Deepest nesting an upstream answer may have, counted over the whole JSON-RPC message (issue 29: 64). */
export const UPSTREAM_MAX_DEPTH = 64;
/** Items per array and members per object of an upstream answer (its byte cap bounds it first in practice). */
export const UPSTREAM_MAX_ENTRIES = 100_000;

/** The strict loader's limits for an upstream body of at most `maxBytes` bytes. */
export function upstreamLimits(maxBytes: number): Partial<StrictJsonLimits> {
  return { maxBytes, maxDepth: UPSTREAM_MAX_DEPTH, maxItems: UPSTREAM_MAX_ENTRIES, maxMembers: UPSTREAM_MAX_ENTRIES, rootPath: "answer" };
}

export type UpstreamParse = { ok: true; value: JsonValue } | { ok: false; rule: JsonLoadRule; reason: string };

/**
 * Why an answer breaking a loader rule is refused. The loader's own messages may quote a key or a token of the
 * answer; these sentences quote nothing the upstream wrote.
 */
const RULE_REASONS: Record<JsonLoadRule, string> = {
  size: "it is larger than the response cap",
  utf8: "it is not UTF-8",
  bom: "it starts with a byte order mark",
  syntax: "it is not JSON",
  "non-finite": "it holds a NaN or Infinity number",
  "integer-range": "it holds an integer outside the interoperable range of \u00b1(2^53\u22121)",
  "float-overflow": "it holds a number too large for a double",
  "duplicate-key": "an object in it has a duplicate key",
  "lone-surrogate": "it holds a lone Unicode surrogate",
  depth: `it nests deeper than ${UPSTREAM_MAX_DEPTH} levels`,
  "array-items": `an array in it has more than ${UPSTREAM_MAX_ENTRIES} items`,
  "object-members": `an object in it has more than ${UPSTREAM_MAX_ENTRIES} members`,
  "string-length": "a string in it is longer than the loader allows",
  "key-length": "an object key in it is longer than the loader allows",
};

/** Parses one upstream body strictly; a refusal carries a reason that quotes nothing from the body. */
export function parseUpstreamJson(body: Uint8Array | string, maxBytes: number): UpstreamParse {
  try {
    return { ok: true, value: parseStrictJson(body, upstreamLimits(maxBytes)) };
  } catch (e) {
    if (!(e instanceof JsonLoadError)) throw e;
    return { ok: false, rule: e.rule, reason: RULE_REASONS[e.rule] };
  }
}

/** A character the writer escapes: outside printable ASCII, a quote or a backslash. */
const ESCAPED = /[^\x20\x21\x23-\x5b\x5d-\x7e]/g;
const SHORT_ESCAPES: Record<string, string> = { '"': '\\"', "\\": "\\\\", "\n": "\\n", "\r": "\\r", "\t": "\\t", "\b": "\\b", "\f": "\\f" };

function escapeChar(c: string): string {
  return SHORT_ESCAPES[c] ?? `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`;
}

/** A string as CPython writes it with `ensure_ascii` (UTF-16 units above U+FFFF as two escapes). */
function quote(s: string): string {
  ESCAPED.lastIndex = 0;
  return `"${ESCAPED.test(s) ? s.replace(ESCAPED, escapeChar) : s}"`;
}

/**
 * The one-line text of a parsed upstream value (see the module comment). Recursion is bounded: values come from
 * the loader, at most {@link UPSTREAM_MAX_DEPTH} deep, plus the few members the bridge sets.
 */
export function upstreamText(v: JsonValue): string {
  if (v === null) return "null";
  if (v === true) return "true";
  if (v === false) return "false";
  if (typeof v === "string") return quote(v);
  if (typeof v === "number") return String(v);
  if (v instanceof JsonFloat) return v.token ?? pythonFloatRepr(v.value);
  if (Array.isArray(v)) return `[${v.map(upstreamText).join(", ")}]`;
  const parts: string[] = [];
  for (const [k, x] of v) parts.push(`${quote(k)}: ${upstreamText(x)}`);
  return `{${parts.join(", ")}}`;
}
