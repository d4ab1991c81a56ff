/**
 * The fast interpreter of a {@link Shape}: checks a strictly parsed value (the value model of `value.ts`) without
 * zod and returns the value as plain JS: objects become plain objects holding only members of their closed sets,
 * floats become numbers. {@link checkShape} stops at the first problem (in the dialect's order);
 * {@link collectShape} reports every problem, the way a validation report lists them.
 *
 * Integer versus float is lexical here: `60.0` is a float, wherever it appears.
 */
import { compareCodePoints, JsonFloat, kindOf, type JsonValue } from "./value.js";
import { STRICT_MODEL, type ValueModel } from "./value-model.js";
import {
  isOptional,
  jsPropertyOrder,
  type ArrayShape,
  type Infer,
  type Issue,
  type ObjectShape,
  type Problem,
  type RecordShape,
  type Rule,
  type Seg,
  type Shape,
  type ShapeDialect,
} from "./shape.js";

/** A problem found: where (segments below the checked value), the rule name and the text. */
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

export interface CheckOptions {
  /**
   * Member order of the returned objects: `shape` (default) or `code-point`, in which `JSON.stringify` of a
   * returned value holding only strings, booleans, integers, null, arrays and objects is its canonical text.
   */
  memberOrder?: "shape" | "code-point";
  /** How values are read (default {@link STRICT_MODEL}). */
  model?: ValueModel;
}

/**
 * A reusable checker for callers that need only the verdict and the checked value, many times over: it may check
 * an object's members in any order, so the problem it throws is some problem, not necessarily the first in the
 * dialect's order. Returns the plain JS value or throws a {@link ShapeViolation}.
 */
export function verdictChecker<F extends string, S extends Shape<F>>(
  shape: S,
  dialect: ShapeDialect<F>,
  opts: CheckOptions = {},
): (value: JsonValue, model?: ValueModel) => Infer<S> {
  const checker = new Checker(dialect, undefined, opts, true);
  return (value, model) => checker.verdict(shape, value, model ?? opts.model ?? STRICT_MODEL) as Infer<S>;
}

/** Checks `value` against `shape`; returns the plain JS value or throws the first {@link ShapeViolation}. */
export function checkShape<F extends string, S extends Shape<F>>(
  shape: S,
  value: JsonValue,
  dialect: ShapeDialect<F>,
  opts: CheckOptions = {},
): Infer<S> {
  return new Checker(dialect, undefined, opts).check(shape, value) as Infer<S>;
}

/**
 * Checks `value` against `shape` and reports every problem to `report`, in the dialect's order: every member and
 * item is checked even after an earlier one failed; a container's own rules (uniqueness, order, cross-field rules)
 * run only over members that passed. Returns the plain JS value when there was no problem, else undefined.
 */
export function collectShape<F extends string, S extends Shape<F>>(
  shape: S,
  value: JsonValue,
  dialect: ShapeDialect<F>,
  report: (v: ShapeViolation) => void,
  opts: CheckOptions = {},
): Infer<S> | undefined {
  const checker = new Checker(dialect, report, opts);
  try {
    return checker.check(shape, value) as Infer<S>;
  } catch (e) {
    if (e === SKIP) return undefined;
    throw e;
  }
}

/** Index of the first earlier item equal to item `i` (by value, or by the member `key`), or -1. */
function firstEqual(items: readonly unknown[], i: number, key: string | undefined, seen: Map<unknown, number> | undefined): number {
  const k = key === undefined ? items[i] : (items[i] as Record<string, unknown>)[key];
  if (seen !== undefined) {
    const first = seen.get(k);
    if (first === undefined) seen.set(k, i);
    return first ?? -1;
  }
  for (let j = 0; j < i; j++) if ((key === undefined ? items[j] : (items[j] as Record<string, unknown>)[key]) === k) return j;
  return -1;
}

/**
 * Duplicates (each repeat at its index) and order breaks of already checked items, as issues relative to the
 * array; undefined when there are none (shared with the zod compiler).
 */
export function arrayProblems<F extends string>(shape: ArrayShape<F>, items: readonly unknown[], dialect: ShapeDialect<F>): Issue[] | undefined {
  let out: Issue[] | undefined;
  if (shape.unique) {
    const key = shape.unique === "value" ? undefined : shape.unique.key;
    // Short lists (the usual case) are compared pairwise; longer ones through a map.
    const seen = items.length > 8 ? new Map<unknown, number>() : undefined;
    for (let i = 0; i < items.length; i++) {
      const first = firstEqual(items, i, key, seen);
      if (first >= 0) (out ??= []).push({ path: key === undefined ? [i] : [i, key], ...dialect.duplicate(shape, i, first, key) });
    }
  }
  if (shape.order === "code-point") {
    for (let i = 1; i < items.length; i++) {
      if (compareCodePoints(items[i - 1] as string, items[i] as string) >= 0) (out ??= []).push({ path: [i], ...dialect.unordered(shape, i) });
    }
  } else if (shape.order) {
    const order = shape.order;
    for (let i = 1; i < items.length; i++) {
      if (order.indexOf(items[i - 1] as string) >= order.indexOf(items[i] as string)) (out ??= []).push({ path: [i], ...dialect.unordered(shape, i) });
    }
  }
  return out;
}

/** The first of {@link arrayProblems}, or undefined. */
export function arrayProblem<F extends string>(shape: ArrayShape<F>, items: readonly unknown[], dialect: ShapeDialect<F>): Issue | undefined {
  return arrayProblems(shape, items, dialect)?.[0];
}

/** What the checker needs of an object shape, worked out once per shape. */
interface ObjectPlan {
  names: string[];
  /** The member shapes, by position in `names`. */
  shapes: Shape<string>[];
  optional: boolean[];
  /** Positions in `names`, in code-point order of the names. */
  sorted: number[];
}

const PLANS = new WeakMap<ObjectShape<string>, ObjectPlan>();

function planOf(shape: ObjectShape<string>): ObjectPlan {
  let plan = PLANS.get(shape);
  if (plan === undefined) {
    const names = Object.keys(shape.fields);
    const sorted = names.map((_, i) => i).sort((a, b) => compareCodePoints(names[a], names[b]));
    plan = { names, shapes: names.map((n) => shape.fields[n]), optional: names.map((n) => isOptional(shape, n)), sorted };
    PLANS.set(shape, plan);
  }
  return plan;
}

/** The members an all-or-none object lacks, when it has some but not all; else undefined. */
function allOrNoneAbsent(names: readonly string[], has: (n: string) => boolean, size: number): string[] | undefined {
  const absent = names.filter((n) => !has(n));
  return absent.length > 0 && size > 0 ? absent : undefined;
}

/** Thrown (collect mode only) to abandon a value whose problem has been reported; caught by its container. */
const SKIP: unique symbol = Symbol("shape-check skip");

class Checker<F extends string> {
  /** Path of the value being checked (pushed and popped around members and items). */
  private readonly path: Seg[] = [];
  private readonly closedFirst: boolean;
  private readonly codePointOrder: boolean;
  private m: ValueModel;
  /** Problems reported so far (collect mode). */
  private reported = 0;

  constructor(
    private readonly d: ShapeDialect<F>,
    private readonly report: ((v: ShapeViolation) => void) | undefined,
    opts: CheckOptions,
    /** Verdict only (see {@link verdictChecker}): members in any order, no recovery. */
    private readonly anyOrder = false,
  ) {
    this.closedFirst = d.order === "closed-first";
    this.codePointOrder = opts.memberOrder === "code-point";
    this.m = opts.model ?? STRICT_MODEL;
  }

  /** Reports a problem; in collect mode without abandoning the value (the caller goes on). */
  private note(problem: Problem, below: readonly Seg[] = []): void {
    const v = new ShapeViolation([...this.path, ...below], problem.rule, problem.message);
    if (this.report === undefined) throw v;
    this.reported++;
    this.report(v);
  }

  /** Reports a problem and abandons the value. */
  private fail(problem: Problem, below: readonly Seg[] = []): never {
    this.note(problem, below);
    throw SKIP;
  }

  private rules(rules: readonly Rule[] | undefined, value: unknown): void {
    if (!rules) return;
    for (const r of rules) {
      const issue = (r as (v: unknown) => Issue | undefined)(value);
      if (issue) this.fail({ rule: issue.rule ?? "rule", message: issue.message }, issue.path);
    }
  }

  /** One check from the top, with `model` (verdict mode). */
  verdict(shape: Shape<F>, value: JsonValue, model: ValueModel): unknown {
    this.path.length = 0;
    this.m = model;
    return this.check(shape, value);
  }

  /** Checks a member or item; in collect mode a failed one yields its raw value and the check goes on. */
  private at(seg: Seg, shape: Shape<F>, value: JsonValue): unknown {
    if (this.anyOrder) {
      // Nothing to recover: a problem ends the check, and the next check resets the path.
      this.path.push(seg);
      const v = this.check(shape, value);
      this.path.pop();
      return v;
    }
    this.path.push(seg);
    try {
      return this.check(shape, value);
    } catch (e) {
      if (e !== SKIP) throw e;
      return value;
    } finally {
      this.path.pop();
    }
  }

  check(shape: Shape<F>, value: JsonValue): unknown {
    switch (shape.kind) {
      case "string": {
        if (typeof value !== "string") this.fail(this.d.kind(shape, this.m.kind(value), value));
        const problem = this.d.string(shape, value);
        if (problem) this.fail(problem);
        return value;
      }
      case "bool": {
        if (typeof value !== "boolean") this.fail(this.d.kind(shape, this.m.kind(value), value));
        if (shape.value !== undefined && value !== shape.value) this.fail(this.d.bool!(shape, value));
        return value;
      }
      case "int": {
        if (typeof value !== "number") this.fail(this.d.kind(shape, this.m.kind(value), value));
        const problem = this.d.int(shape, value);
        if (problem) this.fail(problem);
        return value;
      }
      case "float": {
        if (!(value instanceof JsonFloat)) this.fail(this.d.kind(shape, this.m.kind(value), value));
        const problem = this.d.float(shape, value.value);
        if (problem) this.fail(problem);
        return value.value;
      }
      case "nullable":
        return value === null ? null : this.check(shape.inner, value);
      case "tuple": {
        if (!Array.isArray(value)) this.fail(this.d.kind(shape, this.m.kind(value), value));
        const problem = this.d.count(shape, value.length);
        if (problem) this.fail(problem);
        const before = this.reported;
        const out = value.map((v, i) => this.at(i, shape.items[i], v));
        if (this.reported > before) throw SKIP;
        return out;
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
    if (!Array.isArray(value)) this.fail(this.d.kind(shape, this.m.kind(value), value));
    const count = this.d.count(shape, value.length);
    if (count && this.closedFirst) this.fail(count);
    const before = this.reported;
    const out = value.map((v, i) => this.at(i, shape.item, v));
    if (count) this.fail(count);
    // Duplicates are found among the items as given, also beside items that failed (each repeat at its index).
    if (shape.unique !== undefined || shape.order !== undefined) {
      for (const problem of arrayProblems(shape, out, this.d) ?? []) {
        this.note({ rule: problem.rule ?? "rule", message: problem.message }, problem.path);
      }
    }
    if (this.reported > before) throw SKIP;
    this.rules(shape.rules, out);
    return out;
  }

  /** Unknown members: in `closed-first` order together at the object, else each at its own path. */
  private unknownKeys(value: unknown, size: number, known: (k: string) => boolean, shape: ObjectShape<F> | RecordShape<F>): void {
    if (size === 0) return;
    let unknown: string[] | undefined;
    for (const k of this.m.keys(value)) if (!known(k)) (unknown ??= []).push(k);
    if (unknown === undefined) return;
    const ordered = jsPropertyOrder(unknown);
    if (this.closedFirst) this.fail(this.d.unknown(shape, ordered));
    if (this.report === undefined) this.fail(this.d.unknown(shape, ordered), [ordered[0]]);
    for (const k of ordered) this.note(this.d.unknown(shape, [k]), [k]);
  }

  private object(shape: ObjectShape<F>, value: JsonValue): Record<string, unknown> {
    const m = this.m;
    if (!m.isObject(value)) this.fail(this.d.kind(shape, m.kind(value), value));
    const { names, shapes, optional, sorted } = planOf(shape);
    const size = m.size(value);
    if (this.anyOrder && this.codePointOrder && !this.closedFirst && !shape.allOrNone) return this.objectAnyOrder(shape, value, size);
    const has = (n: string) => m.get(value, n) !== undefined;
    if (this.closedFirst) {
      this.unknownKeys(value, size, (k) => Object.hasOwn(shape.fields, k), shape);
      const absent = shape.allOrNone ? allOrNoneAbsent(names, has, size) : names.filter((n, i) => !optional[i] && !has(n));
      if (absent && absent.length > 0) this.fail(this.d.missing(shape, absent));
    }
    const before = this.reported;
    // Checked in shape order (the order problems are reported in); kept by position for code-point output.
    const checked: unknown[] | undefined = this.codePointOrder ? new Array(names.length) : undefined;
    let out: Record<string, unknown> = checked === undefined ? {} : (undefined as never);
    let present = 0;
    for (let i = 0; i < names.length; i++) {
      const name = names[i];
      const member = m.get(value, name);
      if (member !== undefined) {
        present++;
        const v = this.at(name, shapes[i] as Shape<F>, member);
        if (checked !== undefined) checked[i] = v;
        else out[name] = v;
      } else if (!optional[i]) this.note(this.d.kind(shape.fields[name], "missing"), [name]);
    }
    if (!this.closedFirst) {
      if (present < size) this.unknownKeys(value, size, (k) => Object.hasOwn(shape.fields, k), shape);
      const absent = shape.allOrNone ? allOrNoneAbsent(names, has, size) : undefined;
      if (absent) this.fail(this.d.missing(shape, absent));
    }
    if (this.reported > before) throw SKIP;
    if (checked !== undefined) {
      out = {};
      for (const i of sorted) if (checked[i] !== undefined) out[names[i]] = checked[i];
    }
    this.rules(shape.rules, out);
    return out;
  }

  /** Verdict mode, code-point output: members checked and written in code-point order, in one pass. */
  private objectAnyOrder(shape: ObjectShape<F>, value: JsonValue, size: number): Record<string, unknown> {
    const m = this.m;
    const { names, shapes, optional, sorted } = planOf(shape);
    const out: Record<string, unknown> = {};
    let present = 0;
    for (let k = 0; k < sorted.length; k++) {
      const i = sorted[k];
      const name = names[i];
      const member = m.get(value, name);
      if (member !== undefined) {
        present++;
        out[name] = this.at(name, shapes[i] as Shape<F>, member);
      } else if (!optional[i]) this.fail(this.d.kind(shape.fields[name], "missing"), [name]);
    }
    if (present < size) this.unknownKeys(value, size, (k) => Object.hasOwn(shape.fields, k), shape);
    this.rules(shape.rules, out);
    return out;
  }

  private record(shape: RecordShape<F>, value: JsonValue): Record<string, unknown> {
    const m = this.m;
    if (!m.isObject(value)) this.fail(this.d.kind(shape, m.kind(value), value));
    const known = (k: string) => shape.keys.includes(k);
    const size = m.size(value);
    const before = this.reported;
    const out: Record<string, unknown> = {};
    if (this.closedFirst) {
      this.unknownKeys(value, size, known, shape);
      for (const k of m.keys(value)) out[k] = this.at(k, shape.value, m.get(value, k)!);
    } else {
      for (const k of shape.keys) {
        const v = m.get(value, k);
        if (v !== undefined) out[k] = this.at(k, shape.value, v);
      }
      this.unknownKeys(value, size, known, shape);
    }
    if (this.reported > before) throw SKIP;
    this.rules(shape.rules, out);
    return out;
  }
}
