/** The one error type of the pack loader and matcher: names the JSON path and the violated rule. */
import { indexPath, memberPath } from "../../src/json/value.js";

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

/** Keys echoed in errors about private documents; any other key is described by its length only. */
const SAFE_KEY = /^[a-z_][a-z0-9_]{0,63}$/;

/**
 * A {@link PackError} for an unknown field of a private document (assessment, observation): a plain lowercase key is
 * named in the path, any other key (it could carry message content) is described only by its length.
 */
export function unknownFieldError(path: string, key: string): PackError {
  if (SAFE_KEY.test(key)) return new PackError(`${path}.${key}`, "unknown-field", "unknown field");
  return new PackError(path, "unknown-field", `unknown field <key of ${[...key].length} characters>`);
}
