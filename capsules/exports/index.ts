/** Public API of the marked export formats (STIX 2.1, MISP feed, CSV) and the sharing ceiling. */
export { buildFormatExport, checkCeiling, guardedReleaseLines, FormatExportError, MARKED_FORMATS, renderFormat, storeSecrets, type FormatExport, type FormatExportOptions, type MarkedFormat } from "./formats.js";
export { guardExport, type GuardExportOptions } from "./guard-export.js";
export { leadsFromExportLines, leadText, type Lead } from "./lead.js";
export { MISP_DISTRIBUTIONS, mispEvent, mispFeedFiles, type FeedFile, type MispDistribution } from "./misp.js";
export { producerName, producerUuid, type Producer } from "./producer.js";
export { readMaxTlp, sharingPolicyPath, SharingPolicyError, writeMaxTlp } from "./sharing-policy.js";
export { stixBundle, stixBundleBytes } from "./stix.js";
export { DEFAULT_MAX_TLP, isTlpLevel, MARKING_PROFILES, markingLevelProperties, mispTlpTag, TLP_LEVELS, type MarkingProfile, type TlpLevel } from "./tlp.js";
export { ExportIdsError, exportIdsPath, storeExportIds, transientExportIds, type ExportIds } from "./export-ids.js";
export { ExportWriteError, writeExportDirectory, writeExportFile } from "./write-output.js";
export { EXPORT_NAMESPACE, uuidV5 } from "./uuid5.js";
