/** The one error type of the pack loader and matcher: names the JSON path and the violated rule. */
import { indexPath, memberPath } from "../json/value.js";

export class PackError extends Error {
  override readonly name = "PackError";
  constructor(
    /** JSON path of the offending value (`pack.typologies[2].indicators[0].any_terms[3]`), or `pack`. */
    readonly path: string,
    /** Short rule name (`unknown-field`, `https-url`, `unique`, `json:duplicate-key`, …). */
    readonly rule: string,
    /** What is wrong, without the path. */
    readonly detail: string,
  ) {
    super(`${path}: ${detail} (${rule})`);
  }
}

const PLAIN_KEY = /^[A-Za-z_][A-Za-z0-9_-]*$/;

/** Appends path segments: keys as `.key` (or `["odd key"]` when not plain), indexes as `[i]`. */
export function joinPath(root: string, segments: readonly PropertyKey[]): string {
  let p = root;
  for (const seg of segments) {
    if (typeof seg === "number") p = indexPath(p, seg);
    else {
      const key = String(seg);
      p = PLAIN_KEY.test(key) ? memberPath(p, key) : `${p}[${JSON.stringify(key)}]`;
    }
  }
  return p;
}
