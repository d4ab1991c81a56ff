/** Shared inputs of the pack tests: the real pack (read in place) and mutation helpers. */
import { existsSync } from "node:fs";
import { loadPack } from "../../../published/pack/load.js";
import type { IntelligencePack } from "../../../published/pack/types.js";
import { readShared, sharedPath } from "../../helpers/shared.js";

export const PACK_PATH = sharedPath("data", "intelligence-pack", "intelligence-pack-v1.json");
export const PUBLISHED_PACK_PATH = sharedPath("data", "published", "integrations", "pack", "intelligence-pack-v1.json");
export const PACK_SHA256 = "c13bfa22576398c575d8b5a3561ed89c060c78a62852282e62f1716e98b28c01";
export const hasPublishedPack = existsSync(PUBLISHED_PACK_PATH);

export function realPackBytes(): Buffer {
  return readShared("data", "intelligence-pack", "intelligence-pack-v1.json");
}

export function realPack(): IntelligencePack {
  return loadPack(realPackBytes());
}

/** The real pack as a mutable plain object. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export function realPackObject(): any {
  return JSON.parse(realPackBytes().toString("utf8"));
}

export function bytesOf(value: unknown): Uint8Array {
  return new TextEncoder().encode(JSON.stringify(value, null, 2));
}

/** A small synthetic pack around the given typologies (sources `s1`, `s2`). */
export function syntheticPack(typologies: unknown[]): IntelligencePack {
  return loadPack(
    bytesOf({
      schema: "scamshield-intelligence-pack/v1",
      version: "test-1",
      generated_at: "2026-01-01T00:00:00Z",
      publisher: { name: "Test", project_url: "https://example.org" },
      method: {
        summary: "Synthetic pack for tests.",
        support_levels: ["TYPOLOGY_MATCH", "CORROBORATED_LEAD", "DIRECT_LINK"],
        principles: ["Tests only."],
      },
      sources: [
        { id: "s1", publisher: "P1", title: "T1", published_at: "2026", url: "https://example.org/1" },
        { id: "s2", publisher: "P2", title: "T2", published_at: "2026", url: "https://example.org/2" },
      ],
      typologies,
    }),
  );
}

/** A typology skeleton for {@link syntheticPack}. */
export function typology(id: string, over: Record<string, unknown>): Record<string, unknown> {
  return {
    id,
    dimension: "laundering_mechanism",
    label: `Label ${id}`,
    description: `Description ${id}`,
    minimum_indicators: 1,
    minimum_specificity: "low",
    source_refs: ["s1"],
    limitations: [`Limitation ${id}`],
    indicators: [],
    ...over,
  };
}
