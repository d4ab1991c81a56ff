/**
 * Findings (errors and warnings) with JSON paths, and the translation of zod issues into them. Every message is
 * one line: `<path>: <what is wrong>`, and every finding names its rule.
 */
import type { z } from "zod";
import { echo } from "../../src/json/echo.js";
import { indexPath, isJsonFloat, kindOf, memberPath, type JsonValue } from "../../src/json/value.js";

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

function child(v: JsonValue | undefined, seg: PropertyKey): JsonValue | undefined {
  if (v instanceof Map) return typeof seg === "string" ? v.get(seg) : undefined;
  if (Array.isArray(v)) return typeof seg === "number" ? v[seg] : undefined;
  return undefined;
}

/** The path of `segs` (keys and indexes) from `root`: `index` + ["events", 3, "headline"] → `index.events[3].headline`. */
export function pathOf(root: string, segs: readonly PropertyKey[]): string {
  let p = root;
  for (const s of segs) p = typeof s === "number" ? indexPath(p, s) : memberPath(p, String(s));
  return p;
}

const TYPE_NAMES: Record<string, string> = { int: "integer", number: "integer", object: "object", array: "array" };

function constText(v: unknown): string {
  if (typeof v === "string") return echo(v);
  return v === true ? "true" : v === false ? "false" : v === null ? "null" : String(v);
}

function gotText(v: JsonValue | undefined): string {
  if (v === undefined) return "nothing";
  const kind = kindOf(v);
  return kind === "array" || kind === "object" ? `an ${kind}` : `${kind} ${shortEcho(v)}`;
}

/**
 * Turns zod issues for `value` (the value-model original of what zod saw) into findings rooted at `root`.
 * Unrecognized keys become one finding per key, at the key's own path.
 */
export function issuesToFindings(issues: readonly z.core.$ZodIssue[], value: JsonValue, root: string, out: (f: RegionalFinding) => void): void {
  for (const issue of issues) {
    let v: JsonValue | undefined = value;
    for (const seg of issue.path) v = child(v, seg);
    const path = pathOf(root, issue.path);
    if (v === undefined && (issue.code === "invalid_type" || issue.code === "invalid_value")) {
      out(finding(path, "required", "missing required member"));
      continue;
    }
    switch (issue.code) {
      case "unrecognized_keys":
        for (const key of issue.keys) out(finding(memberPath(path, key), "additional-property", "member is not allowed here (no extra properties)"));
        break;
      case "invalid_type":
        if (isJsonFloat(v) && (issue.expected === "int" || issue.expected === "number")) {
          out(finding(path, "integer", `expected integer, got float ${shortEcho(v)}`));
        } else out(finding(path, "type", `expected ${TYPE_NAMES[issue.expected] ?? issue.expected}, got ${gotText(v)}`));
        break;
      case "invalid_value":
        if (issue.values.length === 1) out(finding(path, "const", `expected the constant ${constText(issue.values[0])}, got ${gotText(v)}`));
        else out(finding(path, "enum", `expected one of ${issue.values.map(constText).join(", ")}, got ${gotText(v)}`));
        break;
      case "too_small":
        if (issue.origin === "string") out(finding(path, "min-length", `expected at least ${issue.minimum} character(s), got ${gotText(v)}`));
        else if (issue.origin === "array") {
          out(finding(path, "min-items", `expected at least ${issue.minimum} item(s), got ${Array.isArray(v) ? v.length : 0}`));
        } else out(finding(path, "minimum", `expected an integer >= ${issue.minimum}, got ${gotText(v)}`));
        break;
      case "invalid_format": {
        const pattern = "pattern" in issue && typeof issue.pattern === "string" ? issue.pattern : issue.format;
        out(finding(path, "pattern", `does not match ${pattern}: got ${gotText(v)}`));
        break;
      }
      case "custom": {
        const rule = typeof issue.params?.rule === "string" ? issue.params.rule : "custom";
        out(finding(path, rule, rule === "unique-items" ? `${issue.message} (items must be unique)` : `${issue.message}, got ${gotText(v)}`));
        break;
      }
      default:
        out(finding(path, issue.code, issue.message));
    }
  }
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
