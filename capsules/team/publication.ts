/**
 * A publication (issue 34 item 2): the payload of a `candidate` object, published beside its `capsule` object (whose
 * payload is the capsule's canonical bytes, exactly as the sealed store holds them).
 *
 *     <canonical JSON header> LF <candidate bytes>
 *     header = {"candidate_sha256":…,"capsule_object":<object id>,"capsule_sha256":…,
 *               "format":"evidence-bridge-team-publication/v1","typology_match_visible":false}
 *
 * `candidate_sha256` is the SHA-256 of the candidate bytes (the digest review records name); `capsule_sha256` the
 * capsule's content id. Both objects are sealed, so the database learns neither.
 */
import { canonicalBytes } from "../../src/json/canonical.js";
import { sha256Hex } from "../../src/hash.js";
import { TeamError } from "./errors.js";
import { exactObject, hexField } from "./fields.js";
import type { OpenedObject } from "./envelope.js";

export const PUBLICATION_FORMAT = "evidence-bridge-team-publication/v1";

export interface Publication {
  objectId: string;
  capsuleObject: string;
  capsuleSha256: string;
  candidateSha256: string;
  /** The candidate's bytes; absent for a publication taken from the view cache (only ids and digests are cached). */
  candidateBytes?: Uint8Array;
  typologyMatchVisible: boolean;
  author: string;
  hour: string;
}

export function publicationPayload(p: { capsuleObject: string; capsuleSha256: string; candidateBytes: Uint8Array; typologyMatchVisible: boolean }): Uint8Array {
  const header = canonicalBytes(
    {
      candidate_sha256: sha256Hex(p.candidateBytes),
      capsule_object: p.capsuleObject,
      capsule_sha256: p.capsuleSha256,
      format: PUBLICATION_FORMAT,
      typology_match_visible: p.typologyMatchVisible,
    },
    "publication",
  );
  return new Uint8Array([...header, 0x0a, ...p.candidateBytes]);
}

export function readPublication(o: OpenedObject, hour: string): Publication {
  const what = `candidate object ${o.id}`;
  const nl = o.payload.indexOf(0x0a);
  if (nl < 0) throw new TeamError("malformed", `${what}: no header line`);
  const h = exactObject(o.payload.subarray(0, nl), what, ["candidate_sha256", "capsule_object", "capsule_sha256", "format", "typology_match_visible"]);
  if (h.get("format") !== PUBLICATION_FORMAT) throw new TeamError("malformed", `${what}.format: expected ${PUBLICATION_FORMAT}`);
  const visible = h.get("typology_match_visible");
  if (typeof visible !== "boolean") throw new TeamError("malformed", `${what}.typology_match_visible: expected a boolean`);
  const candidateBytes = o.payload.slice(nl + 1);
  const candidateSha256 = hexField(h, "candidate_sha256", what, 64);
  if (sha256Hex(candidateBytes) !== candidateSha256) throw new TeamError("forged", `${what}: the candidate does not match its sealed digest`);
  return {
    objectId: o.id,
    capsuleObject: hexField(h, "capsule_object", what, 32),
    capsuleSha256: hexField(h, "capsule_sha256", what, 64),
    candidateSha256,
    candidateBytes,
    typologyMatchVisible: visible,
    author: o.author,
    hour,
  };
}
