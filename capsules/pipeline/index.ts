/**
 * The private pipeline of verified values (docs/pipeline.md): intake (assessment bytes → {@link Intake}), build
 * ({@link Intake} → {@link BuiltCapsule}), open (capsule bytes → {@link LoadedCapsule}). Each value is made only by its
 * stage, so holding one is the proof that its checks ran once; later stages and the store take it as it is.
 */
export { Intake, intakeAssessment, type IntakeOptions } from "./intake.js";
export { BuiltCapsule, buildFromIntake } from "./build.js";
export { LoadedCapsule, openCapsuleBytes, openVerifiedCapsule, openVerifiedCapsuleFile } from "./open.js";
