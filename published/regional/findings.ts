/**
 * Findings (errors and warnings) with JSON paths. Every message is one line: `<path>: <what is wrong>`, and every
 * finding names its rule.
 */
import { echo } from "../../src/json/echo.js";
import { indexPath, isJsonFloat, memberPath, type JsonValue } from "../../src/json/value.js";

export interface RegionalFinding {
  /** JSON path from the root `index` (`index.events[3].english_translation.public_url`). */
  path: string;
  /** The rule broken: `required`, `type`, `integer`, `const`, `enum`, `pattern`, `min-length`, ... */
  rule: string;
  /** `<path>: <detail>`. */
  message: string;
}

export function finding(path: string, rule: string, detail: string): RegionalFinding {
  return { path, rule, message: `${path}: ${detail}` };
}

/** A list that keeps the first `cap` findings and counts all of them. */
export class FindingList {
  readonly items: RegionalFinding[] = [];
  total = 0;
  constructor(readonly cap: number) {}

  add(f: RegionalFinding): void {
    this.total++;
    if (this.items.length < this.cap) this.items.push(f);
  }
}

const ECHO_LIMIT = 80;

/** Python-repr echo of a value, cut to a readable length. */
export function shortEcho(v: JsonValue | undefined): string {
  const s = echo(v);
  return s.length > ECHO_LIMIT ? `${s.slice(0, ECHO_LIMIT - 3)}...` : s;
}


/** Reports every float in `value` whose path is not in `reported`: the format has no non-integer numbers. */
export function floatFindings(value: JsonValue, root: string, reported: ReadonlySet<string>, out: (f: RegionalFinding) => void): void {
  const walk = (v: JsonValue, p: string): void => {
    if (isJsonFloat(v)) {
      if (!reported.has(p)) out(finding(p, "integer", `expected integer, got float ${shortEcho(v)}`));
    } else if (Array.isArray(v)) v.forEach((x, i) => walk(x, indexPath(p, i)));
    else if (v instanceof Map) for (const [k, x] of v) walk(x, memberPath(p, k));
  };
  walk(value, root);
}

/** True when the value model holds a float anywhere (cheap pre-check before the float walk). */
export function hasFloat(v: JsonValue): boolean {
  if (isJsonFloat(v)) return true;
  if (Array.isArray(v)) return v.some(hasFloat);
  if (v instanceof Map) for (const x of v.values()) if (hasFloat(x)) return true;
  return false;
}
