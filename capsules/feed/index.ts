/** Public API of the outward feed. */
export { buildFeed, FeedCollector, feedIds, feedItem, type FeedItem, type FeedOptions, type FeedOutcome, type WithheldEntry } from "./feed.js";
export { feedFromCache } from "./cached-feed.js";
export { FeedError } from "./errors.js";
export { feedOrderKey } from "./order.js";
export { feedSummaryJson, feedSummaryLines, groupWithheld, type WithheldGroup } from "./report.js";
export { LineSpool, SPOOL_MEMORY_BYTES, type SpoolOptions } from "./spool.js";
