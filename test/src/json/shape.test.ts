/**
 * The generic shape machinery (src/json/shape*.ts) with a small test dialect: what each check order reports first,
 * where problems are located, what the fast interpreter returns, and that the zod compilation reports the same
 * first problem in `document` order.
 */
import { describe, expect, expectTypeOf, test } from "vitest";
import { parseStrictJson } from "../../../src/json/parse.js";
import { toPlain } from "../../../src/json/plain.js";
import {
  array,
  bool,
  float,
  int,
  jsPropertyOrder,
  nullable,
  object,
  oneOf,
  record,
  rule,
  str,
  tuple,
  type Infer,
  type Shape,
  type ShapeDialect,
} from "../../../src/json/shape.js";
import { checkShape, collectShape, ShapeViolation } from "../../../src/json/shape-check.js";
import { compileShape, firstIssue } from "../../../src/json/shape-zod.js";

type F = "word" | "enum";

function dialect(order: "closed-first" | "document"): ShapeDialect<F> {
  const p = (rule: string, message: string) => ({ rule, message });
  return {
    order,
    kind: (shape, got) => p("kind", `${shape.kind} got ${got}`),
    bool: (shape, b) => p("const", `expected ${String(shape.value)}, got ${String(b)}`),
    string: (shape, s) => (shape.oneOf ? (shape.oneOf.includes(s) ? undefined : p("enum", "not in set")) : /^[a-z]+$/.test(s) ? undefined : p("word", "not a word")),
    int: (shape, n) => (n < shape.min || n > shape.max ? p("range", `out of [${shape.min}, ${shape.max}]`) : undefined),
    float: (shape, x) => (x < shape.min || x > shape.max ? p("range", "float out of range") : undefined),
    count: (shape, n) => (shape.kind === "array" && (n < shape.min || n > shape.max) ? p("count", `${n} items`) : undefined),
    duplicate: (_s, i, first) => p("unique", `item ${i} repeats ${first}`),
    unordered: (_s, i) => p("order", `item ${i} out of order`),
    unknown: (_s, keys) => p("unknown", `unknown ${keys.join(",")}`),
    missing: (_s, names) => p("missing", `missing ${names.join(",")}`),
    describe: () => undefined,
    text: (q) => `${q.message} [${q.rule}]`,
  };
}

const SHAPE: Shape<F> = object<F>(
  {
    name: str("word", 10),
    level: int(1, 3),
    tags: array(str<F>("word", 10), { max: 2, unique: "value" }),
    kind: oneOf("enum", ["a", "b"]),
    ratio: nullable(float(0, 1)),
    extra: record(["x", "y"], int()),
  },
  { optional: ["ratio", "extra"] },
);

function problemOf(order: "closed-first" | "document", json: string): string {
  try {
    checkShape(SHAPE, parseStrictJson(json), dialect(order));
    return "ok";
  } catch (e) {
    if (!(e instanceof ShapeViolation)) throw e;
    return `${e.path.join("/")}: ${e.detail} [${e.rule}]`;
  }
}

const VALID = '{"name": "ab", "level": 2, "tags": ["x"], "kind": "a"}';

describe("checkShape", () => {
  test("returns plain JS: only known members, floats as numbers, absent optional members absent", () => {
    const out = checkShape(SHAPE, parseStrictJson('{"name": "ab", "level": 2, "tags": [], "kind": "b", "ratio": 0.5, "extra": {"y": 1}}'), dialect("document"));
    expect(out).toEqual({ name: "ab", level: 2, tags: [], kind: "b", ratio: 0.5, extra: { y: 1 } });
    expect(Object.keys(checkShape(SHAPE, parseStrictJson(VALID), dialect("closed-first")) as object)).toEqual(["name", "level", "tags", "kind"]);
  });

  test("closed-first: unknown, then missing members at the object, before any member; array counts before items", () => {
    expect(problemOf("closed-first", '{"name": "A", "zz": 1, "level": 2, "tags": [], "kind": "a"}')).toBe(": unknown zz [unknown]");
    expect(problemOf("closed-first", '{"name": "A", "tags": [], "kind": "a"}')).toBe(": missing level [missing]");
    expect(problemOf("closed-first", '{"name": "ab", "level": 2, "tags": ["X", "y", "z"], "kind": "a"}')).toBe("tags: 3 items [count]");
  });

  test("document: members in order, a missing member at its own path, unknown members last; items before counts", () => {
    expect(problemOf("document", '{"name": "A", "zz": 1, "level": 2, "tags": [], "kind": "a"}')).toBe("name: not a word [word]");
    expect(problemOf("document", '{"name": "ab", "tags": [], "kind": "a"}')).toBe("level: int got missing [kind]");
    expect(problemOf("document", '{"name": "ab", "level": 2, "tags": ["X", "y", "z"], "kind": "a"}')).toBe("tags/0: not a word [word]");
    expect(problemOf("document", '{"zz": 1, "10": 1, "name": "ab", "level": 2, "tags": [], "kind": "a"}')).toBe("10: unknown 10,zz [unknown]");
  });

  test("ranges, enums, uniqueness, nullable and record keys", () => {
    for (const order of ["closed-first", "document"] as const) {
      expect(problemOf(order, VALID)).toBe("ok");
      expect(problemOf(order, VALID.replace('"level": 2', '"level": 4'))).toBe("level: out of [1, 3] [range]");
      expect(problemOf(order, VALID.replace('"level": 2', '"level": 2.0'))).toBe("level: int got float [kind]");
      expect(problemOf(order, VALID.replace('"kind": "a"', '"kind": "c"'))).toBe("kind: not in set [enum]");
      expect(problemOf(order, VALID.replace('["x"]', '["x", "x"]'))).toBe("tags/1: item 1 repeats 0 [unique]");
      expect(problemOf(order, VALID.replace('"kind": "a"', '"kind": "a", "ratio": null'))).toBe("ok");
      expect(problemOf(order, VALID.replace('"kind": "a"', '"kind": "a", "ratio": 2.5'))).toBe("ratio: float out of range [range]");
      expect(problemOf(order, VALID.replace('"kind": "a"', '"kind": "a", "extra": {"z": 1}'))).toMatch(/unknown z \[unknown\]$/);
    }
  });

  test("rules run on the checked value and are located below it", () => {
    const shape = object<F>({ lo: int(), hi: int() }, { rules: [rule<{ lo: number; hi: number }>((v) => (v.lo > v.hi ? { path: ["hi"], message: "below lo" } : undefined))] });
    expect(() => checkShape(shape, parseStrictJson('{"lo": 1, "hi": 2}'), dialect("document"))).not.toThrow();
    expect(() => checkShape(shape, parseStrictJson('{"lo": 3, "hi": 2}'), dialect("document"))).toThrow(expect.objectContaining({ path: ["hi"], detail: "below lo" }));
  });

  test("allOrNone objects accept {} or every member", () => {
    const shape = object<F>({ a: int(), b: int() }, { allOrNone: true });
    for (const order of ["closed-first", "document"] as const) {
      expect(checkShape(shape, parseStrictJson("{}"), dialect(order))).toEqual({});
      expect(() => checkShape(shape, parseStrictJson('{"a": 1}'), dialect(order))).toThrow(expect.objectContaining({ path: [], detail: "missing b" }));
    }
  });
});

describe("collectShape", () => {
  const collect = (shape: Shape<F>, json: string, opts = {}) => {
    const found: string[] = [];
    const value = collectShape(shape, parseStrictJson(json), dialect("document"), (v) => found.push(`${v.path.join(".")}: ${v.rule}`), opts);
    return { value, found };
  };

  test("reports every problem in document order, and returns undefined when there was one", () => {
    const { value, found } = collect(SHAPE, '{"zz": 1, "level": 9, "tags": ["a", "B", "a"], "kind": "c", "name": "x"}');
    expect(value).toBeUndefined();
    // Members in shape order (an array's items, then its count), unknown members after the known ones.
    expect(found).toEqual(["level: range", "tags.1: word", "tags: count", "kind: enum", "zz: unknown"]);
    const unknown = collect(SHAPE, '{"name": "x", "level": 1, "tags": ["a"], "kind": "a", "zz": 1, "yy": 2}');
    expect(unknown.found).toEqual(["zz: unknown", "yy: unknown"]);
  });

  test("every repeat is reported at its index, beside items that failed; rules run only on a clean value", () => {
    const listed = object({ list: array(str<F>("word", 10), { max: 9, unique: "value", rules: [rule<string[]>(() => ({ path: [], message: "rule ran" }))] }) });
    expect(collect(listed, '{"list": ["a", "a", "B", "a"]}').found).toEqual(["list.2: word", "list.1: unique", "list.3: unique"]);
    expect(collect(listed, '{"list": ["a"]}').found).toEqual(["list: rule"]);
  });

  test("a missing member is reported at its own path and the check goes on", () => {
    expect(collect(SHAPE, '{"level": 0, "tags": [], "kind": "a"}').found).toEqual(["name: kind", "level: range"]);
  });

  test("a clean value comes back as checkShape returns it; code-point member order on request", () => {
    const json = '{"name": "x", "level": 2, "tags": ["a"], "kind": "b", "extra": {"y": 1}}';
    const { value, found } = collect(SHAPE, json);
    expect(found).toEqual([]);
    expect(value).toEqual(checkShape(SHAPE, parseStrictJson(json), dialect("document")));
    expect(Object.keys(value as object)).toEqual(["name", "level", "tags", "kind", "extra"]);
    const sorted = collect(SHAPE, json, { memberOrder: "code-point" }).value;
    expect(Object.keys(sorted as object)).toEqual(["extra", "kind", "level", "name", "tags"]);
    expect(JSON.stringify(sorted)).toBe('{"extra":{"y":1},"kind":"b","level":2,"name":"x","tags":["a"]}');
  });
});

describe("booleans", () => {
  const flags = object({ any: bool(), on: bool(true) });

  test("a boolean, or only its constant", () => {
    expect(checkShape(flags, parseStrictJson('{"any": false, "on": true}'), dialect("document"))).toEqual({ any: false, on: true });
    expect(problemOf2(flags, '{"any": 1, "on": true}')).toBe("any: bool got integer");
    expect(problemOf2(flags, '{"any": true, "on": false}')).toBe("on: expected true, got false");
  });

  test("the zod compilation agrees", () => {
    const schema = compileShape(flags, dialect("document"));
    expect(schema.safeParse({ any: true, on: true }).success).toBe(true);
    const r = schema.safeParse({ any: true, on: false });
    expect(r.success).toBe(false);
    expect(firstIssue(r.error!, dialect("document"))).toEqual({ path: ["on"], message: "expected true, got false [const]" });
  });

  function problemOf2(shape: Shape<F>, json: string): string {
    try {
      checkShape(shape, parseStrictJson(json), dialect("document"));
      return "ok";
    } catch (e) {
      const v = e as ShapeViolation;
      return `${v.path.join(".")}: ${v.detail}`;
    }
  }
});

describe("Infer", () => {
  test("reads the value type off a definition", () => {
    const shape = object(
      {
        name: str("word", 10),
        kind: oneOf("enum", ["a", "b"]),
        on: bool(true),
        flag: bool(),
        n: int(),
        ratio: nullable(float(0, 1)),
        tags: array(str("word", 10), { max: 2 }),
        pair: tuple([int(), str("word", 3)]),
        extra: record(["x", "y"], int()),
        inner: object({ a: int() }, { optional: ["a"] }),
      },
      { optional: ["ratio"] },
    );
    expectTypeOf<Infer<typeof shape>>().toEqualTypeOf<{
      name: string;
      kind: "a" | "b";
      on: true;
      flag: boolean;
      n: number;
      ratio?: number | null;
      tags: string[];
      pair: [number, string];
      extra: { x?: number; y?: number };
      inner: { a?: number };
    }>();
    expectTypeOf<Infer<typeof SHAPE>>().toEqualTypeOf<unknown>();
    // The runtime value is what the type says.
    const v: Infer<typeof shape> = checkShape(
      shape,
      parseStrictJson('{"name": "x", "kind": "a", "on": true, "flag": false, "n": 1, "tags": [], "pair": [1, "ab"], "extra": {}, "inner": {}}'),
      dialect("document"),
    );
    expect(v.kind).toBe("a");
  });
});

describe("jsPropertyOrder", () => {
  test("canonical array indexes first, ascending; every other key in insertion order", () => {
    expect(jsPropertyOrder(["zz", "10", "2", "a", "01", "4294967295", "4294967294", "-1"])).toEqual(["2", "10", "4294967294", "zz", "a", "01", "4294967295", "-1"]);
    const o: Record<string, number> = {};
    for (const k of ["zz", "10", "2", "a", "01", "4294967295", "4294967294", "-1"]) o[k] = 1;
    expect(jsPropertyOrder(["zz", "10", "2", "a", "01", "4294967295", "4294967294", "-1"])).toEqual(Object.keys(o));
  });
});

describe("compileShape (zod) in document order", () => {
  const schema = compileShape(SHAPE, dialect("document"));
  const inputs = [
    VALID,
    '{"name": "A", "zz": 1, "level": 2, "tags": [], "kind": "a"}',
    '{"name": "ab", "tags": [], "kind": "a"}',
    '{"name": "ab", "level": 2, "tags": ["X", "y", "z"], "kind": "a"}',
    '{"zz": 1, "10": 1, "name": "ab", "level": 2, "tags": [], "kind": "a"}',
    VALID.replace('"level": 2', '"level": 4'),
    VALID.replace('"kind": "a"', '"kind": 7'),
    VALID.replace('["x"]', '["x", "x"]'),
    VALID.replace('"kind": "a"', '"kind": "a", "extra": {"z": 1}'),
    "[]",
  ];
  test.each(inputs)("reports what checkShape reports: %s", (json) => {
    const result = schema.safeParse(toPlain(parseStrictJson(json)));
    const zod = result.success ? "ok" : (({ path, message }) => `${path.join("/")}: ${message}`)(firstIssue(result.error, dialect("document")));
    expect(zod).toBe(problemOf("document", json));
  });
});
