/**
 * The pack's signal vocabulary: every signal name its indicators' `any_signals` / `all_signals` clauses refer to,
 * with the typologies that use it. `pack signals` lists it; `pack match` warns about names outside it.
 */
import type { IntelligencePack } from "./types.js";

export interface PackSignal {
  name: string;
  /** Typology ids whose indicators name this signal, in pack order. */
  typologies: string[];
}

/** Signal names of the pack, sorted, each with the typologies that use it. */
export function packSignals(pack: IntelligencePack): PackSignal[] {
  const byName = new Map<string, string[]>();
  for (const t of pack.typologies) {
    for (const ind of t.indicators) {
      for (const s of [...ind.any_signals, ...ind.all_signals]) {
        const list = byName.get(s) ?? [];
        if (!list.includes(t.id)) list.push(t.id);
        byName.set(s, list);
      }
    }
  }
  return [...byName.keys()].sort().map((name) => ({ name, typologies: byName.get(name)! }));
}

/** The given names the pack never refers to, in the order given. */
export function unknownSignals(pack: IntelligencePack, names: Iterable<string>): string[] {
  const known = new Set(packSignals(pack).map((s) => s.name));
  return [...names].filter((n) => !known.has(n));
}
