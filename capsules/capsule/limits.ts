/** Resource limits of Evidence Capsule v1 shared by several modules (capsule-v1 §12). */

/** Capsule file / strict JSON input. */
export const CAPSULE_MAX_BYTES = 33_554_432;
/** One artifact: declared `size`, decoded inline bytes, path read. */
export const ARTIFACT_MAX_BYTES = 8_388_608;
/** Sum of declared sizes (schema) and of obtained bytes (artifacts stage). */
export const ARTIFACTS_TOTAL_MAX_BYTES = 16_777_216;
/** Inline `data` characters (= ⌈8 MiB / 3⌉ × 4). */
export const INLINE_DATA_MAX_CHARS = 11_184_812;
/** `location.path` characters. */
export const PATH_MAX_CHARS = 4_096;
/** Containers enclosing any value. */
export const MAX_NESTING = 32;
