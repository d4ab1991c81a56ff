/**
 * TLP 2.0 (FIRST) levels, their order of permissiveness, and their marking objects in the two profiles the STIX
 * export offers, plus their MISP tags.
 *
 * Order: RED (named recipients only) < AMBER+STRICT (the recipient's organisation) < AMBER (organisation and its
 * clients) < GREEN (the community) < CLEAR (anyone). "Above the ceiling" means shared more widely than the store's
 * `max_tlp` allows.
 *
 * Facts carried over (not code):
 * - OASIS profile: the STIX 2.1 TLP 2.0 marking-definition objects of the OASIS CTI TC (cti-stix-common-objects,
 *   extension-definition-specifications/tlp-2.0): fixed ids, `created` 2022-10-01T00:00:00.000Z, `name`
 *   `TLP:<LEVEL>`, and the property extension `extension-definition--60a3c5c5-0d10-413e-aab3-9e08dde9e88d` with
 *   `tlp_2_0` set to the lowercase level.
 * - OpenCTI profile: OpenCTI's fixed marking ids (opencti-graphql src/schema/identifier.js): CLEAR, GREEN, AMBER and
 *   RED are the STIX 2.1 TLP 1.0 objects (§7.2.1.4 of the specification; CLEAR uses the TLP:WHITE object), and
 *   AMBER+STRICT is OpenCTI's own statement marking with `x_opencti_definition_type` "TLP" and
 *   `x_opencti_definition` "TLP:AMBER+STRICT" (the form pycti and the OpenCTI connectors emit).
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

const OASIS_TLP2_IDS: Readonly<Record<TlpLevel, string>> = {
  clear: "marking-definition--94868c89-83c2-464b-929b-a1a8aa3c8487",
  green: "marking-definition--bab4a63c-aed9-4cf5-a766-dfca5abac2bb",
  amber: "marking-definition--55d920b0-5e8b-4f79-9ee9-91f868d9b421",
  "amber+strict": "marking-definition--939a9414-2ddd-4d32-a0cd-375ea402b003",
  red: "marking-definition--e828b379-4e03-4974-9ac4-e53a884c97c1",
};

const OPENCTI_IDS: Readonly<Record<TlpLevel, string>> = {
  clear: "marking-definition--613f2e26-407d-48c7-9eca-b8e91df99dc9",
  green: "marking-definition--34098fce-860f-48ae-8e50-ebd3cc5e41da",
  amber: "marking-definition--f88d31f6-486f-44da-b317-01333bde0b82",
  "amber+strict": "marking-definition--826578e1-40ad-459f-bc73-ede076f81f37",
  red: "marking-definition--5e57c739-391a-4eb3-b6be-7d15ca92d5ed",
};

/** `TLP:AMBER+STRICT` etc. */
export function tlpName(level: TlpLevel): string {
  return `TLP:${level.toUpperCase()}`;
}

/** The marking-definition object for `level` in `profile` (a fixed, published object: never altered). */
export function markingDefinition(level: TlpLevel, profile: MarkingProfile): Record<string, unknown> {
  if (profile === "oasis") {
    return {
      type: "marking-definition",
      spec_version: "2.1",
      id: OASIS_TLP2_IDS[level],
      created: "2022-10-01T00:00:00.000Z",
      name: tlpName(level),
      extensions: { [TLP2_EXTENSION_ID]: { extension_type: "property-extension", tlp_2_0: level } },
    };
  }
  if (level === "amber+strict") {
    return {
      type: "marking-definition",
      spec_version: "2.1",
      id: OPENCTI_IDS[level],
      created: "2022-10-01T00:00:00.000Z",
      name: tlpName(level),
      definition_type: "statement",
      definition: { statement: "custom" },
      x_opencti_definition_type: "TLP",
      x_opencti_definition: tlpName(level),
    };
  }
  const tlp1 = level === "clear" ? "white" : level;
  return {
    type: "marking-definition",
    spec_version: "2.1",
    id: OPENCTI_IDS[level],
    created: "2017-01-20T00:00:00.000Z",
    definition_type: "tlp",
    name: `TLP:${tlp1.toUpperCase()}`,
    definition: { tlp: tlp1 },
  };
}

/** The MISP taxonomy tag (`tlp:amber+strict`) and a display colour. */
export function mispTlpTag(level: TlpLevel): { name: string; colour: string } {
  const colours: Record<TlpLevel, string> = { red: "#CC0033", "amber+strict": "#FFC000", amber: "#FFC000", green: "#339900", clear: "#FFFFFF" };
  return { name: `tlp:${level}`, colour: colours[level] };
}
