/**
 * Publishing with a local outbox (issue 34 items 2 and 5): a capsule recorded by a member is sealed for the team at
 * once and kept in `<home>/team/outbox/<key>.pending` until `team sync` (or the command that recorded it, when the
 * team database is reachable) publishes it. Crash-safe by construction:
 *
 * - the object ids are chosen and the envelopes sealed BEFORE anything is written; the pending file is created
 *   atomically (staged, fsynced, linked into place) or not at all;
 * - publishing is `putObjects` (one transaction, idempotent on id) then `addWraps` (idempotent), then the pending
 *   file is renamed to `<home>/team/published/<key>`: a kill -9 at any point leaves either the pending file (the
 *   next sync re-sends the same ids and bytes: nothing inserted twice) or the marker (nothing to do);
 * - `<key>` = HMAC-SHA256(member signing seed, "evidence-bridge team outbox v1\0" ‖ capsule id): a capsule is queued
 *   once per member, and file names do not reveal capsule ids.
 *
 * Nothing in a pending file is plaintext: bodies are sealed and each data key exists only wrapped (the member's own
 * wrap lets `team sync` wrap it for members who joined after the capsule was queued). The file has mode 0600.
 */
import { readdirSync, renameSync } from "node:fs";
import { join } from "node:path";
import { canonicalBytes } from "../../src/json/canonical.js";
import { parseStrictJson } from "../../src/json/parse.js";
import { isJsonObject } from "../../src/json/value.js";
import { hmacSha256Hex } from "../../src/hash.js";
import { pathExists } from "../../src/crypto/key-files.js";
import { readRegularFile } from "../../src/crypto/safe-read.js";
import { createFileExclusive, ensurePrivateDir, fsyncDir } from "../../src/crypto/safe-write.js";
import { errno } from "../../src/errno.js";
import { hexToBytes } from "../../src/hash.js";
import { TeamError } from "./errors.js";
import { domainBytes, hexField, malformed, objectWith } from "./fields.js";
import { hourOf, newObjectId, sealObject, unwrapKey, wrapKey, type Recipient } from "./envelope.js";
import { teamDir, type MemberKeys } from "./member-keys.js";
import { memberOf, type Membership } from "./membership.js";
import { publicationPayload } from "./publication.js";
import { TEAM_OBJECT_KINDS, type TeamObjectIn, type TeamQueuePort } from "./queue-port.js";
import type { TeamView } from "./team-view.js";

export const OUTBOX_FORMAT = "evidence-bridge-team-outbox/v1";
const KEY_DOMAIN = "evidence-bridge team outbox v1\u0000";
const PENDING = ".pending";
const MAX_PENDING_BYTES = 64 * 1024 * 1024;

export function outboxDir(home: string): string {
  return join(teamDir(home), "outbox");
}
export function publishedDir(home: string): string {
  return join(teamDir(home), "published");
}

function outboxKey(keys: MemberKeys, capsuleSha256: string): string {
  return hmacSha256Hex(keys.sign.seed, domainBytes(KEY_DOMAIN, new TextEncoder().encode(capsuleSha256)));
}

export function recipientsOf(m: Membership): Recipient[] {
  return m.members.map((x) => ({ fingerprint: x.fingerprint, boxKey: hexToBytes(x.boxKey) }));
}

export interface PublishItem {
  capsuleSha256: string;
  capsuleBytes: Uint8Array;
  /** The capsule's candidate (default view), or undefined when it emits none (then only the capsule goes). */
  candidate?: { bytes: Uint8Array; typologyMatchVisible: boolean };
}

/** Whether this capsule is already queued or published by this member. */
export function alreadyQueued(home: string, keys: MemberKeys, capsuleSha256: string): boolean {
  const k = outboxKey(keys, capsuleSha256);
  return pathExists(join(outboxDir(home), `${k}${PENDING}`)) || pathExists(join(publishedDir(home), k));
}

/** Seals one capsule (and its candidate) for every member of `membership` and queues it. "queued" or "already". */
export function enqueuePublication(home: string, keys: MemberKeys, membership: Membership, item: PublishItem, now = new Date()): "queued" | "already" {
  if (alreadyQueued(home, keys, item.capsuleSha256)) return "already";
  const recipients = recipientsOf(membership);
  const hour = hourOf(now);
  const capsuleId = newObjectId();
  const objects: TeamObjectIn[] = [sealObject({ id: capsuleId, kind: "capsule", hour, payload: item.capsuleBytes, author: keys, recipients })];
  if (item.candidate !== undefined) {
    const payload = publicationPayload({ capsuleObject: capsuleId, capsuleSha256: item.capsuleSha256, candidateBytes: item.candidate.bytes, typologyMatchVisible: item.candidate.typologyMatchVisible });
    objects.push(sealObject({ id: newObjectId(), kind: "candidate", hour, payload, author: keys, recipients }));
  }
  ensurePrivateDir(teamDir(home));
  ensurePrivateDir(outboxDir(home));
  const made = createFileExclusive(outboxDir(home), `${outboxKey(keys, item.capsuleSha256)}${PENDING}`, encodePending(objects));
  return made === "created" ? "queued" : "already";
}

function b64(b: Uint8Array): string {
  return Buffer.from(b).toString("base64");
}

function encodePending(objects: readonly TeamObjectIn[]): Uint8Array {
  return canonicalBytes(
    {
      format: OUTBOX_FORMAT,
      objects: objects.map((o) => ({ body: b64(o.body), hour: o.hour, id: o.id, kind: o.kind, wraps: o.wraps.map((w) => ({ recipient: w.recipient, wrapped: b64(w.wrapped) })) })),
    },
    "outbox",
  );
}

function fromB64(v: unknown, what: string): Uint8Array {
  if (typeof v !== "string" || !/^[A-Za-z0-9+/]*={0,2}$/.test(v)) throw malformed(what, "expected base64");
  return new Uint8Array(Buffer.from(v, "base64"));
}

function decodePending(bytes: Uint8Array, what: string): TeamObjectIn[] {
  let v;
  try {
    v = parseStrictJson(bytes);
  } catch {
    throw malformed(what, "not strict JSON (damaged pending file)");
  }
  const o = objectWith(v, what, ["format", "objects"]);
  if (o.get("format") !== OUTBOX_FORMAT) throw malformed(`${what}.format`, `expected ${OUTBOX_FORMAT}`);
  const list = o.get("objects");
  if (!Array.isArray(list) || list.length === 0) throw malformed(`${what}.objects`, "expected a non-empty array");
  return list.map((x, i) => {
    const path = `${what}.objects[${i}]`;
    const ob = objectWith(isJsonObject(x) ? x : undefined, path, ["body", "hour", "id", "kind", "wraps"]);
    const kind = ob.get("kind");
    if (typeof kind !== "string" || !(TEAM_OBJECT_KINDS as readonly string[]).includes(kind)) throw malformed(`${path}.kind`, "unknown kind");
    const hour = ob.get("hour");
    if (typeof hour !== "string" || !/^\d{4}-\d{2}-\d{2}T\d{2}:00:00Z$/.test(hour)) throw malformed(`${path}.hour`, "expected an hour");
    const wraps = ob.get("wraps");
    if (!Array.isArray(wraps)) throw malformed(`${path}.wraps`, "expected an array");
    return {
      id: hexField(ob, "id", path, 32),
      kind: kind as TeamObjectIn["kind"],
      hour,
      body: fromB64(ob.get("body"), `${path}.body`),
      wraps: wraps.map((w, j) => {
        const wo = objectWith(isJsonObject(w) ? w : undefined, `${path}.wraps[${j}]`, ["recipient", "wrapped"]);
        return { recipient: hexField(wo, "recipient", `${path}.wraps[${j}]`, 64), wrapped: fromB64(wo.get("wrapped"), `${path}.wraps[${j}].wrapped`) };
      }),
    };
  });
}

export function pendingCount(home: string): number {
  return listPending(home).length;
}

function listPending(home: string): string[] {
  try {
    return readdirSync(outboxDir(home)).filter((n) => n.endsWith(PENDING) && /^[0-9a-f]{64}\.pending$/.test(n)).sort();
  } catch (e) {
    if (errno(e) === "ENOENT") return [];
    throw new TeamError("io", `cannot list ${outboxDir(home)}: ${errno(e) ?? (e as Error).message}`);
  }
}

export interface FlushResult {
  files: number;
  inserted: number;
  existing: number;
}

/**
 * Publishes every pending file: wraps added for members of `membership` who lack one (from this member's own wrap),
 * `putObjects`, `addWraps`, then the file becomes a published marker. Stops at the first failure (what was done
 * stays done; a re-run continues).
 */
export async function flushOutbox(home: string, port: TeamQueuePort, keys: MemberKeys, membership: Membership): Promise<FlushResult> {
  const out: FlushResult = { files: 0, inserted: 0, existing: 0 };
  const recipients = recipientsOf(membership);
  for (const name of listPending(home)) {
    const path = join(outboxDir(home), name);
    const objects = decodePending(readRegularFile(path, { maxBytes: MAX_PENDING_BYTES, label: path }), path);
    const extra: { objectId: string; recipient: string; wrapped: Uint8Array }[] = [];
    for (const o of objects) {
      const own = o.wraps.find((w) => w.recipient === keys.fingerprint);
      if (own === undefined) throw new TeamError("state", `${path}: holds no wrap for this member (written by another member key?)`);
      const missing = recipients.filter((r) => !o.wraps.some((w) => w.recipient === r.fingerprint));
      if (missing.length === 0) continue;
      const dataKey = unwrapKey(own.wrapped, o.id, keys);
      for (const r of missing) extra.push({ objectId: o.id, recipient: r.fingerprint, wrapped: wrapKey(dataKey, o.id, r) });
    }
    // Removed members keep the wraps they got when the capsule was queued only if still listed; drop the others.
    const current = new Set(recipients.map((r) => r.fingerprint));
    const sent = objects.map((o) => ({ ...o, wraps: o.wraps.filter((w) => current.has(w.recipient)) }));
    const r = await port.putObjects(sent);
    if (extra.length > 0) await port.addWraps(extra);
    ensurePrivateDir(publishedDir(home));
    renameSync(path, join(publishedDir(home), name.slice(0, -PENDING.length)));
    fsyncDir(publishedDir(home));
    fsyncDir(outboxDir(home));
    out.files++;
    out.inserted += r.inserted;
    out.existing += r.existing;
  }
  return out;
}

/**
 * After a publisher's sync: members admitted while it published (absent from the membership it sealed for) may lack
 * a wrap on what it just published, since the admin's re-wrap at `team invite` covers only objects already stored.
 * Wraps this member's own objects in `view` (a cold read, after publishing) for them; idempotent. Returns how many.
 */
export async function wrapForNewMembers(port: TeamQueuePort, keys: MemberKeys, sealedFor: Membership, view: TeamView): Promise<number> {
  const added = view.membership.members.filter((m) => memberOf(sealedFor, m.fingerprint) === undefined);
  if (added.length === 0) return 0;
  const wraps = view.objects
    .filter((o) => o.author === keys.fingerprint && o.kind !== "membership-keys")
    .flatMap((o) => added.map((m) => ({ objectId: o.id, recipient: m.fingerprint, wrapped: wrapKey(o.dataKey, o.id, { fingerprint: m.fingerprint, boxKey: hexToBytes(m.boxKey) }) })));
  for (let i = 0; i < wraps.length; i += 500) await port.addWraps(wraps.slice(i, i + 500));
  return wraps.length;
}
