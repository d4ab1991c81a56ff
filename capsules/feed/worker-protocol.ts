/** Messages between the feed and its worker threads (parallel.ts, feed-worker.ts). */
import type { KeyMode } from "../../src/crypto/keys.js";
import type { CandidateView } from "./stored-candidate.js";

export interface WorkerInit {
  home: string;
  mode: KeyMode;
  /** The store key and signing seed of the already opened store (in-process only; never written anywhere). */
  storeKey: Uint8Array;
  signingSeed: Uint8Array;
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
