/** What every private tool handler receives: the private state, the request's exact wire text, the egress values. */
import type { EgressValues } from "./egress-values.js";
import type { PrivateState } from "./private-state.js";
import type { RequestId, WireTable } from "./wire-table.js";

export interface PrivateContext {
  state: PrivateState;
  wire: WireTable;
  egress: EgressValues;
  /** The package version (producer block of capsules built here). */
  version: string;
}

export interface CallInfo {
  requestId: RequestId;
  signal: AbortSignal;
}
