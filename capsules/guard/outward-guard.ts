/**
 * The one outward guard (product.md §2, §8 rule 6, §9; docs/guard.md): every outward channel (upstream requests,
 * outward candidates, review notes and exports, `get_candidates` results, later exports and token files) asks it
 * whether what it is about to send holds a private value in any usual form. A hit names the KIND of value only,
 * never the value, the matching text or where in a value it was found.
 *
 *     const guard = new OutwardGuard();
 *     guard.add(storeValues);                   // private-values.ts: store capsules, message texts of this process
 *     guard.checkText("call 98765 01234")       // → { kind: "ioc_value" } | undefined
 *     guard.check(candidate, "candidate")       // → { ok: true } | { ok: false, hits, reason }
 *
 * Over 400 lines: the guard, its narrowed variant and the outward texts it is narrowed to share the private index
 * tables and must give the same verdicts, so they are kept together.
 *
 * Every value's forms (value-forms.ts) are computed once, when it is added, into indexes: compact forms by
 * {@link KEY_LONG} (or {@link KEY_SHORT}) of their characters (the first, middle or last ones, whichever are least
 * shared), whole-token forms in a set, every 7-digit window of phone digits as a number and every 12-digit window
 * of hex values as a 48-bit number. A check folds the outward text (and every decoding layer of it, forms.ts)
 * once and looks each position up, so its cost grows with the outward text, not with the size of the store.
 */
import { indexPath, isJsonFloat, isJsonObject, memberPath } from "../../src/json/value.js";
import { type Bucket, fileForm, formAtKey, KEY_LONG, KEY_SHORT, kindOf, KINDS, WindowKeys } from "./index-tables.js";
import type { MessageFingerprints } from "./message-shingles.js";
import type { PrivateKind, PrivateValue } from "./private-values.js";
import { OutwardProbe, textHashes, valuesProbe } from "./probe.js";
import {
  digitTableOf,
  forgetPreparedTexts,
  hexTableOf,
  prepared,
  type Prepared,
  shareable,
  type SharedTexts,
  sharedHolding,
  summaryKey,
  summaryToken,
} from "./prepared-texts.js";
import { forgetValueForms, valueForms } from "./value-forms.js";

/** A guard hit: what kind of private value was found. Never carries the value. */
export interface GuardHit {
  readonly kind: PrivateKind;
}

export type GuardVerdict = { ok: true } | { ok: false; hits: { kind: PrivateKind; path: string }[]; reason: string };

/** Guards with at most this many text forms search each form directly. */
const DIRECT_MAX = 256;
/** Deeper nesting is not searched; it is reported instead. */
const MAX_DEPTH = 64;
const SAFE_NAME = /^[a-z_][a-z0-9_]{0,63}$/;

export interface CheckOptions {
  /**
   * Strings for which this returns true are not searched (exact public text: a pack label, a fixed template
   * sentence). Only whole strings are exempt; anything else around them is searched.
   */
  isPublic?: (s: string) => boolean;
}

/** A group of private values (one stored capsule's), with their probe when one was kept (probe.ts). */
export interface ValueGroup {
  readonly values: readonly PrivateValue[];
  readonly probe?: Uint32Array;
}

export class OutwardGuard {
  /**
   * Every text form with its kind (the first value's kind when several values share a form), as two lists while
   * the guard holds at most {@link DIRECT_MAX} of them (a capsule's worth: each form is searched directly, and a
   * list is cheaper to fill and to read than a map); past that in {@link forms}, and filed in {@link long} and
   * {@link mid} by key ({@link indexed}).
   */
  private formList: string[] = [];
  private formKinds: PrivateKind[] = [];
  private readonly forms = new Map<string, PrivateKind>();
  private indexed = false;
  private readonly long = new Map<string, Bucket>();
  private readonly mid = new Map<string, Bucket>();
  private readonly short = new Map<string, PrivateKind>();
  private readonly hex = new WindowKeys();
  private readonly digits = new WindowKeys();
  private count = 0;
  /**
   * Message fingerprints (message-shingles.ts): outward text sharing a shingle with a message the bridge was given,
   * in this process or an earlier one, is a `message_text` hit. Set by the store guards (store-guard.ts).
   */
  fingerprints: MessageFingerprints | undefined;

  constructor(values: Iterable<PrivateValue> = []) {
    this.add(values);
  }

  /** Number of private values added. */
  get size(): number {
    return this.count;
  }

  /** True when no value was added (every check passes). */
  get empty(): boolean {
    return (
      this.formList.length === 0 &&
      this.forms.size === 0 &&
      this.short.size === 0 &&
      this.hex.size === 0 &&
      this.digits.size === 0 &&
      (this.fingerprints === undefined || this.fingerprints.empty)
    );
  }

  /**
   * A quick pass for small guards: false when no form, token or window of this guard can occur in any of the
   * texts (then every check of them passes); true when the full search must run.
   */
  private mayHit(texts: readonly string[]): boolean {
    if (this.indexed) return true;
    // Texts met before (pack labels, template sentences, member names) are asked through the shared summary once;
    // texts met for the first time are searched on their own.
    const fresh: Prepared[] = [];
    const repeated: Prepared[] = [];
    for (const t of texts) {
      const p = prepared(t);
      (p.met++ > 0 && shareable(p) ? repeated : fresh).push(p);
    }
    if (fresh.length > 0 && this.mayHitIn(fresh)) return true;
    if (repeated.length === 0) return false;
    const summary = sharedHolding(repeated);
    if (summary !== undefined && !this.mayMeet(summary)) return false;
    return this.mayHitIn(repeated);
  }

  /** False when no form, token or window of this (small) guard is in the shared summary. */
  private mayMeet(s: SharedTexts): boolean {
    const forms = this.formList;
    for (let i = 0; i < forms.length; i++) if (s.keys.has(summaryKey(forms[i]))) return true;
    for (const t of this.short.keys()) if (s.tokens.has(summaryToken(t))) return true;
    if (this.hex.size > 0 && this.hex.mayMeet(s.hex)) return true;
    if (this.digits.size > 0 && this.digits.mayMeet(s.digits)) return true;
    return false;
  }

  /** False when no form, token or window of this (small) guard occurs in any of `ps`. */
  private mayHitIn(ps: readonly Prepared[]): boolean {
    const forms = this.formList;
    if (forms.length > 0) {
      // One string for every text: a search per form, not per form and text (candidates have dozens of strings).
      const joined = ps.length === 1 ? ps[0].joined : ps.map((p) => p.joined).join("\u0000");
      for (let i = 0; i < forms.length; i++) if (joined.includes(forms[i])) return true;
    }
    if (this.short.size > 0) for (const p of ps) for (const t of p.tokens) if (this.short.has(t)) return true;
    if (this.hex.size > 0) for (const p of ps) if (this.hex.meets(p.hexKeys, () => hexTableOf(p))) return true;
    if (this.digits.size > 0) for (const p of ps) if (this.digits.meets(p.digitKeys, () => digitTableOf(p))) return true;
    return false;
  }

  /**
   * The values of `groups` that may occur in `outward` (any form, any decoding layer): a superset of the values
   * {@link OutwardGuard.check} would find there, so a guard over only these gives the same verdict on `outward` as a
   * guard over all of them. For a small outward value and a large store (a review note, the decisions of an export):
   * the outward text is prepared once; a group whose probe (probe.ts) shares no key with it is passed over unread,
   * and each value of the other groups has its forms (value-forms.ts, cached) looked up in it, instead of indexing
   * every stored value to search a few words.
   */
  static valuesThatMayOccur(groups: Iterable<ValueGroup>, outward: unknown, opts: CheckOptions = {}): PrivateValue[] {
    const texts = OutwardTexts.of([{ value: outward, opts }]);
    // Nesting too deep to search: every value is kept, and the full check reports the nesting.
    return texts === undefined ? [...groups].flatMap((g) => g.values) : texts.valuesIn(groups);
  }

  /**
   * A guard over only the values of `groups` that may occur in `outward` ({@link valuesThatMayOccur}); with
   * `opts.isPublic`, as checked with the same option (strings it exempts are not searched, so not looked at here).
   * `outward` may be {@link OutwardTexts} made once for several checks: then the guard holds the values that may occur
   * in any of them, so it gives the verdict of the full guard on each.
   */
  static narrowed(groups: Iterable<ValueGroup>, outward: unknown, opts: CheckOptions = {}): OutwardGuard {
    return new OutwardGuard(outward instanceof OutwardTexts ? outward.valuesIn(groups) : OutwardGuard.valuesThatMayOccur(groups, outward, opts));
  }

  /** The probe of `values` (probe.ts), kept with a capsule's derivation for {@link valuesThatMayOccur}. */
  static probeOf(values: readonly PrivateValue[]): Uint32Array {
    return valuesProbe(values);
  }

  /** Adds private values (their forms are computed now, once). */
  add(values: Iterable<PrivateValue>): void {
    // Index loops over arrays (the usual argument): no iterator object per value and per form.
    const list = Array.isArray(values) ? (values as readonly PrivateValue[]) : [...values];
    for (let i = 0; i < list.length; i++) {
      const v = list[i];
      this.count++;
      const f = valueForms(v);
      const kind = KINDS.indexOf(v.kind);
      for (let j = 0; j < f.text.length; j++) this.addText(f.text[j], v.kind, kind);
      for (let j = 0; j < f.tokens.length; j++) if (!this.short.has(f.tokens[j])) this.short.set(f.tokens[j], v.kind);
      this.hex.addAll(f.hexKeys, kind);
      this.digits.addAll(f.digitKeys, kind);
    }
  }

  private addText(form: string, kind: PrivateKind, kindIndex: number): void {
    if (this.indexed) {
      if (this.forms.has(form)) return;
      this.forms.set(form, kind);
      this.index(form, kindIndex);
      return;
    }
    if (this.formList.includes(form)) return;
    this.formList.push(form);
    this.formKinds.push(kind);
    if (this.formList.length > DIRECT_MAX) {
      // Grown past a capsule's worth of values: every form is looked up by key from now on.
      this.indexed = true;
      for (let i = 0; i < this.formList.length; i++) {
        this.forms.set(this.formList[i], this.formKinds[i]);
        this.index(this.formList[i], KINDS.indexOf(this.formKinds[i]));
      }
      this.formList = [];
      this.formKinds = [];
    }
  }

  private index(form: string, kind: number): void {
    if (form.length >= KEY_LONG) fileForm(this.long, form, KEY_LONG, kind);
    else fileForm(this.mid, form, KEY_SHORT, kind);
  }

  /** The kinds found in a compact text. */
  private scanCompact(c: string, found: Set<PrivateKind>): void {
    const n = c.length;
    if (n < KEY_SHORT) return;
    if (!this.indexed) {
      // A guard over one capsule: a direct search per form is cheaper than a lookup per position.
      const forms = this.formList;
      for (let i = 0; i < forms.length; i++) if (c.includes(forms[i])) found.add(this.formKinds[i]);
      return;
    }
    const hasMid = this.mid.size > 0;
    for (let p = 0; p + KEY_SHORT <= n; p++) {
      if (hasMid) {
        const b = this.mid.get(c.substr(p, KEY_SHORT));
        if (b !== undefined) this.verify(c, p, b, found);
      }
      if (p + KEY_LONG <= n) {
        const b = this.long.get(c.substr(p, KEY_LONG));
        if (b !== undefined) this.verify(c, p, b, found);
      }
    }
  }

  private verify(c: string, p: number, b: Bucket, found: Set<PrivateKind>): void {
    if (typeof b === "string") {
      if (formAtKey(c, p, b)) found.add(kindOf(b));
    } else for (const t of b) if (formAtKey(c, p, t)) found.add(kindOf(t));
  }

  private scanKeys(keys: readonly number[], set: WindowKeys, found: Set<PrivateKind>): void {
    for (const k of keys) {
      const kind = set.get(k);
      if (kind >= 0) found.add(KINDS[kind]);
    }
  }

  /** Every kind found in one outward text, in any form and decoding layer (in the order of `KINDS`). */
  kindsIn(text: string, opts: { tokens?: boolean } = {}): Set<PrivateKind> {
    const found = new Set<PrivateKind>();
    if (this.empty || text === "") return found;
    const p = prepared(text);
    if (this.formList.length > 0 || this.forms.size > 0) for (const c of p.compacts) this.scanCompact(c, found);
    if (this.short.size > 0 && opts.tokens !== false) {
      for (const tok of p.tokens) {
        const kind = this.short.get(tok);
        if (kind !== undefined) found.add(kind);
      }
    }
    if (this.hex.size > 0) this.scanKeys(p.hexKeys, this.hex, found);
    if (this.digits.size > 0) this.scanKeys(p.digitKeys, this.digits, found);
    if (opts.tokens !== false && this.fingerprints !== undefined && !found.has("message_text") && this.fingerprints.holdsShingleOf(text)) found.add("message_text");
    // In the one order of KINDS, whichever way this guard searched (direct or indexed: a narrowed guard may be
    // either), so verdicts and their reasons are the same from every guard that finds the same kinds.
    return found.size > 1 ? new Set(KINDS.filter((k) => found.has(k))) : found;
  }

  /** The first private value found in one outward text (its kind only), or undefined. */
  checkText(text: string): GuardHit | undefined {
    const found = this.kindsIn(text);
    for (const kind of found) return { kind };
    return undefined;
  }

  /**
   * Searches every string, member name and number of `value` (plain objects, Maps, arrays; numbers as their
   * text: a number whose digits are an IOC's digits is that IOC; short values never match inside numbers).
   * `root` names the value in paths (`candidate.detector.score`); paths echo only plain lowercase identifiers.
   */
  check(value: unknown, root: string, opts: CheckOptions = {}): GuardVerdict {
    if (this.empty) return { ok: true };
    if (!this.indexed && (this.fingerprints === undefined || this.fingerprints.empty)) {
      const texts: string[] = [];
      if (collectTexts(value, 0, texts, opts.isPublic) && !this.mayHit(texts)) return { ok: true };
    }
    const hits: { kind: PrivateKind; path: string }[] = [];
    const seen = new Set<object>();
    const text = (s: string, where: string, tokens: boolean): boolean => {
      if (opts.isPublic?.(s)) return false;
      const kinds = this.kindsIn(s, { tokens });
      for (const kind of kinds) hits.push({ kind, path: where });
      return kinds.size > 0;
    };
    const member = (path: string, k: string, x: unknown, depth: number): void => {
      const leaked = text(k, `a member name of ${path}`, true);
      walk(x, memberPath(path, leaked || !SAFE_NAME.test(k) ? "<member>" : k), depth + 1);
    };
    const walk = (v: unknown, path: string, depth: number): void => {
      if (depth > MAX_DEPTH) {
        hits.push({ kind: "ioc_value", path: `unsearchable nesting at ${path}` });
        return;
      }
      if (typeof v === "string") text(v, path, true);
      else if (typeof v === "number" || typeof v === "bigint") text(String(v), path, false);
      else if (isJsonFloat(v)) text(v.token ?? String(v.value), path, false);
      else if (v !== null && typeof v === "object") {
        if (seen.has(v)) return;
        seen.add(v);
        if (Array.isArray(v)) v.forEach((x, i) => walk(x, indexPath(path, i), depth + 1));
        else if (isJsonObject(v) || v instanceof Map) for (const [k, x] of v as Map<unknown, unknown>) member(path, String(k), x, depth);
        else for (const [k, x] of Object.entries(v)) member(path, k, x, depth);
      }
    };
    walk(value, root, 0);
    if (hits.length === 0) return { ok: true };
    return { ok: false, hits, reason: `leak guard: ${summarizeHits(hits)}` };
  }

  /**
   * The check of one upstream call (product.md §9): every argument, `_meta`, the exact argument text as sent and
   * the joined text of all argument values (a value split across two arguments is found whole).
   */
  checkCall(args: unknown, meta: unknown, argumentsText: string | undefined): GuardVerdict {
    if (this.empty) return { ok: true };
    const verdicts = [this.check(args, "arguments"), this.check(meta ?? null, "_meta")];
    if (argumentsText !== undefined) verdicts.push(this.check(argumentsText, "the argument text"));
    const joined = leafTexts(args);
    if (joined.length > 1) verdicts.push(this.check(joined.join(""), "the joined argument text"));
    const hits = verdicts.flatMap((v) => (v.ok ? [] : v.hits));
    if (hits.length === 0) return { ok: true };
    return { ok: false, hits, reason: `leak guard: ${summarizeHits(hits)}` };
  }
}

/**
 * Outward values prepared for narrowing guards to them (outward-guard.ts {@link OutwardGuard.valuesThatMayOccur}):
 * every text the full search would look at, each distinct text prepared once (prepared-texts.ts), and the probe of
 * all their keys. Made once for several outward values (the decision records of one export), it answers for all of
 * them together: a value that may occur in any of them is kept, so a guard narrowed to it gives the full guard's
 * verdict on each one (with the same `isPublic` as each was collected with).
 */
export class OutwardTexts {
  private readonly probe: OutwardProbe;
  private look: { keys: Set<string>; joined: string; tokens: Set<string>; hexKeys: Set<number>; digitKeys: Set<number> } | undefined;

  private constructor(private readonly ps: readonly Prepared[]) {
    this.probe = new OutwardProbe(ps.map((p) => (p.hashes ??= textHashes(p.joined, p.tokens, p.hexKeys, p.digitKeys))));
  }

  /** The texts of every item; undefined when one nests too deep to search (then nothing may be passed over). */
  static of(items: readonly { value: unknown; opts?: CheckOptions }[]): OutwardTexts | undefined {
    const texts: string[] = [];
    for (const { value, opts } of items) if (!collectTexts(value, 0, texts, opts?.isPublic)) return undefined;
    // Each distinct text once (decision records repeat their member names, note and reviewer name).
    return new OutwardTexts([...new Set(texts)].map((t) => prepared(t)));
  }

  /** The values of `groups` that may occur in these texts (see {@link OutwardGuard.valuesThatMayOccur}). */
  valuesIn(groups: Iterable<ValueGroup>): PrivateValue[] {
    // Stores repeat values (signal names, amounts, a wallet seen in many messages): each is judged once.
    const judged = new Map<string, { kind: PrivateKind; ioc: string | undefined; hit: boolean }>();
    const out: PrivateValue[] = [];
    for (const g of groups) {
      if (g.probe !== undefined && !this.probe.sharesAny(g.probe)) continue;
      for (const v of g.values) {
        const prior = judged.get(v.value);
        let hit: boolean;
        if (prior !== undefined && prior.kind === v.kind && prior.ioc === v.ioc) hit = prior.hit;
        else {
          hit = this.mayOccur(v);
          judged.set(v.value, { kind: v.kind, ioc: v.ioc, hit });
        }
        if (hit) out.push(v);
      }
    }
    return out;
  }

  /** Made only when a group's probe shares a key (most groups are passed over on their probe alone). */
  private lookups(): NonNullable<OutwardTexts["look"]> {
    if (this.look !== undefined) return this.look;
    const ps = this.ps;
    const joined = ps.map((p) => p.joined).join("\u0000");
    const keys = new Set<string>();
    for (let i = 0; i + KEY_SHORT <= joined.length; i++) keys.add(joined.substr(i, KEY_SHORT));
    return (this.look = {
      keys,
      joined,
      tokens: new Set(ps.flatMap((p) => p.tokens)),
      hexKeys: new Set(ps.flatMap((p) => p.hexKeys)),
      digitKeys: new Set(ps.flatMap((p) => p.digitKeys)),
    });
  }

  private mayOccur(v: PrivateValue): boolean {
    const f = valueForms(v);
    const l = this.lookups();
    return (
      f.text.some((form) => l.keys.has(form.substr(0, KEY_SHORT)) && l.joined.includes(form)) ||
      f.tokens.some((t) => l.tokens.has(t)) ||
      windowHit(f.hexKeys, l.hexKeys) ||
      windowHit(f.digitKeys, l.digitKeys)
    );
  }
}

const windowHit = (keys: readonly number[], found: Set<number>): boolean => found.size > 0 && keys.some((k) => found.has(k));

/**
 * Forgets the guard's caches (value forms, prepared outward texts), so a benchmark run in a warm process costs what
 * it costs in a fresh one. Nothing else needs it: the caches only ever hold what they would compute again.
 */
export function forgetGuardCaches(): void {
  forgetPreparedTexts();
  forgetValueForms();
}

/** Every string, member name and number text the full search would look at; false when it nests too deep. */
function collectTexts(v: unknown, depth: number, out: string[], isPublic?: (s: string) => boolean): boolean {
  if (depth > MAX_DEPTH) return false;
  if (typeof v === "string") {
    if (!isPublic?.(v)) out.push(v);
  } else if (typeof v === "number" || typeof v === "bigint") out.push(String(v));
  else if (isJsonFloat(v)) out.push(v.token ?? String(v.value));
  else if (Array.isArray(v)) {
    for (const x of v) if (!collectTexts(x, depth + 1, out, isPublic)) return false;
  } else if (v instanceof Map) {
    for (const [k, x] of v) {
      out.push(String(k));
      if (!collectTexts(x, depth + 1, out, isPublic)) return false;
    }
  } else if (v !== null && typeof v === "object") {
    // Keys, not entries: no pair array per member (a candidate has dozens).
    const keys = Object.keys(v);
    for (let i = 0; i < keys.length; i++) {
      out.push(keys[i]);
      if (!collectTexts((v as Record<string, unknown>)[keys[i]], depth + 1, out, isPublic)) return false;
    }
  }
  return true;
}

/** Every string and number text of a JSON-like value, in order (member names left out). */
export function leafTexts(v: unknown, out: string[] = [], depth = 0): string[] {
  if (depth > MAX_DEPTH) return out;
  if (typeof v === "string") out.push(v);
  else if (typeof v === "number" || typeof v === "bigint") out.push(String(v));
  else if (isJsonFloat(v)) out.push(v.token ?? String(v.value));
  else if (Array.isArray(v)) for (const x of v) leafTexts(x, out, depth + 1);
  else if (v instanceof Map) for (const x of v.values()) leafTexts(x, out, depth + 1);
  else if (v !== null && typeof v === "object") for (const x of Object.values(v)) leafTexts(x, out, depth + 1);
  return out;
}

export function summarizeHits(hits: { kind: PrivateKind; path: string }[]): string {
  const unique = [...new Set(hits.map((h) => (h.path.startsWith("unsearchable") ? h.path : `${h.kind} in ${h.path}`)))];
  const shown = unique.slice(0, 8).join("; ");
  return unique.length > 8 ? `${shown}; and ${unique.length - 8} more` : shown;
}
