/**
 * The derivations of a store's capsules for one command: each capsule's {@link Derivation} comes from the sealed
 * derivation cache (capsules/store/derivation-cache.ts) when it holds a row for this capsule, pack and policy, and
 * is otherwise derived ONCE from the opened sealed capsule (deriveCapsule) and remembered, in memory for this
 * command and in the cache by {@link StoredDerivations.save}. Feed, review and exports read candidates and private
 * values through it, so a command parses each capsule at most once, and not at all over an unchanged store.
 *
 * Also: {@link cacheDerivationsOnPut} makes a store write each capsule's derivation as it stores it (put, import).
 */
import type { IntelligencePack } from "../../published/pack/types.js";
import type { CandidateView, DeriveResult } from "../candidates/types.js";
import { DerivationCache, writePendingDerivations, type CachedOutcome, type CachedValues } from "../store/derivation-cache.js";
import type { JsonValue } from "../../src/json/value.js";
import type { SealedStore, StorableCapsule } from "../store/store.js";
import { OutwardGuard } from "../guard/outward-guard.js";
import { BuiltCapsule } from "./build.js";
import { candidateView, deriveCapsule, deriveValues, type CapsuleInput, type Derivation, type KnownAssessment } from "./derive.js";

export interface StoredDerivationsOptions {
  /**
   * Capsules whose candidates this command will read: derived in full even when their values are asked for first
   * (so each is opened once). The values of any other capsule missing from the cache are read without rendering
   * its candidates ({@link StoredDerivations.values}).
   */
  candidatesOf?: ReadonlySet<string>;
}

export class StoredDerivations {
  private readonly fresh = new Map<string, Derivation>();
  private readonly cache: DerivationCache;
  private readonly candidatesOf: ReadonlySet<string>;
  /** How many capsules this command derived in full (cache misses); tests and benchmarks read it. */
  derived = 0;
  /** How many capsules this command read for their values only (values missing from the cache). */
  valuesRead = 0;

  constructor(
    readonly store: SealedStore,
    readonly pack: IntelligencePack,
    opts: StoredDerivationsOptions = {},
  ) {
    this.cache = new DerivationCache({ root: store.layout.root, key: store.keys.store }, pack.sha256);
    this.candidatesOf = opts.candidatesOf ?? new Set();
  }

  /** The candidate outcome of stored capsule `id`. Store failures (missing, unauthenticated capsule) throw. */
  outcome(id: string): CachedOutcome {
    return this.fresh.get(id) ?? this.cache.outcome(id) ?? this.derive(id);
  }

  /** The candidate of stored capsule `id` in `view`. */
  candidate(id: string, view: CandidateView): DeriveResult {
    return candidateView(this.outcome(id), view);
  }

  /**
   * The private values of stored capsule `id` (its own, and those the guard over the whole store adds). On a cache
   * miss only the values are read (pipeline/derive.ts `deriveValues`: the capsule opened and its assessment parsed,
   * no candidate rendered or guarded), unless the command will read the capsule's candidate too; the cache keeps
   * them as a values row, and the capsule's outcome is derived by the first command that needs it.
   */
  values(id: string): CachedValues {
    const known = this.fresh.get(id) ?? this.cache.privateValues(id);
    if (known !== undefined) return known;
    if (this.candidatesOf.has(id)) return this.derive(id);
    const v = deriveValues(this.store.openCapsule(id), this.pack);
    this.valuesRead++;
    this.cache.rememberValuesOnly(id, v);
    return v;
  }

  /**
   * {@link values} with the probe of all of them (guard/probe.ts): computed now when the row has none (a capsule
   * derived by a feed) and remembered, so {@link save} writes it and later commands only read it.
   */
  probedValues(id: string): CachedValues & { probe: Uint32Array } {
    const v = this.values(id);
    if (v.probe !== undefined) return v as CachedValues & { probe: Uint32Array };
    const probed = { privateValues: v.privateValues, storeValues: v.storeValues, probe: probeOfValues(v) };
    this.cache.rememberValues(id, probed);
    // A derivation of this command keeps it too (it is read before the cache).
    const fresh = this.fresh.get(id);
    if (fresh !== undefined) this.fresh.set(id, { ...fresh, probe: probed.probe });
    return probed;
  }

  /** Writes what this command derived (and merged) to the sealed cache; never throws for the cache's sake. */
  save(): void {
    this.cache.save(() => new Set(this.store.capsuleIds()));
  }

  private derive(id: string): Derivation {
    const d = deriveCapsule(this.store.openCapsule(id), this.pack);
    this.derived++;
    this.fresh.set(id, d);
    this.cache.remember(d);
    return d;
  }
}

/**
 * Makes `store` write the derivation of every capsule it stores from now on (put, import), right after the capsule
 * is durably written. A capsule this process built is derived from its intake's already parsed assessment, so it is
 * not parsed again. Returns the derivations written, by id, for the caller to reuse (the MCP preview).
 */
export function cacheDerivationsOnPut(store: SealedStore, pack: IntelligencePack): Map<string, Derivation> {
  const made = new Map<string, Derivation>();
  store.afterPut = (stored: readonly StorableCapsule[]) => cacheDerivations(store, pack, stored, made);
  return made;
}

/**
 * What {@link cacheDerivationsOnPut} does after a put, called by the caller instead: for a one-shot command that has
 * I/O of its own in flight meanwhile (the pack it remembers, whose syncs run while this derives). Adds the
 * derivations to `made`; failures writing the cache are ignored (a cache).
 */
export function cacheDerivations(store: SealedStore, pack: IntelligencePack, stored: readonly StorableCapsule[], made: Map<string, Derivation> = new Map()): Map<string, Derivation> {
  // Each with its probe, made while the forms of its values are still in the guard's cache.
  const list = stored.map((c) => withProbe(deriveStorable(c, pack)));
  for (const d of list) made.set(d.capsule_sha256, d);
  writePendingDerivations({ root: store.layout.root, key: store.keys.store }, list);
  return made;
}

function withProbe(d: Derivation): Derivation {
  return { ...d, probe: probeOfValues(d) };
}

/** The probe of a capsule's own and store values together (one probe answers for both: a superset of each). */
export function probeOfValues(v: Pick<Derivation, "privateValues" | "storeValues">): Uint32Array {
  // Repeated values give repeated hashes, which the probe drops (cheaper than finding the repeated values first).
  return OutwardGuard.probeOf(v.privateValues === undefined ? v.storeValues : [...v.storeValues, ...v.privateValues]);
}

/** The derivation of a capsule this process built (from its intake's parsed assessment) or opened. */
export function deriveStorable(c: StorableCapsule, pack: IntelligencePack): Derivation {
  return c instanceof BuiltCapsule ? deriveCapsule(builtInput(c), pack, knownOf(c)) : deriveCapsule(c, pack);
}

/** A built capsule as derivation input: its bytes and its envelope as the strict loader's map would hold it. */
function builtInput(c: BuiltCapsule): CapsuleInput {
  const e = c.envelope;
  return { bytes: c.bytes, envelope: new Map<string, JsonValue>([["attestations", e.attestations], ["content", e.content], ["content_sha256", e.content_sha256]]) };
}

function knownOf(c: BuiltCapsule): KnownAssessment {
  return { bytes: c.intake.bytes, value: c.intake.value, assessment: c.intake.assessment };
}
