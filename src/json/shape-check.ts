/**
 * The fast interpreter of a {@link Shape}: checks a strictly parsed value (the value model of `value.ts`) without
 * zod, stops at the first problem (in the dialect's order) and returns the value as plain JS: objects become plain
 * objects holding only members of their closed sets, floats become numbers.
 *
 * Integer versus float is lexical here: `60.0` is a float, wherever it appears.
 */
import { compareCodePoints, JsonFloat, kindOf, type JsonValue } from "./value.js";
import {
  isOptional,
  jsPropertyOrder,
  type ArrayShape,
  type Issue,
  type ObjectShape,
  type Problem,
  type RecordShape,
  type Rule,
  type Seg,
  type Shape,
  type ShapeDialect,
} from "./shape.js";

/** The first problem found: where (segments below the checked value), the rule name and the text. */
export class ShapeViolation extends Error {
  override readonly name = "ShapeViolation";
  constructor(
    readonly path: readonly Seg[],
    readonly rule: string,
    readonly detail: string,
  ) {
    super(detail);
  }
}

/** Checks `value` against `shape`; returns the plain JS value or throws {@link ShapeViolation}. */
export function checkShape<F extends string>(shape: Shape<F>, value: JsonValue, dialect: ShapeDialect<F>): unknown {
  return new Checker(dialect).check(shape, value);
}

/** Uniqueness and order of already checked items, as an issue relative to the array (shared with the zod compiler). */
export function arrayProblem<F extends string>(shape: ArrayShape<F>, items: readonly unknown[], dialect: ShapeDialect<F>): Issue | undefined {
  if (shape.unique) {
    const seen = new Map<unknown, number>();
    const key = shape.unique === "value" ? undefined : shape.unique.key;
    for (let i = 0; i < items.length; i++) {
      const k = key === undefined ? items[i] : (items[i] as Record<string, unknown>)[key];
      const first = seen.get(k);
      if (first !== undefined) return { path: key === undefined ? [i] : [i, key], ...dialect.duplicate(shape, i, first, key) };
      seen.set(k, i);
    }
  }
  if (shape.order === "code-point") {
    for (let i = 1; i < items.length; i++) {
      if (compareCodePoints(items[i - 1] as string, items[i] as string) >= 0) return { path: [i], ...dialect.unordered(shape, i) };
    }
  } else if (shape.order) {
    const order = shape.order;
    for (let i = 1; i < items.length; i++) {
      if (order.indexOf(items[i - 1] as string) >= order.indexOf(items[i] as string)) return { path: [i], ...dialect.unordered(shape, i) };
    }
  }
  return undefined;
}

class Checker<F extends string> {
  /** Path of the value being checked (pushed and popped around members and items). */
  private readonly path: Seg[] = [];
  private readonly closedFirst: boolean;

  constructor(private readonly d: ShapeDialect<F>) {
    this.closedFirst = d.order === "closed-first";
  }

  private fail(problem: Problem, below: readonly Seg[] = []): never {
    throw new ShapeViolation([...this.path, ...below], problem.rule, problem.message);
  }

  private rules(rules: readonly Rule[] | undefined, value: unknown): void {
    if (!rules) return;
    for (const r of rules) {
      const issue = (r as (v: unknown) => Issue | undefined)(value);
      if (issue) this.fail({ rule: issue.rule ?? "rule", message: issue.message }, issue.path);
    }
  }

  private at(seg: Seg, shape: Shape<F>, value: JsonValue): unknown {
    this.path.push(seg);
    const out = this.check(shape, value);
    this.path.pop();
    return out;
  }

  check(shape: Shape<F>, value: JsonValue): unknown {
    switch (shape.kind) {
      case "string": {
        if (typeof value !== "string") this.fail(this.d.kind(shape, kindOf(value)));
        const problem = this.d.string(shape, value);
        if (problem) this.fail(problem);
        return value;
      }
      case "int": {
        if (typeof value !== "number") this.fail(this.d.kind(shape, kindOf(value)));
        const problem = this.d.int(shape, value);
        if (problem) this.fail(problem);
        return value;
      }
      case "float": {
        if (!(value instanceof JsonFloat)) this.fail(this.d.kind(shape, kindOf(value)));
        const problem = this.d.float(shape, value.value);
        if (problem) this.fail(problem);
        return value.value;
      }
      case "nullable":
        return value === null ? null : this.check(shape.inner, value);
      case "tuple": {
        if (!Array.isArray(value)) this.fail(this.d.kind(shape, kindOf(value)));
        const problem = this.d.count(shape, value.length);
        if (problem) this.fail(problem);
        return value.map((v, i) => this.at(i, shape.items[i], v));
      }
      case "array":
        return this.array(shape, value);
      case "object":
        return this.object(shape, value);
      case "record":
        return this.record(shape, value);
    }
  }

  private array(shape: ArrayShape<F>, value: JsonValue): unknown[] {
    if (!Array.isArray(value)) this.fail(this.d.kind(shape, kindOf(value)));
    const count = this.d.count(shape, value.length);
    if (count && this.closedFirst) this.fail(count);
    const out = value.map((v, i) => this.at(i, shape.item, v));
    if (count) this.fail(count);
    const problem = arrayProblem(shape, out, this.d);
    if (problem) this.fail({ rule: problem.rule ?? "rule", message: problem.message }, problem.path);
    this.rules(shape.rules, out);
    return out;
  }

  private unknownKeys(keys: readonly string[], known: (k: string) => boolean, shape: ObjectShape<F> | RecordShape<F>): void {
    const unknown = keys.filter((k) => !known(k));
    if (unknown.length === 0) return;
    const ordered = jsPropertyOrder(unknown);
    this.fail(this.d.unknown(shape, ordered), this.closedFirst ? [] : [ordered[0]]);
  }

  private object(shape: ObjectShape<F>, value: JsonValue): Record<string, unknown> {
    if (!(value instanceof Map)) this.fail(this.d.kind(shape, kindOf(value)));
    const names = Object.keys(shape.fields);
    const known = (k: string) => Object.hasOwn(shape.fields, k);
    const missing = () => names.filter((n) => !value.has(n));
    const allOrNoneProblem = () => {
      const absent = missing();
      return absent.length > 0 && value.size > 0 ? absent : undefined;
    };
    if (this.closedFirst) {
      this.unknownKeys([...value.keys()], known, shape);
      const absent = shape.allOrNone ? allOrNoneProblem() : missing().filter((n) => !isOptional(shape, n));
      if (absent && absent.length > 0) this.fail(this.d.missing(shape, absent));
    }
    const out: Record<string, unknown> = {};
    for (const name of names) {
      const member = value.get(name);
      if (member !== undefined) out[name] = this.at(name, shape.fields[name], member);
      else if (!isOptional(shape, name)) {
        this.path.push(name);
        this.fail(this.d.kind(shape.fields[name], "missing"));
      }
    }
    if (!this.closedFirst) {
      this.unknownKeys([...value.keys()], known, shape);
      const absent = shape.allOrNone ? allOrNoneProblem() : undefined;
      if (absent) this.fail(this.d.missing(shape, absent));
    }
    this.rules(shape.rules, out);
    return out;
  }

  private record(shape: RecordShape<F>, value: JsonValue): Record<string, unknown> {
    if (!(value instanceof Map)) this.fail(this.d.kind(shape, kindOf(value)));
    const known = (k: string) => shape.keys.includes(k);
    const out: Record<string, unknown> = {};
    if (this.closedFirst) {
      this.unknownKeys([...value.keys()], known, shape);
      for (const [k, v] of value) out[k] = this.at(k, shape.value, v);
    } else {
      for (const k of shape.keys) if (value.has(k)) out[k] = this.at(k, shape.value, value.get(k)!);
      this.unknownKeys([...value.keys()], known, shape);
    }
    this.rules(shape.rules, out);
    return out;
  }
}
