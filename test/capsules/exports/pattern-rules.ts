/**
 * The part of the STIX 2.1 patterning grammar (specification §9; the ANTLR grammar STIXPattern.g4 of
 * oasis-open/cti-stix2-json-schemas that the OASIS pattern validator runs) that released indicators use: one
 * observation expression of comparisons joined by AND or OR, each `<object-type>:<property path> = '<string>'`.
 *
 *     pattern      := "[" comparison ( ( " AND " | " OR " ) comparison )* "]"
 *     comparison   := object-type ":" property ( "." property )* " = " string
 *     object-type  := [a-z][a-z0-9-]*[a-z0-9]        (3-250 characters, as a STIX type)
 *     property     := [a-z_][a-z0-9_]*
 *     string       := "'" ( any character but ' and \ | "\'" | "\\" )* "'"
 *
 * A pattern this accepts, the grammar accepts (a subset, checked against the OASIS pattern validator 2.1.2 while
 * writing it); anything else is refused here, so a test cannot pass a pattern we did not mean to write.
 */
const OBJECT_TYPE = /^[a-z][a-z0-9-]{1,248}[a-z0-9]$/;
const PROPERTY = /^[a-z_][a-z0-9_]*$/;

/** Reads a quoted string starting at `i` (the opening quote); returns the index after the closing quote. */
function readString(s: string, i: number): number | string {
  if (s[i] !== "'") return `expected ' at ${i}`;
  for (let j = i + 1; j < s.length; j++) {
    const c = s[j];
    if (c === "\\") {
      if (s[j + 1] !== "'" && s[j + 1] !== "\\") return `unknown escape at ${j}`;
      j++;
    } else if (c === "'") return j + 1;
  }
  return "unterminated string";
}

/** Undefined when `pattern` is in the grammar above, else the first problem. */
export function patternProblem(pattern: string): string | undefined {
  if (!pattern.startsWith("[") || !pattern.endsWith("]")) return "expected one observation expression in [ ]";
  const body = pattern.slice(1, -1);
  let i = 0;
  for (;;) {
    const colon = body.indexOf(":", i);
    if (colon < 0) return `expected <object-type>: at ${i}`;
    const type = body.slice(i, colon);
    if (!OBJECT_TYPE.test(type)) return `object type ${JSON.stringify(type)} is not a STIX type name`;
    const eq = body.indexOf(" = ", colon);
    if (eq < 0) return `expected " = " after the object path at ${colon}`;
    const path = body.slice(colon + 1, eq).split(".");
    if (path.some((c) => !PROPERTY.test(c))) return `object path ${JSON.stringify(body.slice(colon + 1, eq))} is not a property path`;
    const end = readString(body, eq + 3);
    if (typeof end === "string") return end;
    if (end === body.length) return undefined;
    const join = body.startsWith(" AND ", end) ? 5 : body.startsWith(" OR ", end) ? 4 : 0;
    if (join === 0) return `expected AND, OR or ] at ${end}`;
    i = end + join;
  }
}

