/**
 * The artifacts that passed the artifacts stage (capsule-v1 §8.4): only these are usable downstream. Strict JSON
 * parses of their bytes are memoised, because several derivations and bindings usually read the same artifact.
 */
import { JsonLoadError, parseStrictJson } from "../../src/json/parse.js";
import type { JsonValue } from "../../src/json/value.js";

export type ParsedDocument = { value: JsonValue } | { error: string };

export class ResolvedArtifacts {
  private readonly parsed = new Map<string, ParsedDocument>();

  constructor(private readonly bytes: ReadonlyMap<string, Uint8Array> = new Map()) {}

  has(id: string): boolean {
    return this.bytes.has(id);
  }

  get(id: string): Uint8Array | undefined {
    return this.bytes.get(id);
  }

  /** The strict-JSON parse (capsule-v1 §3) of a resolved artifact; loader failures become `error`. */
  json(id: string): ParsedDocument {
    let doc = this.parsed.get(id);
    if (doc === undefined) {
      const bytes = this.bytes.get(id);
      if (bytes === undefined) throw new Error(`artifact ${id} is not resolved`);
      try {
        doc = { value: parseStrictJson(bytes) };
      } catch (e) {
        if (!(e instanceof JsonLoadError)) throw e;
        doc = { error: e.message };
      }
      this.parsed.set(id, doc);
    }
    return doc;
  }
}
