/**
 * Index profiles: the interface specification writes the brand-bearing constants of the regional index format with
 * neutral tokens; the publisher's real files carry the real values. A profile is one consistent set of those
 * values, and the file's own `schema_version` selects it (docs/regional-index.md, "Profiles"). Every other rule of
 * the format is the same for both profiles: nothing else is loosened.
 *
 * The publisher's values are facts read from its public builder code (the regional index builder writes
 * `schema_version` and copies `provider`, `model_id` and `prompt_revision` from the translation sidecar's
 * provenance, whose two transports set them). They are data, compared as exact strings.
 */

export type ProfileName = "neutral" | "publisher";

export interface IndexProfile {
  readonly name: ProfileName;
  readonly schema_version: string;
  readonly prompt_revision: string;
  /** `english_translation.provider`: [first-party model API label, model-router label]. */
  readonly providers: readonly [string, string];
  /** `english_translation.model_id`: [lite-tier model id, the same id with its vendor prefix]. */
  readonly model_ids: readonly [string, string];
}

/** One row per neutral token of the interface specification: where it appears and the publisher's real value. */
export interface ProfileToken {
  readonly field: string;
  readonly neutral: string;
  readonly publisher: string;
}

export const PROFILE_TOKENS: readonly ProfileToken[] = [
  { field: "schema_version", neutral: "service.regional-captured-index.v1", publisher: "palimpsest.regional-captured-index.v1" },
  { field: "english_translation.prompt_revision", neutral: "service-zh-en-metadata-v1", publisher: "palimpsest-zh-en-metadata-v1" },
  { field: "english_translation.provider", neutral: "model-api", publisher: "Google Gemini API" },
  { field: "english_translation.provider", neutral: "model-router", publisher: "OpenRouter" },
  { field: "english_translation.model_id", neutral: "lite-model-1", publisher: "gemini-3.1-flash-lite" },
  { field: "english_translation.model_id", neutral: "vendor/lite-model-1", publisher: "google/gemini-3.1-flash-lite" },
];

function build(name: ProfileName): IndexProfile {
  const pick = (field: string) => PROFILE_TOKENS.filter((t) => t.field === field).map((t) => t[name]);
  const [providerA, providerB] = pick("english_translation.provider");
  const [modelA, modelB] = pick("english_translation.model_id");
  return {
    name,
    schema_version: pick("schema_version")[0],
    prompt_revision: pick("english_translation.prompt_revision")[0],
    providers: [providerA, providerB],
    model_ids: [modelA, modelB],
  };
}

export const NEUTRAL_PROFILE: IndexProfile = build("neutral");
export const PUBLISHER_PROFILE: IndexProfile = build("publisher");
export const PROFILES: readonly IndexProfile[] = [NEUTRAL_PROFILE, PUBLISHER_PROFILE];

/** Every accepted `schema_version`, neutral first. */
export const SCHEMA_VERSIONS = PROFILES.map((p) => p.schema_version) as [string, ...string[]];

/** The profile a file's own `schema_version` selects, or undefined for any other value. */
export function profileFor(schemaVersion: unknown): IndexProfile | undefined {
  return PROFILES.find((p) => p.schema_version === schemaVersion);
}

/** A value of `profile` written with the other profile's token (for fixtures and tests). */
export function translateToken(value: string, from: IndexProfile, to: IndexProfile): string {
  const row = PROFILE_TOKENS.find((t) => t[from.name] === value);
  return row === undefined ? value : row[to.name];
}
