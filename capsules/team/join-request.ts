/**
 * The join request (issue 34 item 1): what `team join --name NAME` prints and the admin's `team invite` reads. Text
 * (text-document.ts, kind `join-request`) whose JSON line is
 *
 *     {"box_key":<64 hex, X25519>,"format":"evidence-bridge-team-join-request/v1","name":…,
 *      "sign_key":<64 hex, Ed25519>,"signature":<128 hex>}
 *
 * self-signed with the Ed25519 key over `"evidence-bridge team join request v1\0"` + the canonical bytes without
 * `signature`: the request proves its sender holds the signing key, and that the box key was named by that holder.
 * It does NOT prove who the sender is: the admin compares the fingerprint `team invite` prints with the one the
 * member reads out over another channel (docs/team.md "Joining").
 *
 * The name follows the reviewer name rule (capsules/review/text-rules.ts): it is signed into decisions.
 */
import { canonicalBytes } from "../../src/json/canonical.js";
import { bytesToHex, hexToBytes } from "../../src/hash.js";
import { verifySignature } from "../../src/crypto/sign.js";
import { normalizedReviewerName, reviewerNameProblem } from "../review/text-rules.js";
import { TeamError } from "./errors.js";
import { domainBytes, exactObject, hexField, malformed, stringField } from "./fields.js";
import { memberFingerprint, type MemberKeys } from "./member-keys.js";
import { decodeTextDocument, encodeTextDocument } from "./text-document.js";

export const JOIN_REQUEST_FORMAT = "evidence-bridge-team-join-request/v1";
const DOMAIN = "evidence-bridge team join request v1\u0000";
const MEMBERS = ["box_key", "format", "name", "sign_key", "signature"];
const WHAT = "join request";

export interface JoinRequest {
  name: string;
  signKey: string;
  boxKey: string;
  /** Member fingerprint of `signKey`. */
  fingerprint: string;
}

function unsigned(r: JoinRequest): Uint8Array {
  return canonicalBytes({ box_key: r.boxKey, format: JOIN_REQUEST_FORMAT, name: r.name, sign_key: r.signKey }, WHAT);
}

/** The text of a join request for `keys` under the typed `name` (normalised, checked against the name rule). */
export function makeJoinRequest(keys: MemberKeys, typedName: string): string {
  const name = normalizedReviewerName(typedName);
  const problem = reviewerNameProblem(name);
  if (problem !== undefined) throw new TeamError("malformed", `--name: ${problem}`);
  const r: JoinRequest = { name, signKey: bytesToHex(keys.sign.publicKey), boxKey: bytesToHex(keys.box.publicKey), fingerprint: keys.fingerprint };
  const signature = bytesToHex(keys.sign.sign(domainBytes(DOMAIN, unsigned(r))));
  const json = canonicalBytes({ box_key: r.boxKey, format: JOIN_REQUEST_FORMAT, name, sign_key: r.signKey, signature }, WHAT);
  return encodeTextDocument("join-request", json);
}

/** Reads and verifies a join request's text; throws TeamError `malformed` or `signature`. */
export function readJoinRequest(bytes: Uint8Array): JoinRequest {
  const o = exactObject(decodeTextDocument(bytes, "join-request", WHAT), WHAT, MEMBERS);
  if (o.get("format") !== JOIN_REQUEST_FORMAT) throw malformed(`${WHAT}.format`, `expected ${JOIN_REQUEST_FORMAT}`);
  const name = stringField(o, "name", WHAT);
  const problem = reviewerNameProblem(name);
  if (problem !== undefined) throw malformed(`${WHAT}.name`, problem);
  const signKey = hexField(o, "sign_key", WHAT, 64);
  const boxKey = hexField(o, "box_key", WHAT, 64);
  const signature = hexField(o, "signature", WHAT, 128);
  const r: JoinRequest = { name, signKey, boxKey, fingerprint: memberFingerprint(hexToBytes(signKey)) };
  if (!verifySignature(hexToBytes(signKey), domainBytes(DOMAIN, unsigned(r)), hexToBytes(signature))) {
    throw new TeamError("signature", `${WHAT}.signature: does not verify with its own sign_key (the request was altered after it was made)`);
  }
  return r;
}
