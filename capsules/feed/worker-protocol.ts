/** Messages between the feed and its worker threads (parallel.ts, feed-worker.ts). */
import type { CandidateView } from "./stored-candidate.js";

export interface WorkerInit {
  home: string;
  /**
   * The store key of the already opened store (in-process only; never written anywhere). Workers only open
   * capsules: they get no signing key.
   */
  storeKey: Uint8Array;
  packFile: string;
  /** The digest of the pack the feed loaded: a worker loading a different file refuses to start. */
  packSha256: string;
  view: CandidateView;
}

export type WorkerItem =
  | { id: string; status: "emitted"; key: string; line: Uint8Array }
  | { id: string; status: "excluded" }
  | { id: string; status: "withheld"; reason: string }
  | { id: string; status: "error"; message: string };

export type ToWorker = { type: "batch"; ids: string[] };

export type FromWorker = { type: "ready" } | { type: "fatal"; message: string } | { type: "results"; items: WorkerItem[] };
