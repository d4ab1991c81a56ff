/**
 * The pipeline's values (capsules/pipeline): each is made only by its stage and carries what that stage proved.
 * Synthetic inputs (examples/synthetic), so this runs in a fresh clone.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, test } from "vitest";
import { projectProducer } from "../../../capsules/assessment/adapter.js";
import { AssessmentError } from "../../../capsules/assessment/errors.js";
import { CapsuleLoadError } from "../../../capsules/capsule/load.js";
import { verifyCapsule } from "../../../capsules/capsule/verify.js";
import { assembleCapsule, BuiltCapsule, buildFromIntake } from "../../../capsules/pipeline/build.js";
import { Intake, intakeAssessment } from "../../../capsules/pipeline/intake.js";
import { LoadedCapsule, openCapsuleBytes, openVerifiedCapsule } from "../../../capsules/pipeline/open.js";
import { StoreError } from "../../../capsules/store/errors.js";
import { loadPackFile } from "../../../published/pack/file.js";
import { sha256Hex } from "../../../src/hash.js";
import { canonicalText } from "../../../src/json/canonical.js";
import { parseStrictJson } from "../../../src/json/parse.js";
import type { JsonObject } from "../../../src/json/value.js";
import { repoRoot } from "../../helpers/shared.js";

const EXAMPLE = join(repoRoot, "examples/synthetic");
const pack = loadPackFile(join(EXAMPLE, "intelligence-pack.json"));
const bytes = readFileSync(join(EXAMPLE, "assessment.json"));
const message = readFileSync(join(EXAMPLE, "message.txt"), "utf8");
const PRODUCER = projectProducer("0.0.0-test");

describe("intake", () => {
  test("one value: the exact bytes, the strict value, the checked assessment, the pack, private values on demand", () => {
    const intake = intakeAssessment(bytes, pack, { messageText: message });
    expect(intake).toBeInstanceOf(Intake);
    expect(intake.bytes).toBe(bytes);
    expect(intake.pack).toBe(pack);
    expect(intake.assessmentId).toBe((JSON.parse(bytes.toString("utf8")) as { assessment_id: string }).assessment_id);
    expect(intake.value.get("assessment_id")).toBe(intake.assessmentId);
    const values = intake.privateValues();
    expect(values.some((v) => v.kind === "message_sha256" && v.value === intake.messageSha256)).toBe(true);
    expect(intake.privateValues()).toBe(values);
    expect(Object.isFrozen(intake)).toBe(true);
  });

  test("refuses a message that is not the assessment's, naming the path and rule only", () => {
    expect(() => intakeAssessment(bytes, pack, { messageText: `${message}!` })).toThrow(AssessmentError);
    expect(() => intakeAssessment(bytes, pack, { messageText: `${message}!` })).toThrow(/^assessment\.message_sha256: /);
  });

  test("cannot be made outside its stage", () => {
    const intake = intakeAssessment(bytes, pack);
    expect(() => new Intake(Symbol("intake") as never, bytes, intake.value, intake.assessment, pack)).toThrow(TypeError);
  });
});

describe("build", () => {
  test("the built value carries the file bytes, the envelope, the ok self-verification and its intake", () => {
    const intake = intakeAssessment(bytes, pack);
    const built = buildFromIntake(intake, PRODUCER);
    expect(built).toBeInstanceOf(BuiltCapsule);
    expect(built.intake).toBe(intake);
    expect(built.report.ok).toBe(true);
    const file = parseStrictJson(built.bytes) as JsonObject;
    expect(file.get("content_sha256")).toBe(built.id);
    expect(verifyCapsule(file)).toEqual(built.report);
    // The file is assembled around the builder's canonical content: the canonical text of the whole envelope + LF.
    const { attestations, content, content_sha256 } = built.envelope;
    expect(Buffer.from(built.bytes).toString("utf8")).toBe(`${canonicalText({ attestations, content, content_sha256 }, "capsule")}\n`);
    // The same as the plain build without the intake's parsed value handed to the verifier.
    expect(Buffer.from(assembleCapsule(bytes, intake.assessment, PRODUCER).bytes).equals(Buffer.from(built.bytes))).toBe(true);
  });

  test("cannot be made outside its stage", () => {
    const built = buildFromIntake(intakeAssessment(bytes, pack), PRODUCER);
    expect(() => new BuiltCapsule(Symbol("built-capsule") as never, built.bytes, built.envelope, built.report, built.intake)).toThrow(TypeError);
  });

  test("the verifier reads a handed-in document only for artifact bytes with its digest", () => {
    const intake = intakeAssessment(bytes, pack);
    const { envelope } = assembleCapsule(bytes, intake.assessment, PRODUCER);
    // A value that differs from the artifact (the extraction of /assessment_id would fail) under another digest is
    // ignored: the verifier parses the artifact itself.
    const other = new Map(intake.value);
    other.set("assessment_id", "0".repeat(24));
    expect(verifyCapsule(envelope, { parsedDocuments: new Map([["f".repeat(64), other]]) }).ok).toBe(true);
    // Under the artifact's digest it is read (which is why only a value parsed from exactly those bytes may be given).
    expect(verifyCapsule(envelope, { parsedDocuments: new Map([[sha256Hex(bytes), other]]) }).ok).toBe(false);
  });
});

describe("open", () => {
  const built = buildFromIntake(intakeAssessment(bytes, pack), PRODUCER);

  test("identity: declared and recomputed content_sha256 agree (and equal the id asked for)", () => {
    const loaded = openCapsuleBytes(built.bytes, "capsule", built.id);
    expect(loaded).toBeInstanceOf(LoadedCapsule);
    expect(loaded.proof).toBe("identity");
    expect(loaded.id).toBe(built.id);
    expect(() => openCapsuleBytes(built.bytes, "capsule", "0".repeat(64))).toThrow(StoreError);
    const edited = Buffer.from(Buffer.from(built.bytes).toString("utf8").replace(built.id, "0".repeat(64)));
    expect(() => openCapsuleBytes(edited, "capsule")).toThrow(/declared content_sha256 does not equal the capsule id/);
  });

  test("verified: the full verifier once; a capsule that does not verify yields its report and no value", () => {
    const ok = openVerifiedCapsule(built.bytes);
    expect(ok.capsule?.proof).toBe("verified");
    expect(ok.capsule?.report).toBe(ok.report);
    const edited = Buffer.from(Buffer.from(built.bytes).toString("utf8").replace(built.id, "0".repeat(64)));
    const bad = openVerifiedCapsule(edited);
    expect(bad.report.ok).toBe(false);
    expect(bad.capsule).toBeUndefined();
    expect(() => openVerifiedCapsule(new TextEncoder().encode("[1]"))).toThrow(CapsuleLoadError);
  });

  test("cannot be made outside its stage", () => {
    expect(() => new LoadedCapsule(Symbol("loaded-capsule") as never, built.bytes, new Map(), built.id, undefined)).toThrow(TypeError);
  });
});
