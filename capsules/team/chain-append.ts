/**
 * Appending to the team chain (issue 34 item 3): the entry is built on the verified head, sealed under the epoch in
 * force, and appended with `appendRecord(prev, digest, body)`. The table's UNIQUE `prev` lets only one writer win a
 * head; the loser reads the chain again (verifying it, so a decision that became impossible meanwhile, such as a
 * second approval completing four-eyes, is refused) and rebuilds its entry on the new head.
 */
import { sha256Hex } from "../../src/hash.js";
import { TeamError } from "./errors.js";
import type { EpochKey } from "./epoch-keys.js";
import type { MemberKeys } from "./member-keys.js";
import type { Membership } from "./membership.js";
import type { TeamQueuePort } from "./queue-port.js";
import { sealEntry } from "./team-chain.js";
import { readTeamState, writePosition, type TeamState } from "./team-state.js";
import { readTeamView, type TeamView } from "./team-view.js";

/** How many heads an append may lose before it gives up (each loss means another member appended meanwhile). */
export const MAX_APPEND_ATTEMPTS = 20;

export interface Appended<T> {
  view: TeamView;
  value: T;
  /** 1-based row number of the appended entry. */
  row: number;
}

/**
 * Builds (from a freshly verified view) and appends one entry, retrying on conflict. `build` returns the entry's
 * plaintext, the epoch to seal it under, and a value handed back to the caller; it may throw to refuse, or return
 * undefined when there is nothing to append any more (then so does this).
 */
export async function appendEntry<T>(
  home: string,
  port: TeamQueuePort,
  keys: MemberKeys,
  build: (view: TeamView) => { entry: Uint8Array; epoch: EpochKey; value: T } | undefined,
): Promise<Appended<T> | undefined> {
  for (let attempt = 1; attempt <= MAX_APPEND_ATTEMPTS; attempt++) {
    const view = await readTeamView(home, port, keys, readTeamState(home), "warm");
    const built = build(view);
    if (built === undefined) return undefined;
    const { entry, epoch, value } = built;
    const body = sealEntry(entry, epoch);
    const digest = sha256Hex(body);
    const outcome = await port.appendRecord(view.chain.rowHead, digest, body);
    if (outcome === "appended") {
      writePosition(home, view.state, keys, { rows: view.chain.rows + 1, rowDigest: digest });
      return { view, value, row: view.chain.rows + 1 };
    }
  }
  throw new TeamError("conflict", `the team chain moved ${MAX_APPEND_ATTEMPTS} times while appending: other members are writing fast; try again`);
}

/** The epoch key named by a membership (which this member must hold). */
export function epochOfMembership(view: Pick<TeamView, "epochs">, m: Membership): EpochKey {
  const k = view.epochs.get(m.epoch);
  if (k === undefined) throw new TeamError("not-member", `membership v${m.version} seals under epoch ${m.epoch}, whose key this member does not hold`);
  return k;
}

export type { TeamState };
