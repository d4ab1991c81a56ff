/**
 * The byte lane for one event: the event's bytes are checked against the event shape in one pass, without a parse
 * into values (`ByteShapeChecker`, src/json/byte-shape-check.ts), and its canonical text for `content_sha256` is
 * written by copying the input's byte spans in code-point member order. It is tried first for every event; it takes
 * only an event it proves the strict lane would find conforming (strict JSON, every rule of the shape, with the
 * same dialect), and leaves every other one to the lanes that report (event-fast-lane.ts, then the strict lane).
 *
 * The two string formats decided on the bytes without decoding (`text`: at least one character; `any`: every
 * string) are held equal to the dialect's check by test/published/regional/byte-lane.test.ts; every other format is
 * decided by the dialect itself over the decoded string. What the consistency checks read ({@link EventFacts}) is
 * taken from the checker's positional value; of the `text` strings only `source_ids`, `source_names` and a link's
 * `source_id` are decoded for it.
 */
import { ByteShapeChecker, type ByteStringRule, type CanonicalByteSink } from "../../src/json/byte-shape-check.js";
import type { StringShape } from "../../src/json/shape.js";
import { INDEX_DIALECT, type IndexFormat } from "./index-dialect.js";
import type { EventShape } from "./index-shape.js";
import type { EventFacts } from "./consistency.js";

/** An event's bytes in the input: [start, end) of `bytes`, which was checked as UTF-8 as a whole. */
export interface EventBytes {
  bytes: Buffer;
  start: number;
  end: number;
}

/** `text` (at least one character) and `any` are decided on the bytes; every other format by the dialect. */
export function byteRule(shape: StringShape<IndexFormat>): ByteStringRule {
  return shape.format === "text" ? "non-empty" : shape.format === "any" ? "any" : "dialect";
}

/** Members whose `text` strings the consistency checks read. */
const KEEP = ["source_ids", "source_names", "source_id"];

/** An event shape's checker and where each fact sits in its positional value. */
class EventLane {
  readonly checker: ByteShapeChecker<IndexFormat>;
  private readonly at: Record<string, number>;
  private readonly linkSource: number;
  private readonly translationId: number;
  private readonly publicUrl: number;

  constructor(shape: EventShape) {
    this.checker = new ByteShapeChecker<IndexFormat>(shape, INDEX_DIALECT, { stringRule: byteRule, keep: KEEP });
    const names = Object.keys(shape.fields);
    this.at = Object.fromEntries(names.map((name) => [name, this.checker.position(name)]));
    this.linkSource = this.checker.position("publisher_links", "source_id");
    this.translationId = this.checker.position("english_translation", "translation_id");
    this.publicUrl = this.checker.position("english_translation", "public_url");
  }

  facts(v: unknown[]): EventFacts {
    const at = this.at;
    const links = v[at.publisher_links] as unknown[][];
    const tr = v[at.english_translation] as unknown[] | null;
    const linkFacts: EventFacts["publisher_links"] = new Array(links.length);
    for (let k = 0; k < links.length; k++) linkFacts[k] = { source_id: links[k][this.linkSource] as string };
    return {
      event_id: v[at.event_id] as string,
      current_in_wire: v[at.current_in_wire] as boolean,
      event_page_available: v[at.event_page_available] as boolean,
      version_count: v[at.version_count] as number,
      version_ids: v[at.version_ids] as string[],
      first_recorded_at: v[at.first_recorded_at] as string,
      last_recorded_at: v[at.last_recorded_at] as string,
      published_at: v[at.published_at] as string,
      region_tags: v[at.region_tags] as EventFacts["region_tags"],
      source_ids: v[at.source_ids] as string[],
      source_names: v[at.source_names] as string[],
      publisher_links: linkFacts,
      english_translation: tr === null ? null : { translation_id: tr[this.translationId] as string, public_url: tr[this.publicUrl] as string },
    };
  }
}

const LANES = new WeakMap<EventShape, EventLane>();

function laneFor(shape: EventShape): EventLane {
  let lane = LANES.get(shape);
  if (lane === undefined) LANES.set(shape, (lane = new EventLane(shape)));
  return lane;
}

/**
 * The consistency facts of the event at `slice` when its bytes conform to `shape` (the byte lane proved it);
 * undefined when the other lanes must decide. After it, {@link writeByteEventCanonical} writes that event's
 * canonical text.
 */
export function byteEvent(slice: EventBytes, shape: EventShape): EventFacts | undefined {
  const lane = laneFor(shape);
  const v = lane.checker.check(slice.bytes, slice.start, slice.end);
  return v === undefined ? undefined : lane.facts(v as unknown[]);
}

/** Writes the canonical text of the event the last successful {@link byteEvent} for `shape` accepted. */
export function writeByteEventCanonical(shape: EventShape, sink: CanonicalByteSink): void {
  laneFor(shape).checker.writeCanonical(sink);
}
