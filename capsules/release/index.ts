/** Public API of reviewed indicator release (issue 32 item 2): records, policy, register, release and the released values. */
export { ReleaseError, type ReleaseErrorCode } from "./errors.js";
export { DEFAULT_RELEASE_KINDS, parseReleaseKinds, readReleaseKinds, releasePolicyPath, RELEASE_POLICY_SCHEMA, writeReleaseKinds } from "./policy.js";
export { readReleases, releasesPath, releaseSlot } from "./register.js";
export { releaseBytes, releaseCommitment, releaseFromJson, releaseSignatureProblem, ReleaseShapeError, RELEASE_RECORD_SCHEMA, type ReleaseRecord } from "./record.js";
export { isReleaseLineValue, releaseLine, releaseLineReport, RELEASE_EXPORT_SCHEMA, type ReleaseLineReport } from "./export-line.js";
export { capsuleIocValues, countReleases, recordRelease, releasedValues, releaseState, type RecordedRelease, type ReleaseCount, type ReleasedValue, type ReleaseRequest } from "./release.js";
