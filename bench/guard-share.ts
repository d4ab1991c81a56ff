/**
 * How much of an in-process run the outward guard takes (issue 11: the guard may cost the feed and the review export
 * at most 10 %): wraps the guard's entry points (`add`, which indexes values, `check`/`checkText`/`checkCall`, and
 * the static `narrowed`/`valuesThatMayOccur`/`probeOf`, which fold every stored value they are given, and
 * `OutwardTexts.of`/`valuesIn`, which prepare outward texts once for several narrowings)
 * with a timer for as long as the returned meter is installed. Nested calls are counted once. Benchmarks only.
 */
import { performance } from "node:perf_hooks";
import { OutwardGuard, OutwardTexts } from "../capsules/guard/outward-guard.js";
import type { BenchResult } from "./harness.js";

type Method = "add" | "check" | "checkText" | "checkCall";
const METHODS: readonly Method[] = ["add", "check", "checkText", "checkCall"];
type Static = "narrowed" | "valuesThatMayOccur" | "probeOf";
const STATICS: readonly Static[] = ["narrowed", "valuesThatMayOccur", "probeOf"];

export interface GuardMeter {
  /** Guard milliseconds since the last reset. */
  ms(): number;
  reset(): void;
  uninstall(): void;
}

export function installGuardMeter(): GuardMeter {
  const proto = OutwardGuard.prototype as unknown as Record<Method, (...a: unknown[]) => unknown>;
  const originals = METHODS.map((m) => [m, proto[m]] as const);
  let total = 0;
  let depth = 0;
  const timed = (original: (...a: unknown[]) => unknown) =>
    function (this: unknown, ...args: unknown[]) {
      if (depth++ > 0) {
        try {
          return original.apply(this, args);
        } finally {
          depth--;
        }
      }
      const t0 = performance.now();
      try {
        return original.apply(this, args);
      } finally {
        depth--;
        total += performance.now() - t0;
      }
    };
  for (const [m, original] of originals) proto[m] = timed(original);
  // The constructors of narrowed guards: they fold every stored value they consider (outward-guard.ts).
  const statics = OutwardGuard as unknown as Record<Static, (...a: unknown[]) => unknown>;
  const staticOriginals = STATICS.map((m) => [m, statics[m]] as const);
  for (const [m, original] of staticOriginals) statics[m] = timed(original);
  // Outward texts prepared once for several narrowings (an export's decisions), and the narrowing to them.
  const texts = OutwardTexts as unknown as Record<"of", (...a: unknown[]) => unknown>;
  const textsProto = OutwardTexts.prototype as unknown as Record<"valuesIn", (...a: unknown[]) => unknown>;
  const of = texts.of;
  const valuesIn = textsProto.valuesIn;
  texts.of = timed(of);
  textsProto.valuesIn = timed(valuesIn);
  return {
    ms: () => total,
    reset: () => {
      total = 0;
    },
    uninstall: () => {
      for (const [m, original] of originals) proto[m] = original;
      for (const [m, original] of staticOriginals) statics[m] = original;
      texts.of = of;
      textsProto.valuesIn = valuesIn;
    },
  };
}

/**
 * A row for issue 11's "the feed and review export benchmarks do not slow down by more than `limitPct` %": what the
 * guard adds to the run without it, `guard / (run - guard)` (a share of the whole run, also printed, reads lower:
 * 10 % of the run is 11.1 % added).
 */
export function guardShareRow(name: string, guardMs: number, runMs: number, limitPct: number, figures: BenchResult["figures"] = {}): BenchResult {
  const pct = Math.round((guardMs / runMs) * 1000) / 10;
  const added = Math.round((guardMs / (runMs - guardMs)) * 1000) / 10;
  return {
    name,
    median_ms: guardMs,
    figures: { ...figures, "run ms": Math.round(runMs), "guard %": pct, "added %": added },
    target: `guard adds ≤ ${limitPct} % to the run`,
    met: added <= limitPct,
  };
}
