/** Public API of the Evidence Capsule v1 module: build, serialise, load and verify capsules. */
export { buildCapsule, CapsuleBuildError, serializeCapsule, type Capsule } from "./build.js";
export { CapsuleLoadError, loadCapsuleBytes, loadCapsuleFile } from "./load.js";
export { serializeReport, OK_SCOPE, type VerificationReport } from "./report.js";
export { verifyCapsule, type VerifyOptions } from "./verify.js";
