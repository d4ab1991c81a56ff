/**
 * Finds the JSON path of a load error that the strict parser reports without one (syntax errors carry only a
 * position; duplicate keys, out-of-range integers and non-finite numbers carry neither). Runs only after the
 * parser has failed, over one small slice of the document (an event, a top-level member), so a simple token
 * walk is enough: it tolerates the invalid text and stops at the first point that matches the target.
 */
import { JsonLoadError, parseStrictJson } from "../../src/json/parse.js";
import { indexPath, memberPath } from "../../src/json/value.js";

export type LocateTarget =
  /** The innermost member or item open at this UTF-16 offset of the text. */
  | { kind: "offset"; at: number }
  /** The first object member whose key repeats an earlier key of the same object. */
  | { kind: "duplicate-key" }
  /** The first scalar token the strict parser rejects on its own (integer range, overflow, NaN/Infinity). */
  | { kind: "bad-scalar" };

interface Frame {
  array: boolean;
  index: number;
  key: string | undefined;
  keys: Set<string>;
  expectKey: boolean;
}

function pathOf(root: string, stack: Frame[]): string {
  let p = root;
  for (const f of stack) {
    if (f.array) p = indexPath(p, f.index);
    else if (f.key !== undefined && !f.expectKey) p = memberPath(p, f.key);
  }
  return p;
}

function stringEnd(text: string, start: number): number {
  let i = start + 1;
  while (i < text.length) {
    const c = text.charCodeAt(i);
    if (c === 0x5c) i += 2;
    else if (c === 0x22) return i + 1;
    else i++;
  }
  return text.length;
}

function decodeKey(token: string): string {
  try {
    return JSON.parse(token) as string;
  } catch {
    return token;
  }
}

function rejectsAlone(token: string): boolean {
  try {
    parseStrictJson(token);
    return false;
  } catch (e) {
    return e instanceof JsonLoadError && e.rule !== "syntax";
  }
}

/** The path (from `root`) where `target` is met in `text`, or `root` when the walk does not meet it. */
export function locatePath(text: string, root: string, target: LocateTarget): string {
  const stack: Frame[] = [];
  let i = 0;
  while (i < text.length) {
    if (target.kind === "offset" && i >= target.at) return pathOf(root, stack);
    const c = text.charCodeAt(i);
    const top = stack[stack.length - 1];
    if (c === 0x7b || c === 0x5b) {
      stack.push({ array: c === 0x5b, index: 0, key: undefined, keys: new Set(), expectKey: c === 0x7b });
      i++;
    } else if (c === 0x7d || c === 0x5d) {
      stack.pop();
      i++;
    } else if (c === 0x2c) {
      if (top?.array) top.index++;
      else if (top) top.expectKey = true;
      i++;
    } else if (c === 0x3a) {
      if (top && !top.array) top.expectKey = false;
      i++;
    } else if (c === 0x22) {
      const end = stringEnd(text, i);
      if (top && !top.array && top.expectKey) {
        const key = decodeKey(text.slice(i, end));
        top.key = key;
        if (top.keys.has(key) && target.kind === "duplicate-key") return memberPath(pathOf(root, stack), key);
        top.keys.add(key);
      }
      if (target.kind === "offset" && target.at < end) return pathOf(root, stack);
      i = end;
    } else if (c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09) {
      i++;
    } else {
      let end = i + 1;
      while (end < text.length && !/[\s,:\]}[{"]/.test(text[end])) end++;
      if (target.kind === "bad-scalar" && rejectsAlone(text.slice(i, end))) return pathOf(root, stack);
      if (target.kind === "offset" && target.at < end) return pathOf(root, stack);
      i = end;
    }
  }
  return pathOf(root, stack);
}
