/**
 * TLP 2.0 (FIRST) levels, their order of permissiveness, the STIX marking definitions the export writes in its two
 * profiles, and their MISP tags.
 *
 * Order: RED (named recipients only) < AMBER+STRICT (the recipient's organisation) < AMBER (organisation and its
 * clients) < GREEN (the community) < CLEAR (anyone). "Above the ceiling" means shared more widely than the store's
 * `max_tlp` allows.
 *
 * Marking definitions (issue 32): the published TLP objects (the OASIS TLP 2.0 objects, the STIX 2.1 TLP 1.0 objects
 * OpenCTI uses) have no `created_by_ref` and no `modified`, which the OASIS validator's `--interop` profile requires of
 * every object, and they may not be altered. So the export writes a marking definition of its own per store and
 * marking, with its own id (stix.ts), naming the level the way each consumer reads it:
 * - `oasis`: `name` `TLP:<LEVEL>` and the TLP 2.0 property extension of the OASIS CTI TC
 *   (cti-stix-common-objects, extension-definition-specifications/tlp-2.0: `extension-definition--60a3c5c5-…`,
 *   `tlp_2_0` the lowercase level);
 * - `opencti`: a `statement` marking `TLP:<LEVEL>` plus OpenCTI's own property extension
 *   (`extension-definition--ea279b3e-…`, the one pycti and OpenCTI's exports use) with `definition_type` "TLP" and
 *   `definition` `TLP:<LEVEL>`, the pair from which OpenCTI derives its marking's identity (it files the bundle under
 *   its existing TLP marking).
 * Both carry `modified` through the export's own top-level property extension (stix.ts): the STIX 2.1 marking
 * definition has no `modified` property, and `--interop` requires one.
 *
 * MISP tags and colours: the MISP taxonomy `tlp` (MISP/misp-taxonomies tlp/machinetag.json, version 10): values
 * `red`, `amber`, `amber+strict`, `green`, `clear`, with the taxonomy's colours.
 */
export const TLP_LEVELS = ["red", "amber+strict", "amber", "green", "clear"] as const;
export type TlpLevel = (typeof TLP_LEVELS)[number];

export const DEFAULT_MAX_TLP: TlpLevel = "amber+strict";

export const MARKING_PROFILES = ["oasis", "opencti"] as const;
export type MarkingProfile = (typeof MARKING_PROFILES)[number];

export function isTlpLevel(v: unknown): v is TlpLevel {
  return typeof v === "string" && (TLP_LEVELS as readonly string[]).includes(v);
}

/** Rank by permissiveness: 0 for RED … 4 for CLEAR. */
export function tlpRank(level: TlpLevel): number {
  return TLP_LEVELS.indexOf(level);
}

/** The problem with exporting under `level` when the store's ceiling is `max`, or undefined when allowed. */
export function ceilingProblem(level: TlpLevel, max: TlpLevel): string | undefined {
  if (tlpRank(level) <= tlpRank(max)) return undefined;
  return `TLP:${level.toUpperCase()} shares more widely than the store's sharing ceiling max_tlp TLP:${max.toUpperCase()}; choose --tlp ${TLP_LEVELS.slice(0, tlpRank(max) + 1).join("|")} or raise the ceiling with 'evidence-bridge review max-tlp LEVEL'`;
}

export const TLP2_EXTENSION_ID = "extension-definition--60a3c5c5-0d10-413e-aab3-9e08dde9e88d";
export const OPENCTI_EXTENSION_ID = "extension-definition--ea279b3e-5c71-4632-ac08-831c66a786ba";

/** `TLP:AMBER+STRICT` etc. */
export function tlpName(level: TlpLevel): string {
  return `TLP:${level.toUpperCase()}`;
}

/** How a marking definition names its level in `profile` (the rest of the object is stix.ts's). */
export function markingLevelProperties(level: TlpLevel, profile: MarkingProfile): { properties: Record<string, unknown>; extensions: Record<string, unknown> } {
  if (profile === "oasis") {
    return { properties: { name: tlpName(level) }, extensions: { [TLP2_EXTENSION_ID]: { extension_type: "property-extension", tlp_2_0: level } } };
  }
  return {
    properties: { name: tlpName(level), definition_type: "statement", definition: { statement: tlpName(level) } },
    extensions: { [OPENCTI_EXTENSION_ID]: { extension_type: "property-extension", definition_type: "TLP", definition: tlpName(level) } },
  };
}

/** The colours of the MISP `tlp` taxonomy, version 10 (tlp/machinetag.json of MISP/misp-taxonomies). */
export const MISP_TLP_TAXONOMY_VERSION = 10;
const MISP_TLP_COLOURS: Readonly<Record<TlpLevel, string>> = { red: "#FF2B2B", "amber+strict": "#FFC000", amber: "#FFC000", green: "#33FF00", clear: "#ffffff" };

/** The MISP taxonomy tag (`tlp:amber+strict`) and its colour in the taxonomy. */
export function mispTlpTag(level: TlpLevel): { name: string; colour: string } {
  return { name: `tlp:${level}`, colour: MISP_TLP_COLOURS[level] };
}
