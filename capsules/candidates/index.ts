/** Outward candidates and the leak guard (product.md §8): the API the feed, MCP and export paths use. */
export { candidateView, deriveCapsule, overallTier, type Derivation } from "../pipeline/derive.js";
export { pseudonymAllowed } from "../guard/private-values.js";
export { WITHHELD_ANSWER } from "./feed-policy.js";
export { truncateToHour } from "./hour.js";
export {
  PUBLIC_RECORD_SCHEMA,
  REVIEW_REQUIRED,
  type Candidate,
  type CandidateHypothesis,
  type CandidateView,
  type DeriveResult,
} from "./types.js";
