/**
 * Per-verification memo for byte-heavy steps that several derivations or bindings may repeat over the same
 * artifact (strict parses, payload hashes, envelope walks). Expected failures are remembered and rethrown like
 * results; any other error propagates uncached.
 */
export class FailureMemo<T> {
  private readonly cache = new Map<string, { value: T } | { failure: Error }>();

  constructor(private readonly isExpected: (e: unknown) => e is Error) {}

  get(key: string, compute: () => T): T {
    let out = this.cache.get(key);
    if (out === undefined) {
      try {
        out = { value: compute() };
      } catch (e) {
        if (!this.isExpected(e)) throw e;
        out = { failure: e };
      }
      this.cache.set(key, out);
    }
    if ("failure" in out) throw out.failure;
    return out.value;
  }
}
