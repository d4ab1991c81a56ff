/**
 * How the shape checker (`shape-check.ts`) reads a parsed document: the strict value model of `value.ts` (the
 * default) or `JSON.parse` output, so one interpreter serves both.
 */
import { compareCodePoints, kindOf, type JsonValue } from "./value.js";

/**
 * How the checker reads objects and kinds: the strict value model (`Map` objects, `JsonFloat`; the default)
 * or another JSON-shaped model, such as `JSON.parse` output ({@link PlainJsonModel}). Only objects and kinds differ;
 * strings, booleans, numbers and arrays are JS values in both.
 */
export interface ValueModel {
  isObject(v: unknown): boolean;
  /** Member `key` of an object, or undefined when it has none. */
  get(o: unknown, key: string): JsonValue | undefined;
  /** Member count of an object; called once per object the checker opens. */
  size(o: unknown): number;
  keys(o: unknown): Iterable<string>;
  kind(v: unknown): ReturnType<typeof kindOf>;
}

/** The strict value model of `value.ts`. */
export const STRICT_MODEL: ValueModel = {
  isObject: (v) => v instanceof Map,
  get: (o, key) => (o as Map<string, JsonValue>).get(key),
  size: (o) => (o as Map<string, JsonValue>).size,
  keys: (o) => (o as Map<string, JsonValue>).keys(),
  kind: (v) => kindOf(v as JsonValue),
};

/**
 * `JSON.parse` output: objects are plain objects (own properties only), every number an integer, no floats. It
 * cannot tell `1` from `1.0` nor see duplicate keys: a caller uses it only where the text was proved free of
 * both, and compares {@link members} (every member of every object the checker opened) with the members the
 * text holds. {@link ordered} says whether every object opened had its keys in code-point order.
 */
export class PlainJsonModel implements ValueModel {
  members = 0;
  ordered = true;

  isObject(v: unknown): boolean {
    return typeof v === "object" && v !== null && !Array.isArray(v);
  }

  get(o: unknown, key: string): JsonValue | undefined {
    const v = (o as Record<string, unknown>)[key];
    // An inherited property is a function of Object.prototype, or Object.prototype itself (`__proto__`): JSON
    // values are neither, and JSON.parse never gives one of its own.
    if (typeof v === "function" || (v === Object.prototype && !Object.hasOwn(o as object, key))) return undefined;
    return v as JsonValue | undefined;
  }

  size(o: unknown): number {
    const keys = Object.keys(o as object);
    this.members += keys.length;
    if (this.ordered) for (let i = 1; i < keys.length; i++) if (compareCodePoints(keys[i - 1], keys[i]) >= 0) this.ordered = false;
    return keys.length;
  }

  keys(o: unknown): Iterable<string> {
    return Object.keys(o as object);
  }

  kind(v: unknown): ReturnType<typeof kindOf> {
    return v !== null && typeof v === "object" && !Array.isArray(v) ? "object" : kindOf(v as JsonValue);
  }
}
