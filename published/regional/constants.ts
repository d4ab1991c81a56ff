/**
 * Constants of the regional captured-news index format (`../shared/seed/public-evidence-service.md`, "Regional
 * captured-news index"). Brand-bearing constants appear with the neutral words the interface specification uses.
 */

export const REGIONAL_SCHEMA_VERSION = "service.regional-captured-index.v1";

export const REGIONS = ["bri", "gwadar", "balochistan", "myanmar"] as const;
export type Region = (typeof REGIONS)[number];

export const PUBLICATION_MODE = "metadata-link-only";
export const ARTICLE_BODY_FETCHING = "prohibited";
export const SOURCE_POLICY = "config/news_sources.json";
export const SIDECAR_SCHEMA_VERSION = "chinese-translations-v1";
export const TRANSLATION_STATUS = "machine-draft-not-human-certified";
export const BACKGROUND_STATUS = "machine-generated-context-not-translation";
export const PROMPT_REVISION = "service-zh-en-metadata-v1";
export const PROVIDERS = ["model-api", "model-router"] as const;
export const MODEL_IDS = ["lite-model-1", "vendor/lite-model-1"] as const;

/**
 * `classification.csv_formula_neutralization`. The interface specification states the rule but not the sentence;
 * this is the sentence the publisher's own JSON Schema pins as the constant (the same rule, word for word the
 * published constant), so files the publisher builds carry exactly this text.
 */
export const CSV_FORMULA_SENTENCE =
  "CSV text cells whose first non-whitespace character is =, +, -, or @ receive a leading apostrophe; " +
  "JSON and JSONL preserve the exact captured text.";

export const SHA256_PATTERN = /^[0-9a-f]{64}$/;
export const SOURCE_ID_PATTERN = /^[a-z0-9][a-z0-9-]+$/;
export const EVENT_ID_PATTERN = /^event-[0-9a-f]+$/;
export const VERSION_ID_PATTERN = /^eventv-[0-9a-f]+$/;
export const TRANSLATION_ID_PATTERN = /^zhtr-[0-9a-f]{24}$/;
export const PUBLIC_URL_PATTERN = /^\/news\/china\/english\/(?:page\/[1-9][0-9]*\/)?#translation-zhtr-[0-9a-f]{24}$/;

/** Root of every JSON path in regional reports (`index.events[3].headline`). */
export const INDEX_ROOT = "index";

/** Default byte cap for one index file (`--max-bytes`). */
export const DEFAULT_MAX_INDEX_BYTES = 256 * 1024 * 1024;
