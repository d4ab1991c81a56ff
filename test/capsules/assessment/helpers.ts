/** Shared test inputs for the assessment intake: the bridge examples (read in place) and mutation helpers. */
import { readdirSync } from "node:fs";
import { parseStrictJson } from "../../../src/json/parse.js";
import { JsonFloat, type JsonObject, type JsonValue } from "../../../src/json/value.js";
import { pythonJsonText } from "../../../capsules/assessment/json-text.js";
import { hasShared, readShared, sharedPath } from "../../helpers/shared.js";

export const EXAMPLES = "data/bridge-examples";
export const PACK_PATH = sharedPath("data/intelligence-pack/intelligence-pack-v1.json");

/** Names of the valid examples (one definition, in test/helpers/shared.ts). */
export { validExampleNames as validNames } from "../../helpers/shared.js";

export function files(dir: "invalid" | "lenient"): string[] {
  if (!hasShared) return [];
  return readdirSync(sharedPath(EXAMPLES, dir)).filter((f) => f.endsWith(".json")).sort();
}

export function validBytes(name: string): Buffer {
  return readShared(EXAMPLES, "valid", `${name}.json`);
}

export function exampleFile(dir: string, file: string): Buffer {
  return readShared(EXAMPLES, dir, file);
}

export type Seg = string | number;

/** The value at `path` inside a parsed document. */
export function getAt(root: JsonValue, path: readonly Seg[]): JsonValue {
  let cur = root;
  for (const seg of path) cur = typeof seg === "number" ? (cur as JsonValue[])[seg] : (cur as JsonObject).get(seg)!;
  return cur;
}

/** Sets (or with `undefined` deletes) the value at `path`. */
export function setAt(root: JsonValue, path: readonly Seg[], value: JsonValue | undefined): void {
  const parent = getAt(root, path.slice(0, -1));
  const last = path[path.length - 1];
  if (typeof last === "number") {
    if (value === undefined) (parent as JsonValue[]).splice(last, 1);
    else (parent as JsonValue[])[last] = value;
  } else if (value === undefined) (parent as JsonObject).delete(last);
  else (parent as JsonObject).set(last, value);
}

/** Parses `bytes`, lets `edit` change the document, and re-serialises it the way the producer does. */
export function mutate(bytes: Uint8Array, edit: (root: JsonObject) => void): Uint8Array {
  const root = parseStrictJson(bytes) as JsonObject;
  edit(root);
  return new TextEncoder().encode(pythonJsonText(root));
}

/** A JSON object from entries (for building replacement values). */
export function obj(entries: Record<string, JsonValue>): JsonObject {
  return new Map(Object.entries(entries));
}

export function float(x: number, token?: string): JsonFloat {
  return new JsonFloat(x, token);
}
