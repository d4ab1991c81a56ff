/**
 * The team queue port (issue 34): what the private side (capsules/team/, the `team` and `review --team` commands)
 * asks of the shared store, and all it asks. The store is UNTRUSTED: a PostgreSQL database that a third party may
 * operate (bridge/team/ implements this port with `pg`). It holds opaque bytes only: every body below is ciphertext
 * made in capsules/team/; ids are random; times are truncated to the hour; recipients are member key fingerprints.
 * Nothing here opens a socket (capsules/ may not); the implementation lives in bridge/.
 *
 * What the store can do to us, and what the private side does about it (docs/team.md, SECURITY.md):
 * - withhold or roll back rows: detected by the signed chain and each member's signed position;
 * - forge or alter a row: refused (every body is sealed and every record signed by a member of the signed membership);
 * - swap a row's id or kind: refused (id and kind are bound inside the sealed plaintext).
 *
 * Changes from the contract first agreed with wt/team-pg (all additive; the interface itself is unchanged):
 * - `OpenTeamQueue` / `TeamQueueOpenOptions`: the factory type the CLI calls, so `team init --database URL` can ask
 *   the implementation to create its schema (`create: true`) and every other command opens an existing one
 *   (`create: false`: a missing schema is an error naming `team init`). The port itself has no schema method because
 *   a schema is the implementation's business, not the private side's.
 * - `TEAM_OBJECT_KINDS`: the closed set as a value, so both sides refuse an unknown kind the same way.
 * - The contract's doc comments now say what an implementation must refuse (a different body under an existing id or
 *   membership version), so a bug on either side fails closed instead of silently keeping one of two versions.
 */

/** The closed set of object kinds. `membership-keys` is reserved for sealed membership material (member names and
 *  public keys travel sealed; the signed membership document itself goes through `putMembership`). */
export const TEAM_OBJECT_KINDS = ["capsule", "candidate", "membership-keys"] as const;
export type TeamObjectKind = (typeof TEAM_OBJECT_KINDS)[number];

export interface TeamObjectIn {
  /** 32 lowercase hex, random, chosen by the publisher BEFORE the write (kept in its sealed outbox). */
  id: string;
  kind: TeamObjectKind;
  /** ISO 8601 UTC truncated to the hour, e.g. "2026-11-28T22:00:00Z". */
  hour: string;
  /** Ciphertext (capsules/team/envelope.ts). */
  body: Uint8Array;
  /** One wrapped data key per recipient; recipient = member key fingerprint, 64 lowercase hex. */
  wraps: { recipient: string; wrapped: Uint8Array }[];
}

export interface TeamObjectOut {
  /** Assigned by the store, strictly increasing in insertion order. */
  seq: number;
  id: string;
  kind: TeamObjectKind;
  hour: string;
  body: Uint8Array;
  /** The wrap for the asking recipient. */
  wrapped: Uint8Array;
}

export interface TeamRecordOut {
  /** Assigned by the store, strictly increasing in insertion order. */
  seq: number;
  /** 64 lowercase hex; the genesis record's prev is 64 zeros. */
  prev: string;
  /** 64 lowercase hex, sha256 of body. */
  digest: string;
  body: Uint8Array;
}

export interface TeamQueuePort {
  /** One transaction; idempotent on id (a re-publish after a crash inserts nothing twice). An existing id whose
   *  stored kind, hour or body differs from the one offered is an error (nothing of the batch is written). */
  putObjects(objects: readonly TeamObjectIn[]): Promise<{ inserted: number; existing: number }>;
  /** Idempotent on (objectId, recipient): the same bytes again are accepted, different bytes are an error (the
   *  private side derives a wrap deterministically from the data key, so a resumed run offers the same bytes). Used
   *  when a member is added and by `team sync`. An unknown objectId is an error. */
  addWraps(wraps: readonly { objectId: string; recipient: string; wrapped: Uint8Array }[]): Promise<void>;
  /** Objects with a wrap for this recipient, seq ascending, after `afterSeq`, at most `limit`. */
  objectsFor(recipient: string, afterSeq: number, limit: number): Promise<TeamObjectOut[]>;
  /** Appends a chain record whose `prev` must be unique in the table (UNIQUE constraint), so two writers can never
   *  fork the chain: the loser gets "conflict" and retries on the new head. `digest` = sha256 of body, hex. */
  appendRecord(prev: string, digest: string, body: Uint8Array): Promise<"appended" | "conflict">;
  /** Records after `afterSeq`, seq ascending. */
  records(afterSeq: number): Promise<TeamRecordOut[]>;
  /** Signed membership documents, versioned; a version is written once ("exists" when already there with the same
   *  bytes, an error if different bytes). */
  putMembership(version: number, body: Uint8Array): Promise<"stored" | "exists">;
  /** Every stored membership document, version ascending. */
  memberships(): Promise<{ version: number; body: Uint8Array }[]>;
  /** Counts for `team status`: queue depth etc. */
  counts(): Promise<{ objects: number; records: number }>;
  close(): Promise<void>;
}

export interface TeamQueueOpenOptions {
  /** true only for `team init`: create the schema when absent (idempotent). false: a missing schema is an error. */
  create: boolean;
}

/** How the CLI obtains a port for `--team URL` / `EVIDENCE_BRIDGE_TEAM_URL` (implemented in bridge/team/). The URL
 *  is the database's, e.g. `postgres://user@host/db?sslmode=verify-full`; it is never logged (it may hold a
 *  password). */
export type OpenTeamQueue = (url: string, options: TeamQueueOpenOptions) => Promise<TeamQueuePort>;
