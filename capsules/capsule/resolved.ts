/**
 * The artifacts that passed the artifacts stage (capsule-v1 §8.4): only these are usable downstream. Strict JSON
 * parses of their bytes are memoised, because several derivations and bindings usually read the same artifact.
 */
import { JsonLoadError, parseStrictJson } from "../../src/json/parse.js";
import type { JsonValue } from "../../src/json/value.js";
import { FailureMemo } from "./memo.js";

export class ResolvedArtifacts {
  private readonly parsed = new FailureMemo<JsonValue>((e): e is JsonLoadError => e instanceof JsonLoadError);

  /**
   * `known`: artifact id → the strict-JSON value of exactly its bytes, parsed by the caller before verification
   * (VerifyOptions.parsedDocuments); read instead of parsing the bytes again.
   */
  constructor(
    private readonly bytes: ReadonlyMap<string, Uint8Array> = new Map(),
    private readonly known: ReadonlyMap<string, JsonValue> = new Map(),
  ) {}

  has(id: string): boolean {
    return this.bytes.has(id);
  }

  get(id: string): Uint8Array | undefined {
    return this.bytes.get(id);
  }

  /** The strict-JSON parse (capsule-v1 §3) of a resolved artifact; throws {@link JsonLoadError} (memoised). */
  json(id: string): JsonValue {
    const bytes = this.bytes.get(id);
    if (bytes === undefined) throw new Error(`artifact ${id} is not resolved`);
    return this.parsed.get(id, () => this.known.get(id) ?? parseStrictJson(bytes));
  }
}
