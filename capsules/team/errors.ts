/**
 * Team errors (issue 34): one precise line naming the document, the field or the rule and what happened. Messages
 * never quote ciphertext, key material, member names of other teams or any private value of the store.
 *
 * Codes: `malformed` (a request, invitation, membership or envelope breaks its format), `signature` (a signature or
 * self-signature does not verify), `forged` (a row the database serves was not written by a member: bad outer
 * digest, unknown signer, a key that is not the team's), `rollback` (the database serves less than this member
 * already saw, or another history), `removed` (a record signed by a member after their removal), `not-member`
 * (this installation is not, or no longer, a member), `state` (local team state missing or damaged), `conflict`
 * (the chain head moved too often while appending), `io`.
 */
export type TeamErrorCode = "malformed" | "signature" | "forged" | "rollback" | "removed" | "not-member" | "state" | "conflict" | "io";

export class TeamError extends Error {
  override readonly name = "TeamError";
  constructor(
    readonly code: TeamErrorCode,
    message: string,
  ) {
    super(message);
  }
}
