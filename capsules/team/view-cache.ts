/**
 * The member's sealed view cache (issue 34's "review list over a 10,000-candidate queue ≤ 1 s warm"):
 * `<home>/team/view-cache`, what this member already verified of the queue, so a warm read fetches and verifies only
 * the rows added since (team-view.ts). AES-256-GCM (src/crypto/aead.ts) under HMAC-SHA256(member secret keys,
 * `"evidence-bridge team view cache v1\0"`), the team id and member fingerprint authenticated with it: a cache that
 * does not open is ignored (and rebuilt by a cold read), never trusted.
 *
 * It holds the epoch keys, the publications' ids and digests (not the candidate bytes), the capsule objects' ids, and
 * the verified chain prefix (the decisions' canonical records, the heads, the store seqs to resume after). Nothing
 * in it is new to this machine: it is what the member's client decrypted, sealed again under the member's key.
 */
import { join } from "node:path";
import { aeadOpen, aeadSeal } from "../../src/crypto/aead.js";
import { readRegularFileIfExists } from "../../src/crypto/safe-read.js";
import { ensurePrivateDir, replaceFile } from "../../src/crypto/safe-write.js";
import { bytesToHex, hexToBytes, hmacSha256Bytes } from "../../src/hash.js";
import type { ReviewRecord } from "../review/record.js";
import type { LoggedRecord } from "../review/state.js";
import { epochKey, type EpochKey } from "./epoch-keys.js";
import { domainBytes } from "./fields.js";
import { teamDir, type MemberKeys } from "./member-keys.js";
import type { Publication } from "./publication.js";
import type { ChainStart } from "./team-chain.js";
import type { TeamState } from "./team-state.js";

const DOMAIN = "evidence-bridge team view cache v1\u0000";
const FORMAT = "evidence-bridge-team-view-cache/v1";
const NAME = "view-cache";
const MAX_BYTES = 1024 * 1024 * 1024;

export type CachedPublication = Omit<Publication, "candidateBytes">;

export interface ViewCache {
  maxObjectSeq: number;
  epochs: EpochKey[];
  capsuleObjects: Map<string, string>;
  publications: CachedPublication[];
  chain: ChainStart;
}

function key(keys: MemberKeys): Uint8Array {
  return hmacSha256Bytes(new Uint8Array([...keys.sign.seed, ...keys.box.secretKey]), new TextEncoder().encode(DOMAIN));
}

function aad(s: TeamState): Uint8Array {
  return domainBytes(DOMAIN, new TextEncoder().encode(`${s.teamId}\u0000${s.member}`));
}

export function writeViewCache(home: string, s: TeamState, keys: MemberKeys, c: ViewCache): void {
  const json = JSON.stringify({
    format: FORMAT,
    maxObjectSeq: c.maxObjectSeq,
    epochs: c.epochs.map((e) => bytesToHex(e.key)),
    capsuleObjects: [...c.capsuleObjects],
    publications: c.publications.map((p) => ({ ...p, candidateBytes: undefined })),
    chain: { ...c.chain, records: c.chain.records.map((e) => ({ d: e.digest, r: e.record })) },
  });
  ensurePrivateDir(teamDir(home));
  replaceFile(teamDir(home), NAME, aeadSeal(new TextEncoder().encode(json), key(keys), aad(s)), { syncDir: false });
}

/** The cache, or undefined when there is none or it does not open (then the caller reads cold). */
export function readViewCache(home: string, s: TeamState, keys: MemberKeys): ViewCache | undefined {
  let sealed: Uint8Array | undefined;
  try {
    sealed = readRegularFileIfExists(join(teamDir(home), NAME), { maxBytes: MAX_BYTES, label: join(teamDir(home), NAME) });
  } catch {
    return undefined;
  }
  if (sealed === undefined) return undefined;
  const plain = aeadOpen(sealed, key(keys), aad(s));
  if (plain === null) return undefined;
  const v = JSON.parse(Buffer.from(plain).toString("utf8")) as {
    format: string;
    maxObjectSeq: number;
    epochs: string[];
    capsuleObjects: [string, string][];
    publications: CachedPublication[];
    chain: Omit<ChainStart, "records"> & { records: { d: string; r: ReviewRecord }[] };
  };
  if (v.format !== FORMAT) return undefined;
  const records: LoggedRecord[] = v.chain.records.map((e) => ({ record: e.r, digest: e.d, line: e.r.seq }));
  return {
    maxObjectSeq: v.maxObjectSeq,
    epochs: v.epochs.map((k) => epochKey(hexToBytes(k))),
    capsuleObjects: new Map(v.capsuleObjects),
    publications: v.publications,
    chain: { ...v.chain, records },
  };
}
