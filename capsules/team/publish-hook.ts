/**
 * The store's publishing hook (issue 34 item 2): every capsule a member's store records, through any door
 * (`capsule build`, `capsule assess`, `capsule import`, the MCP tools), is sealed for the team and queued in the
 * local outbox at once (outbox.ts), with its candidate in the default view when it emits one. Nothing here reaches
 * the network: `team sync` publishes the outbox. A data directory that belongs to no team pays one file check.
 *
 * Called by capsules/pipeline/stored.ts after the derivations of a put are written. A failure here never fails the
 * put: `team sync` queues whatever the store holds and the outbox lacks.
 */
import { candidateView, type Derivation } from "../pipeline/derivation.js";
import { loadMemberKeys } from "./member-keys.js";
import { enqueuePublication } from "./outbox.js";
import { joinedTeam, readTeamState } from "./team-state.js";

export function queueRecordedForTeam(home: string, recorded: readonly { id: string; bytes: Uint8Array; derivation: Derivation | undefined }[]): void {
  if (recorded.length === 0 || !joinedTeam(home)) return;
  const { membership } = readTeamState(home);
  const keys = loadMemberKeys(home);
  for (const r of recorded) {
    const view = r.derivation === undefined ? undefined : candidateView(r.derivation, { includeTypologyMatches: false, includeClean: false });
    const candidate = view?.status === "emitted" ? { bytes: view.bytes, typologyMatchVisible: false } : undefined;
    enqueuePublication(home, keys, membership, { capsuleSha256: r.id, capsuleBytes: r.bytes, candidate });
  }
}
