/**
 * What kind of file `review verify-export` was given, when it is not the JSON Lines export it can verify (issue 30
 * item 5): the STIX 2.1, MISP and CSV forms of `review export` carry no signed decisions, so they are named in one
 * sentence instead of one "not strict JSON" finding per line. Looks only at the structure, never echoes content.
 */
import { parseStrictJson } from "../../src/json/parse.js";
import { isJsonObject, type JsonValue } from "../../src/json/value.js";

/** A description of a file that is not a JSON Lines review export ("a STIX 2.1 bundle"), or undefined. */
export function unverifiableExportFormat(bytes: Uint8Array): string | undefined {
  const head = Buffer.from(bytes.subarray(0, 4096)).toString("utf8");
  const start = head.length - head.trimStart().length;
  if (start === head.length) return undefined;
  if (!head.startsWith("{", start)) {
    const firstLine = head.slice(start).split(/\r?\n/)[0];
    return firstLine.includes(",") ? "a CSV file" : "not JSON Lines (its first line is not a JSON object)";
  }
  const nl = bytes.indexOf(0x0a, start);
  if (nl !== -1 && nl < bytes.length - 1 && firstLineParses(bytes.subarray(start, nl))) return undefined;
  let doc: JsonValue;
  try {
    doc = parseStrictJson(bytes);
  } catch {
    return undefined; // neither one document nor JSON Lines: the per-line report says what is wrong
  }
  if (!isJsonObject(doc)) return undefined;
  if (doc.get("type") === "bundle") return "a STIX 2.1 bundle";
  if (doc.has("Event") || doc.has("response")) return "a MISP event";
  if (doc.has("schema_version") && doc.has("decision")) return undefined; // one JSON Lines record without its checkpoint
  return "one JSON document, not JSON Lines";
}

function firstLineParses(line: Uint8Array): boolean {
  try {
    return isJsonObject(parseStrictJson(line));
  } catch {
    return false;
  }
}
