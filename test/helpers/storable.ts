/**
 * Tests that seal capsule bytes they hold (fixtures, reference examples) open them through the pipeline first
 * (capsules/pipeline/open.ts, proof `identity`): the store seals only pipeline values.
 */
import { openCapsuleBytes, type LoadedCapsule } from "../../capsules/pipeline/open.js";

/** Capsule file bytes as a value the store seals; `id`, when given, must be their content_sha256 (else StoreError). */
export function storable(bytes: Uint8Array, id?: string): LoadedCapsule {
  return openCapsuleBytes(bytes, id === undefined ? "capsule" : `capsule ${id}`, id);
}
