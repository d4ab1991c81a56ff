/**
 * Match tokens of a sealed store: every stored IOC value (detector IOCs by kind, and observation-bound IOC values
 * with their kind) of every capsule whose assessment reads, canonicalised (canonical.ts) and keyed under a group
 * key. Export writes them all, without capsule ids; match compares a received file with the local tokens and
 * names local capsules and kinds, never values. The token file passes the outward guard against the store's
 * private values before it is returned.
 */
import { AssessmentError } from "../assessment/errors.js";
import { parseAssessment } from "../assessment/parse-assessment.js";
import type { Assessment } from "../assessment/types.js";
import { readCapsuleSource } from "../pipeline/capsule-source.js";
import { OutwardGuard, type ValueGroup } from "../guard/outward-guard.js";
import { assessmentPrivateValues, type PrivateValue } from "../guard/private-values.js";
import { guardExport } from "../exports/guard-export.js";
import type { SealedStore } from "../store/store.js";
import { IOC_KINDS, type IocKind } from "../../published/pack/vocabulary.js";
import { canonicalIoc } from "./canonical.js";
import type { GroupKey } from "./group-key.js";
import { matchToken, tokenFileBytes, TokenFileError, type TokenFile } from "./token-file.js";

interface CapsuleIocs {
  id: string;
  values: { kind: IocKind; value: string }[];
  /** The assessment's private values (the guard over the token file), when asked for. */
  privateValues?: PrivateValue[];
}

function readAssessment(store: SealedStore, id: string): Assessment | undefined {
  const source = readCapsuleSource(store.openCapsule(id));
  if (!source.ok) return undefined;
  try {
    return parseAssessment(source.assessmentBytes).assessment;
  } catch (e) {
    if (e instanceof AssessmentError) return undefined;
    throw e;
  }
}

function iocsOf(a: Assessment): { kind: IocKind; value: string }[] {
  const out: { kind: IocKind; value: string }[] = [];
  const iocs = a.detector.iocs as Partial<Record<IocKind, string[]>>;
  for (const kind of IOC_KINDS) for (const value of iocs[kind] ?? []) out.push({ kind, value });
  for (const h of a.hypotheses) {
    for (const o of h.external_observations) {
      if (o.matched_ioc_kind !== "" && o.matched_ioc_value !== "") out.push({ kind: o.matched_ioc_kind, value: o.matched_ioc_value });
    }
  }
  return out;
}

/**
 * Every readable capsule's IOC values, one capsule at a time: a capsule's parsed assessment is dropped as soon as its
 * values are taken (a store of 100,000 capsules never holds 100,000 parsed assessments).
 */
function* storeIocs(store: SealedStore, opts: { privateValues?: boolean } = {}): Generator<CapsuleIocs> {
  for (const id of store.capsuleIds()) {
    const assessment = readAssessment(store, id);
    if (assessment !== undefined) yield { id, values: iocsOf(assessment), privateValues: opts.privateValues ? assessmentPrivateValues(assessment) : undefined };
  }
}

/** Per capsule, per kind, its tokens. */
function tokensOf(c: CapsuleIocs, key: GroupKey): Map<IocKind, Set<string>> {
  const m = new Map<IocKind, Set<string>>();
  for (const { kind, value } of c.values) {
    const canonical = canonicalIoc(kind, value);
    if (canonical === undefined) continue;
    let set = m.get(kind);
    if (set === undefined) m.set(kind, (set = new Set()));
    set.add(matchToken(key.key, kind, canonical));
  }
  return m;
}

export interface TokenExport {
  bytes: Uint8Array;
  counts: Partial<Record<IocKind, number>>;
  capsules: number;
}

/**
 * The store's token file under `key`, guarded (the tokens and the generation time exempt, everything else searched); throws
 * {@link TokenFileError} on a guard hit. The guard is the one
 * over every stored capsule's private values, narrowed to the values that may occur in the file (outward-guard.ts
 * `narrowed`: the same verdict on the file as the full guard, without indexing every value of the store).
 */
export function exportStoreTokens(store: SealedStore | undefined, key: GroupKey, now = new Date()): TokenExport {
  const tokens = new Map<IocKind, Set<string>>();
  const groups: ValueGroup[] = [];
  let capsules = 0;
  for (const c of store === undefined ? [] : storeIocs(store, { privateValues: true })) {
    capsules++;
    groups.push({ values: c.privateValues! });
    for (const [kind, set] of tokensOf(c, key)) {
      let all = tokens.get(kind);
      if (all === undefined) tokens.set(kind, (all = new Set()));
      for (const t of set) all.add(t);
    }
  }
  const file: TokenFile = { keyId: key.keyId, generatedAt: Math.floor(now.getTime() / 1000), tokens };
  const bytes = tokenFileBytes(file);
  // Two parts of the file are public by construction and not searched: the tokens (keyed HMACs, each checked to be
  // 64 lowercase hex digits by tokenFileBytes) and the generation time (the clock). A hex digest holds digit runs,
  // and a 10-digit time is one, that a phone number's digits match by chance once a store holds a few hundred phones
  // (the file of a 1,000-capsule store was refused). Everything else of the file is searched: the same bytes with
  // the time written as 0, the tokens taken out.
  const isToken = (s: string) => s.length === 64 && [...tokens.values()].some((set) => set.has(s));
  const searchedBytes = tokenFileBytes({ ...file, generatedAt: 0 });
  const text = new TextDecoder().decode(searchedBytes);
  const searched = text.replace(/"([0-9a-f]{64})"/g, (whole, t: string) => (isToken(t) ? '" "' : whole));
  // What guardExport searches: the text without the tokens and the parsed value without them.
  const guard = OutwardGuard.narrowed(groups, [searched, JSON.parse(text) as unknown], { isPublic: isToken });
  const reason = guardExport(searchedBytes, guard, { json: true, what: "the token file", isPublicString: isToken });
  if (reason !== undefined) throw new TokenFileError(`refused, nothing was written: ${reason}`);
  const counts: Partial<Record<IocKind, number>> = {};
  for (const [k, s] of tokens) counts[k] = s.size;
  return { bytes, counts, capsules };
}

export interface TokenMatch {
  capsule_sha256: string;
  kinds: IocKind[];
}

/**
 * Local capsules sharing at least one token with `received`, sorted by id, with the kinds that matched. The
 * received file must name the same key id as the local group key.
 */
export function matchStoreTokens(store: SealedStore | undefined, key: GroupKey, received: TokenFile): TokenMatch[] {
  if (received.keyId !== key.keyId) {
    throw new TokenFileError(`the tokens were made under key ${received.keyId}, but group ${key.name} has key ${key.keyId}: tokens under another key match nothing`);
  }
  const out: TokenMatch[] = [];
  for (const c of store === undefined ? [] : storeIocs(store)) {
    const kinds: IocKind[] = [];
    for (const [kind, set] of tokensOf(c, key)) {
      const theirs = received.tokens.get(kind);
      if (theirs !== undefined && [...set].some((t) => theirs.has(t))) kinds.push(kind);
    }
    if (kinds.length > 0) out.push({ capsule_sha256: c.id, kinds: IOC_KINDS.filter((k) => kinds.includes(k)) });
  }
  return out.sort((a, b) => (a.capsule_sha256 < b.capsule_sha256 ? -1 : a.capsule_sha256 > b.capsule_sha256 ? 1 : 0));
}
