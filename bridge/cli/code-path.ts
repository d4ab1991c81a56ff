/**
 * Tells the bundle's code-cache loader (code-cache-loader.ts) which path a command took, so the V8 code cache of its
 * file comes to cover every path that runs, not only the one of the run that first wrote it (docs/startup.md "Code
 * cache coverage"). A command file and the bin are bundled apart, each with its own copy of every module, so the two
 * meet through one function the loader registers on `globalThis`; without the loader (the tsc output, tests) this
 * does nothing.
 */

/** The key under which the loader registers its function. */
export const CODE_PATH_HOOK = Symbol.for("evidence-bridge.code-cache.cover");

/** Path names: lower-case words, as they are written into a cache file's header. */
export const CODE_PATH_TAG = /^[a-z][a-z-]{0,31}$/;

/** Marks that this run took path `tag` (for example `stored`: the capsule was sealed into the store). */
export function coverCodePath(tag: string): void {
  const hook = (globalThis as Record<symbol, unknown>)[CODE_PATH_HOOK];
  if (typeof hook === "function" && CODE_PATH_TAG.test(tag)) (hook as (t: string) => void)(tag);
}
