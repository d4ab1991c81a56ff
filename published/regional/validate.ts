/**
 * The regional index validation report (product.md §10): schema conformance with JSON paths, consistency findings
 * as warnings, and the `content_sha256` check under our reading of the format.
 *
 * Events are validated one at a time (see load.ts), so time and memory stay linear in the input and the parsed
 * form of only one event is alive at once.
 */
import { collectShape, type ShapeViolation } from "../../src/json/shape-check.js";
import { kindOf, memberPath, indexPath, pathOf, type JsonObject, type JsonValue } from "../../src/json/value.js";
import { byKey, CanonicalDigest, FLOAT_REASON, writeCanonical, type CanonicalSink } from "./canonical-digest.js";
import { DEFAULT_MAX_INDEX_BYTES, INDEX_ROOT, REGIONAL_SCHEMA_VERSION } from "./constants.js";
import type { ProfileName } from "./profiles.js";
import { ConsistencyCheck, type RegionalHeader } from "./consistency.js";
import { finding, FindingList, floatFindings, hasFloat, type RegionalFinding } from "./findings.js";
import { fromPlain, PlainValueError } from "./from-plain.js";
import { IndexLoadError, loadIndexBytes, type EventSource, type LoadedIndex, type LoadFailure } from "./load.js";
import { INDEX_DIALECT } from "./index-dialect.js";
import { fastEvent } from "./event-fast-lane.js";
import { byteEvent, writeByteEventCanonical } from "./event-byte-lane.js";
import { shapesFor, type EventShape, type ProfileShapes, type RegionalEvent } from "./index-shape.js";

/** Our reading of `content_sha256`; the format states only its pattern. */
export const CONTENT_SHA256_RULE =
  "SHA-256 of the capsule-v1 canonical bytes (palimpsest-json-sorted-utf8-v1, without its 512-item and " +
  "25,165,824-byte caps) of the top-level object without content_sha256; our reading of the format";

export type ContentDigestStatus = "verified" | "mismatch" | "not_checked";

export interface ContentDigestResult {
  status: ContentDigestStatus;
  /** The file's `content_sha256` when it is a string, else null. */
  declared: string | null;
  /** Our digest, or null when it could not be computed. */
  computed: string | null;
  /** Why the status is `not_checked`, else null. */
  reason: string | null;
  rule: string;
}

export interface RegionalValidationReport {
  /** The `schema_version` the file was checked against: its own when it selects a profile, else the neutral one. */
  format: string;
  /**
   * The profile the file's own `schema_version` selected (profiles.ts): `neutral` (the interface specification's
   * tokens) or `publisher` (the publisher's real values); null when it selects none (that is then an error).
   */
  profile: ProfileName | null;
  /** True when the index meets every rule of the format (errors is empty). */
  conforms: boolean;
  /** The declared region when it is a string, else null. */
  region: string | null;
  /** Number of events when `events` is an array, else null. */
  event_count: number | null;
  /** Schema errors (and, for input that is not strict JSON, the one load error), first `max_findings` of them. */
  errors: RegionalFinding[];
  error_count: number;
  /** Consistency findings; empty unless the index conforms. */
  warnings: RegionalFinding[];
  warning_count: number;
  /** Whether consistency was checked (only on a conforming index). */
  consistency: "checked" | "not_checked";
  content_sha256: ContentDigestResult;
}

export interface ValidateOptions {
  /** Byte cap for byte or text input (default 256 MiB). */
  maxBytes?: number;
  /** Findings kept per list (default 1000); the counts cover all of them. */
  maxFindings?: number;
  /**
   * Compute `content_sha256` (default true). A caller that needs only conformance (export) can skip it, which
   * saves the SHA-256 of the whole canonical text; the report then says `not_checked` with {@link DIGEST_SKIPPED}.
   */
  contentDigest?: boolean;
}

/** The `content_sha256` reason when the caller asked not to compute it. */
export const DIGEST_SKIPPED = "not computed (contentDigest: false)";

export type RegionalInput = Uint8Array | string | JsonValue | Record<string, unknown>;

const encoder = new TextEncoder();

/** Reads any accepted input into a loaded index. Throws {@link IndexLoadError} for input that is not strict JSON. */
export function loadRegionalInput(input: RegionalInput, maxBytes = DEFAULT_MAX_INDEX_BYTES): LoadedIndex {
  if (input instanceof Uint8Array) return loadIndexBytes(input, maxBytes);
  if (typeof input === "string") return loadIndexBytes(encoder.encode(input), maxBytes);
  let value: JsonValue;
  try {
    value = fromPlain(input, INDEX_ROOT);
  } catch (e) {
    if (e instanceof PlainValueError) throw new IndexLoadError({ rule: e.rule, message: e.message, path: e.path });
    throw e;
  }
  if (!(value instanceof Map)) return { kind: "other", value };
  const header: JsonObject = new Map(value);
  const events = header.get("events");
  if (!Array.isArray(events)) return { kind: "object", header, events: undefined };
  header.delete("events");
  return { kind: "object", header, events: { count: events.length, get: (i) => events[i] } };
}

/** Validates an index given as bytes, JSON text, a value-model object or a plain object. */
export function validateRegionalIndex(input: RegionalInput, opts: ValidateOptions = {}): RegionalValidationReport {
  let loaded: LoadedIndex;
  try {
    loaded = loadRegionalInput(input, opts.maxBytes);
  } catch (e) {
    if (e instanceof IndexLoadError) return loadFailureReport(e.failure, null);
    throw e;
  }
  return validateLoadedIndex(loaded, opts);
}

function notChecked(reason: string, declared: string | null = null): ContentDigestResult {
  return { status: "not_checked", declared, computed: null, reason, rule: CONTENT_SHA256_RULE };
}

/** The finding for input that is not strict JSON: rule `json-<loader rule>`, the loader's message with its path. */
export function loadFailureFinding(failure: LoadFailure): RegionalFinding {
  const message = failure.message.startsWith(`${failure.path}:`) ? failure.message : `${failure.path}: ${failure.message}`;
  return { path: failure.path, rule: `json-${failure.rule}`, message };
}

function loadFailureReport(failure: LoadFailure, eventCount: number | null): RegionalValidationReport {
  return {
    format: REGIONAL_SCHEMA_VERSION,
    profile: null,
    conforms: false,
    region: null,
    event_count: eventCount,
    errors: [loadFailureFinding(failure)],
    error_count: 1,
    warnings: [],
    warning_count: 0,
    consistency: "not_checked",
    content_sha256: notChecked("the input is not strict JSON"),
  };
}

/** Checked events come out with their members in code-point order, so their JSON text is their canonical text. */
const CODE_POINT_ORDER = { memberOrder: "code-point" } as const;

/** Paths already reported, so the float walk does not report a number twice. */
function pathsOf(list: FindingList): Set<string> {
  return new Set(list.items.map((f) => f.path));
}

/** Loaded indexes that {@link validateLoadedIndex} found conforming (for the export's fast path). */
const conformingIndexes = new WeakSet<LoadedIndex>();

/** True when `loaded` has been validated by {@link validateLoadedIndex} and conforms. */
export function isValidatedConforming(loaded: LoadedIndex): boolean {
  return conformingIndexes.has(loaded);
}

/** Validates a loaded index (see {@link loadRegionalInput}); events are parsed one at a time. */
export function validateLoadedIndex(loaded: LoadedIndex, opts: ValidateOptions = {}): RegionalValidationReport {
  const cap = opts.maxFindings ?? 1000;
  const errors = new FindingList(cap);
  const warnings = new FindingList(cap);
  const addError = (f: RegionalFinding) => errors.add(f);

  if (loaded.kind === "other") {
    errors.add(finding(INDEX_ROOT, "type", `expected object, got ${kindOf(loaded.value)}`));
    return report(errors, warnings, null, null, false, notChecked("the index is not a JSON object"), shapesFor(undefined));
  }
  const { header, events } = loaded;
  // The file's own schema_version selects the profile of the brand-bearing constants; every other rule is shared.
  const shapes = shapesFor(header.get("schema_version"));
  const reportAt = (root: string) => (v: ShapeViolation) => addError(finding(pathOf(root, v.path), v.rule, v.detail));

  // Top level: the whole shape with the streamed events standing in as an empty array.
  const top = events === undefined ? header : new Map([...header, ["events", []]]);
  const checkedHeader = collectShape(shapes.index, top, INDEX_DIALECT, reportAt(INDEX_ROOT));
  if (hasFloat(header)) floatFindings(header, INDEX_ROOT, pathsOf(errors), addError);
  const consistency = checkedHeader !== undefined ? new ConsistencyCheck(checkedHeader as RegionalHeader, (f) => warnings.add(f)) : undefined;

  const declaredValue = header.get("content_sha256");
  const declared = typeof declaredValue === "string" ? declaredValue : null;
  const wantDigest = opts.contentDigest !== false;
  const sink = wantDigest ? new CanonicalDigest() : new FloatCounter();
  const digest = new DigestRun(header, events !== undefined, sink);
  if (events !== undefined) {
    const eventsPath = memberPath(INDEX_ROOT, "events");
    for (let i = 0; i < events.count; i++) {
      // The byte lane, then the fast lane, take only an event they prove conforming; the strict lane decides every
      // other one.
      const raw = events.raw?.(i);
      const facts = raw !== undefined ? byteEvent(raw, shapes.event) : undefined;
      if (facts !== undefined) {
        digest.canonicalBytes(shapes.event);
        if (consistency !== undefined && errors.total === 0) consistency.addEvent(i, facts);
        continue;
      }
      const slice = events.fast?.(i);
      const fast = slice !== undefined ? fastEvent(slice, shapes.event) : undefined;
      if (fast !== undefined) {
        digest.conformingEvent(fast.event, fast.canonical);
        if (consistency !== undefined && errors.total === 0) consistency.addEvent(i, fast.event);
        continue;
      }
      let ev: JsonValue;
      try {
        ev = events.get(i);
      } catch (e) {
        if (e instanceof IndexLoadError) return loadFailureReport(e.failure, events.count);
        throw e;
      }
      // A conforming event is hashed from its checked form; any other from the value model, and its floats are
      // reported wherever the shape's findings have not already covered them.
      const path = indexPath(eventsPath, i);
      const typed = collectShape(shapes.event, ev, INDEX_DIALECT, reportAt(path), CODE_POINT_ORDER);
      if (typed !== undefined) {
        digest.conformingEvent(typed);
        if (consistency !== undefined && errors.total === 0) consistency.addEvent(i, typed);
        continue;
      }
      digest.event(ev);
      if (hasFloat(ev)) floatFindings(ev, path, pathsOf(errors), addError);
    }
  }
  const conforms = errors.total === 0;
  if (conforms) {
    consistency?.finish();
    conformingIndexes.add(loaded);
  }

  let sha: ContentDigestResult;
  const computed = digest.finish();
  if (!wantDigest) sha = notChecked(DIGEST_SKIPPED, declared);
  else if (computed === undefined) sha = notChecked(FLOAT_REASON, declared);
  else if (declared === null) sha = { ...notChecked("content_sha256 is missing or not a string"), computed };
  else sha = { status: computed === declared ? "verified" : "mismatch", declared, computed, reason: null, rule: CONTENT_SHA256_RULE };

  const region = header.get("region");
  const eventCount = events !== undefined ? events.count : null;
  return report(errors, warnings, typeof region === "string" ? region : null, eventCount, conforms, sha, shapes);
}

function report(
  errors: FindingList,
  warnings: FindingList,
  region: string | null,
  eventCount: number | null,
  conforms: boolean,
  sha: ContentDigestResult,
  shapes: ProfileShapes,
): RegionalValidationReport {
  return {
    format: shapes.profile.schema_version,
    profile: shapes.known ? shapes.profile.name : null,
    conforms,
    region,
    event_count: eventCount,
    errors: errors.items,
    error_count: errors.total,
    warnings: conforms ? warnings.items : [],
    warning_count: conforms ? warnings.total : 0,
    consistency: conforms ? "checked" : "not_checked",
    content_sha256: sha,
  };
}

/** Counts floats and drops the text: what the digest run writes to when the digest is not wanted. */
class FloatCounter implements CanonicalSink {
  floats = 0;
  raw(): void {}
  float(): void {
    this.floats++;
  }
}

/**
 * The digest of the top level without `content_sha256`, in canonical member order, with the events array
 * (when streamed) written element by element as they arrive. Floats are counted even when no digest is wanted.
 */
class DigestRun {
  private readonly after: [string, JsonValue][];
  private firstEvent = true;

  constructor(
    header: JsonObject,
    private readonly streamed: boolean,
    private readonly d: CanonicalDigest | FloatCounter,
  ) {
    const members: [string, JsonValue][] = [...header].filter(([k]) => k !== "content_sha256");
    if (streamed) members.push(["events", []]);
    members.sort(byKey);
    const at = streamed ? members.findIndex(([k]) => k === "events") : members.length;
    this.after = members.slice(at + 1);
    this.d.raw("{");
    members.slice(0, at).forEach(([k, v], i) => this.member(k, v, i === 0));
    if (streamed) this.d.raw(`${at ? "," : ""}"events":[`);
  }

  /** Floats seen so far (each leaves the digest undefined). */
  get floats(): number {
    return this.d.floats;
  }

  /** Writes the next event from the value model. */
  event(ev: JsonValue): void {
    if (!this.firstEvent) this.d.raw(",");
    this.firstEvent = false;
    writeCanonical(ev, this.d);
  }

  /**
   * Writes the next event from its checked form (strings, booleans, integers, null, arrays, and objects with their
   * members in code-point order), whose JSON text is its canonical text; or from `canonical`, the event's bytes
   * when the fast lane proved them to be that text.
   */
  conformingEvent(ev: RegionalEvent, canonical?: Uint8Array): void {
    if (this.d instanceof CanonicalDigest) {
      if (canonical !== undefined) {
        if (!this.firstEvent) this.d.raw(",");
        this.d.bytes(canonical);
        this.firstEvent = false;
        return;
      }
      const text = JSON.stringify(ev);
      this.d.raw(this.firstEvent ? text : `,${text}`);
    }
    this.firstEvent = false;
  }

  /** Writes the next event, the one the byte lane accepted last for `shape`. */
  canonicalBytes(shape: EventShape): void {
    if (this.d instanceof CanonicalDigest) {
      if (!this.firstEvent) this.d.raw(",");
      writeByteEventCanonical(shape, this.d);
    }
    this.firstEvent = false;
  }

  /** The digest, or undefined when the index holds a float or no digest was wanted. */
  finish(): string | undefined {
    if (!(this.d instanceof CanonicalDigest)) return undefined;
    if (this.streamed) this.d.raw("]");
    for (const [k, v] of this.after) this.member(k, v, false);
    this.d.raw("}");
    return this.d.hex();
  }

  private member(key: string, v: JsonValue, first: boolean): void {
    this.d.raw(`${first ? "" : ","}${JSON.stringify(key)}:`);
    writeCanonical(v, this.d);
  }
}

export type { EventSource, LoadedIndex, LoadFailure };
