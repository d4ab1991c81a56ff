/**
 * The fast validator: interprets a {@link Shape} directly over the strict JSON value model (no zod on the build
 * path), failing on the first violation with `<path>: <rule>`, and returns the value as plain JS (objects become
 * plain objects whose keys were all checked against closed sets; floats become numbers).
 *
 * Integer versus float is lexical here (J11): `60.0` at an integer path is rejected.
 */
import { compareCodePoints, indexPath, JsonFloat, kindOf, memberPath, type JsonValue } from "../../src/json/value.js";
import { AssessmentError } from "./errors.js";
import {
  echoKeys,
  floatProblem,
  intProblem,
  stringProblem,
  typeProblem,
  type ArrayShape,
  type Issue,
  type KindName,
  type Rule,
  type Shape,
} from "./shape.js";

function fail(path: string, message: string): never {
  throw new AssessmentError(`${path}: ${message}`, path, "schema");
}

function pathOf(base: string, segs: readonly (string | number)[]): string {
  let p = base;
  for (const s of segs) p = typeof s === "number" ? indexPath(p, s) : memberPath(p, s);
  return p;
}

function applyRules(rules: readonly Rule[] | undefined, value: unknown, path: string): void {
  if (!rules) return;
  for (const r of rules) {
    const issue: Issue | undefined = (r as (v: unknown) => Issue | undefined)(value);
    if (issue) fail(pathOf(path, issue.path), issue.message);
  }
}

/** Checks `value` against `shape` at `path`; returns the plain JS value. Throws {@link AssessmentError}. */
export function checkShape(shape: Shape, value: JsonValue, path: string): unknown {
  const kind: KindName = kindOf(value);
  switch (shape.kind) {
    case "string": {
      if (typeof value !== "string") fail(path, typeProblem("string", kind));
      const problem = stringProblem(shape, value);
      if (problem) fail(path, problem);
      return value;
    }
    case "int": {
      const problem = intProblem(shape, kind, typeof value === "number" ? value : undefined);
      if (problem) fail(path, problem);
      return value;
    }
    case "float": {
      const problem = floatProblem(shape, kind, value instanceof JsonFloat ? value.value : undefined);
      if (problem) fail(path, problem);
      return (value as JsonFloat).value;
    }
    case "nullable":
      return value === null ? null : checkShape(shape.inner, value, path);
    case "tuple": {
      if (!Array.isArray(value)) fail(path, typeProblem(`array of ${shape.items.length} items`, kind));
      if (value.length !== shape.items.length) {
        fail(path, `expected exactly ${shape.items.length} items (got ${value.length})`);
      }
      return value.map((v, i) => checkShape(shape.items[i], v, indexPath(path, i)));
    }
    case "array":
      return checkArray(shape, value, path, kind);
    case "object": {
      if (!(value instanceof Map)) fail(path, typeProblem("object", kind));
      const names = Object.keys(shape.fields);
      const unknown = [...value.keys()].filter((k) => !Object.hasOwn(shape.fields, k));
      if (unknown.length > 0) {
        fail(path, `unknown field(s): ${echoKeys(unknown.sort(compareCodePoints))} (closed object; allowed: ${names.join(", ")})`);
      }
      const missing = names.filter((n) => !value.has(n));
      if (missing.length > 0 && !(shape.allOrNone && value.size === 0)) {
        fail(
          path,
          shape.allOrNone
            ? `expected {} or all of ${names.join(", ")} (missing: ${missing.join(", ")})`
            : `missing field(s): ${missing.join(", ")}`,
        );
      }
      const out: Record<string, unknown> = {};
      for (const name of names) {
        if (value.has(name)) out[name] = checkShape(shape.fields[name], value.get(name)!, memberPath(path, name));
      }
      applyRules(shape.rules, out, path);
      return out;
    }
    case "record": {
      if (!(value instanceof Map)) fail(path, typeProblem("object", kind));
      const unknown = [...value.keys()].filter((k) => !shape.keys.includes(k));
      if (unknown.length > 0) {
        fail(path, `unknown key(s): ${echoKeys(unknown.sort(compareCodePoints))} (allowed: ${shape.keys.join(", ")})`);
      }
      const out: Record<string, unknown> = {};
      for (const [k, v] of value) out[k] = checkShape(shape.value, v, memberPath(path, k));
      applyRules(shape.rules, out, path);
      return out;
    }
  }
}

function checkArray(shape: ArrayShape, value: JsonValue, path: string, kind: KindName): unknown[] {
  if (!Array.isArray(value)) fail(path, typeProblem("array", kind));
  if (value.length > shape.max) fail(path, `expected at most ${shape.max} items (got ${value.length})`);
  if (value.length < shape.min) fail(path, `expected at least ${shape.min} item${shape.min === 1 ? "" : "s"} (got ${value.length})`);
  const out = value.map((v, i) => checkShape(shape.item, v, indexPath(path, i)));
  const problem = arrayProblem(shape, out);
  if (problem) fail(pathOf(path, problem.path), problem.message);
  applyRules(shape.rules, out, path);
  return out;
}

/** Uniqueness and order of already checked items (shared with the zod compiler). */
export function arrayProblem(shape: ArrayShape, items: readonly unknown[]): Issue | undefined {
  if (shape.unique) {
    const seen = new Map<unknown, number>();
    const key = shape.unique === "value" ? undefined : shape.unique.key;
    for (let i = 0; i < items.length; i++) {
      const k = key === undefined ? items[i] : (items[i] as Record<string, unknown>)[key];
      const first = seen.get(k);
      if (first !== undefined) {
        return { path: key === undefined ? [i] : [i, key], message: `duplicate ${key === undefined ? "item" : key} (same as item ${first})` };
      }
      seen.set(k, i);
    }
  }
  if (shape.order === "code-point") {
    for (let i = 1; i < items.length; i++) {
      if (compareCodePoints(items[i - 1] as string, items[i] as string) >= 0) {
        return { path: [i], message: "items must be sorted by code point without duplicates" };
      }
    }
  } else if (shape.order) {
    const order = shape.order;
    for (let i = 1; i < items.length; i++) {
      if (order.indexOf(items[i - 1] as string) >= order.indexOf(items[i] as string)) {
        return { path: [i], message: `items must be unique and in the order ${order.join(", ")}` };
      }
    }
  }
  return undefined;
}
