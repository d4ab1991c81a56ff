/**
 * The first difference between two plain JSON-like values, as a JSON path (`a.b[2].c`), or undefined when they are
 * equal. Object key sets must match exactly (order is irrelevant); arrays compare by length, then item by item.
 * Only paths are reported, never values (the compared data may be private).
 */
import { joinPath } from "./errors.js";
import { isRecord } from "../../src/json/value.js";

export interface Difference {
  path: string;
  /** What differs at `path`: `value`, `type`, `length`, `missing-key`, `extra-key`. */
  kind: "value" | "type" | "length" | "missing-key" | "extra-key";
}

const SAFE_KEY = /^[a-z_][a-z0-9_]{0,63}$/;

export function firstDifference(actual: unknown, expected: unknown, path: string): Difference | undefined {
  if (Array.isArray(expected)) {
    if (!Array.isArray(actual)) return { path, kind: "type" };
    const n = Math.min(actual.length, expected.length);
    for (let i = 0; i < n; i++) {
      const d = firstDifference(actual[i], expected[i], `${path}[${i}]`);
      if (d) return d;
    }
    return actual.length === expected.length ? undefined : { path, kind: "length" };
  }
  if (isRecord(expected)) {
    if (!isRecord(actual)) return { path, kind: "type" };
    for (const key of Object.keys(expected)) {
      if (!Object.prototype.hasOwnProperty.call(actual, key)) return { path: joinPath(path, [key]), kind: "missing-key" };
      const d = firstDifference(actual[key], expected[key], joinPath(path, [key]));
      if (d) return d;
    }
    for (const key of Object.keys(actual)) {
      if (!Object.prototype.hasOwnProperty.call(expected, key)) {
        // Unexpected keys come from the compared (possibly private) document: only plain keys are named.
        return { path: SAFE_KEY.test(key) ? joinPath(path, [key]) : path, kind: "extra-key" };
      }
    }
    return undefined;
  }
  return Object.is(actual, expected) ? undefined : { path, kind: typeof actual === typeof expected ? "value" : "type" };
}

/** Human wording of a difference kind. */
export function describeDifference(kind: Difference["kind"]): string {
  switch (kind) {
    case "value":
      return "value differs";
    case "type":
      return "type differs";
    case "length":
      return "number of items differs";
    case "missing-key":
      return "field is missing";
    case "extra-key":
      return "unexpected field";
  }
}
