/**
 * Types of a loaded intelligence pack (assessment-v1 §3), read off its one definition (`pack-shape.ts`), and of the
 * matcher's output (§4.3–§4.9). A loaded pack is deeply frozen; its arrays keep the pack's order.
 */
import type { RawIndicator, RawPack, RawSource, RawTypology } from "./pack-shape.js";
import type { Dimension, IocKind, MatchType, Reliability, SourceKind, Specificity, SupportLevel } from "./vocabulary.js";

/** `T` deeply read-only: what `Object.freeze` at every level makes of a checked value. */
type Frozen<T> = T extends readonly (infer U)[] ? readonly Frozen<U>[] : T extends object ? { readonly [K in keyof T]: Frozen<T[K]> } : T;

export type PackPublisher = Frozen<RawPack["publisher"]>;
export type PackMethod = Frozen<RawPack["method"]>;
export type PackSource = Frozen<RawSource>;

/** Absent clauses are empty arrays here (an empty clause is not evaluated, §4.3). */
export type PackIndicator = Frozen<Required<RawIndicator>>;

export type PackTypology = Frozen<Omit<RawTypology, "indicators">> & { readonly indicators: readonly PackIndicator[] };

export type IntelligencePack = Frozen<Omit<RawPack, "sources" | "typologies">> & {
  readonly sources: readonly PackSource[];
  readonly typologies: readonly PackTypology[];
  /** SHA-256 (lowercase hex) of the raw pack bytes (§3.2 P5). */
  readonly sha256: string;
  /** Size of the raw pack bytes. */
  readonly size: number;
  readonly sourceById: ReadonlyMap<string, PackSource>;
  readonly typologyById: ReadonlyMap<string, PackTypology>;
  /** Non-fatal findings, e.g. dead signal references (§3.2 P4). Each names its JSON path. */
  readonly warnings: readonly string[];
};

/** §4.3 one matched indicator, as recorded in a hypothesis. */
export interface MatchedIndicator {
  id: string;
  label: string;
  evidence_class: string;
  specificity: Specificity;
  term_hits: string[];
  signal_hits: string[];
}

/** §4.5 one external observation (all twelve fields are strings; `""` is the default). */
export interface ExternalObservation {
  typology_id: string;
  evidence_class: string;
  source_id: string;
  source_group: string;
  source_kind: SourceKind;
  match_type: MatchType;
  summary: string;
  reliability: Reliability;
  artifact_uri: string;
  observed_at: string;
  matched_ioc_kind: IocKind | "";
  matched_ioc_value: string;
}

/** One pack source as copied into a hypothesis. */
export interface TypologySource {
  id: string;
  publisher: string;
  title: string;
  published_at: string;
  url: string;
}

/** §4.6 one hypothesis. */
export interface Hypothesis {
  typology_id: string;
  dimension: Dimension;
  label: string;
  support_level: SupportLevel;
  matched_indicators: MatchedIndicator[];
  external_observations: ExternalObservation[];
  independent_backers: number;
  evidence_classes: string[];
  typology_sources: TypologySource[];
  limitations: string[];
}

/** §4.9 abstentions: a subset of the three dimensions, in dimension order. */
export type Abstentions = Partial<Record<Dimension, string>>;

/** IOC object of an assessment (`detector.iocs`): `{}` or all six kinds. */
export type IocSet = Partial<Record<IocKind, readonly string[]>>;

/** The provenance part of an assessment (§4.6–§4.9). */
export interface ProvenanceResult {
  hypotheses: Hypothesis[];
  origin_answer: string;
  abstentions: Abstentions;
}
