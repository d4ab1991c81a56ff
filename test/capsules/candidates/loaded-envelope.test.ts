/**
 * The feed's path into derivation: an envelope exactly as the strict loader returned it (the store's open) is read
 * without conversion (deriveLoadedCandidate, readLoadedCapsuleAssessment) and must give what deriveCandidate gives
 * for the same capsule, including the refusals; the artifact's base64 is decoded with the strict rules whichever
 * decoder answers first.
 */
import { readdirSync } from "node:fs";
import { expect, it } from "vitest";
import { readCapsuleAssessment, readLoadedCapsuleAssessment } from "../../../capsules/candidates/capsule-source.js";
import { deriveCandidate, deriveLoadedCandidate } from "../../../capsules/candidates/derive.js";
import { loadPackFile } from "../../../published/pack/file.js";
import { parseStrictJson } from "../../../src/json/parse.js";
import type { JsonObject } from "../../../src/json/value.js";
import { describeShared, readShared, sharedPath } from "../../helpers/shared.js";
import { at, capsuleFor, exampleBytes, mutatedCapsule, put } from "./build-helpers.js";

const VALID = "data/bridge-examples/valid";
const MODES = [
  { includeTypologyMatches: false, includeClean: false },
  { includeTypologyMatches: true, includeClean: true },
];

function loaded(bytes: Uint8Array): JsonObject {
  return parseStrictJson(bytes) as JsonObject;
}

function withData(bytes: Uint8Array, data: string): JsonObject {
  const envelope = loaded(bytes);
  ((at(envelope, "content", "artifacts", 0) as JsonObject).get("location") as JsonObject).set("data", data);
  return envelope;
}

describeShared("deriving from a loaded envelope", () => {
  const pack = loadPackFile(sharedPath("data/intelligence-pack/intelligence-pack-v1.json"));
  const capsules = readdirSync(sharedPath(VALID))
    .filter((f) => f.endsWith(".capsule.json"))
    .map((f) => readShared(VALID, f));
  const refused = [
    mutatedCapsule("01-mule-account-rental-hinglish", (doc) => put(doc, ["detector", "families"], ["JohnDoe"])),
    mutatedCapsule("01-mule-account-rental-hinglish", (doc) => put(doc, ["detector", "score"], 61), false),
    capsuleFor(exampleBytes("lenient", "02-origin-answer-carries-ioc")),
  ];

  it("gives deriveCandidate's result for every reference capsule and for refused ones, with and without the store's digest", () => {
    expect(capsules.length).toBeGreaterThan(5);
    for (const bytes of [...capsules, ...refused]) {
      const id = (loaded(bytes).get("content_sha256") as string) ?? "";
      for (const mode of MODES) {
        for (const opts of [mode, { ...mode, recomputedContentSha256: id }]) {
          expect(deriveLoadedCandidate(loaded(bytes), pack, opts)).toEqual(deriveCandidate(bytes, pack, opts));
        }
      }
    }
  });

  it("reads the same source as readCapsuleAssessment", () => {
    for (const bytes of capsules) expect(readLoadedCapsuleAssessment(loaded(bytes))).toEqual(readCapsuleAssessment(bytes));
  });

  it("refuses base64 that Node would decode but the strict rules reject, and accepts the canonical form", () => {
    const bytes = capsules[0];
    const data = ((at(loaded(bytes), "content", "artifacts", 0) as JsonObject).get("location") as JsonObject).get("data") as string;
    const padded = data.endsWith("=");
    const variants = [
      padded ? data.replace(/=+$/, "") : `${data}QQ`, // missing padding
      `${data.slice(0, 4)}\n${data.slice(4)}`, // whitespace
      data.replace(/\+/g, "-").replace(/\//g, "_").replace(/^./, "-"), // URL-safe alphabet
      `${data}QR==`, // non-zero padding bits
      `${data}=`, // padding after a complete quantum
    ];
    for (const variant of variants) {
      expect(readLoadedCapsuleAssessment(withData(bytes, variant))).toEqual({ ok: false, reason: "capsule: the assessment artifact is not valid base64" });
      expect(deriveLoadedCandidate(withData(bytes, variant), pack, MODES[1])).toEqual({
        status: "withheld",
        reason: "capsule: the assessment artifact is not valid base64",
      });
    }
    const source = readLoadedCapsuleAssessment(withData(bytes, data));
    expect(source.ok && Buffer.from(source.assessmentBytes).toString("base64")).toBe(data);
  });
});
