/** R1 / A2 (assessment-v1 §2.7, §4.10): the assessment's `intelligence_pack` must describe the loaded pack. */
import { PackError, unknownFieldError } from "../../published/pack/errors.js";
import type { IntelligencePack } from "../../published/pack/types.js";

const HEX64 = /^[0-9a-f]{64}$/;

export function checkPackReference(ref: unknown, pack: IntelligencePack, path: string): void {
  if (typeof ref !== "object" || ref === null || Array.isArray(ref)) throw new PackError(path, "type", "expected an object");
  const r = ref as Record<string, unknown>;
  const theirs = r.sha256;
  if (theirs !== pack.sha256) {
    const shown = typeof theirs === "string" && HEX64.test(theirs) ? theirs : "a malformed digest";
    throw new PackError(
      `${path}.sha256`,
      "R1",
      `the assessment was produced with intelligence pack ${shown} but the loaded pack is ${pack.sha256}; load the matching pack with --pack`,
    );
  }
  const expected: [string, string][] = [
    ["schema", pack.schema],
    ["version", pack.version],
    ["generated_at", pack.generated_at],
    ["publisher", pack.publisher.name],
  ];
  for (const [key, value] of expected) {
    if (r[key] !== value) throw new PackError(`${path}.${key}`, "R1", `must equal the loaded pack's ${key} (${JSON.stringify(value)})`);
  }
  for (const key of Object.keys(r)) {
    if (key !== "sha256" && !expected.some(([k]) => k === key)) throw unknownFieldError(path, key);
  }
}
