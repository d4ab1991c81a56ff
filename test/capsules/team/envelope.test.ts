/**
 * The per-object envelope and epoch sealing (issue 34 item 2): round trips for every recipient, and each thing the
 * database could do to a row (swap ids, relabel kinds, move wraps, alter bytes, make its own object) refused.
 */
import { describe, expect, test } from "vitest";
import fc from "fast-check";
import nacl from "tweetnacl";
import { TeamError } from "../../../capsules/team/errors.js";
import { hourOf, newObjectId, openObject, sealObject, type Recipient } from "../../../capsules/team/envelope.js";
import { EpochPurpose, epochKey, epochKeyPayload, newEpochKey, openUnderEpoch, readEpochKeyPayload, sealUnderEpoch } from "../../../capsules/team/epoch-keys.js";
import type { MemberKeys } from "../../../capsules/team/member-keys.js";
import type { TeamObjectIn, TeamObjectOut } from "../../../capsules/team/queue-port.js";
import { flipped, newMember } from "./team-fixtures.js";

const alice = newMember();
const bob = newMember();
const carol = newMember();
const rcpt = (k: MemberKeys): Recipient => ({ fingerprint: k.fingerprint, boxKey: k.box.publicKey });
const authors = new Map([alice, bob].map((k) => [k.fingerprint, k.sign.publicKey]));
const authorKey = (fp: string) => authors.get(fp);

function served(o: TeamObjectIn, to: MemberKeys, seq = 1): TeamObjectOut {
  const w = o.wraps.find((x) => x.recipient === to.fingerprint);
  if (w === undefined) throw new Error("no wrap");
  return { seq, id: o.id, kind: o.kind, hour: o.hour, body: o.body, wrapped: w.wrapped };
}

function failure(f: () => unknown): string {
  try {
    f();
  } catch (e) {
    expect(e).toBeInstanceOf(TeamError);
    return (e as Error).message;
  }
  throw new Error("expected a TeamError");
}

describe("object envelope", () => {
  test("hour truncation and random ids", () => {
    expect(hourOf(new Date("2026-11-28T22:41:07.123Z"))).toBe("2026-11-28T22:00:00Z");
    const ids = new Set(Array.from({ length: 100 }, newObjectId));
    expect(ids.size).toBe(100);
    for (const id of ids) expect(id).toMatch(/^[0-9a-f]{32}$/);
  });

  test("property: every recipient opens the same payload; the body does not contain it", () => {
    fc.assert(
      fc.property(fc.uint8Array({ minLength: 0, maxLength: 2000 }), (payload) => {
        const o = sealObject({ id: newObjectId(), kind: "capsule", hour: "2026-11-28T22:00:00Z", payload, author: alice, recipients: [rcpt(alice), rcpt(bob)] });
        expect(o.wraps.map((w) => w.recipient)).toEqual([alice.fingerprint, bob.fingerprint]);
        for (const k of [alice, bob]) {
          const opened = openObject(served(o, k), k, authorKey);
          expect(Buffer.from(opened.payload).equals(Buffer.from(payload))).toBe(true);
          expect(opened.author).toBe(alice.fingerprint);
        }
        if (payload.length >= 16) expect(Buffer.from(o.body).includes(Buffer.from(payload))).toBe(false);
      }),
      { numRuns: 60 },
    );
  });

  test("a non-recipient cannot open it", () => {
    const o = sealObject({ id: newObjectId(), kind: "capsule", hour: "2026-11-28T22:00:00Z", payload: new Uint8Array([1, 2, 3]), author: alice, recipients: [rcpt(alice)] });
    expect(failure(() => openObject(served(o, alice), carol, authorKey))).toContain("does not open with this member's key");
  });

  test("the database swaps ids, relabels a kind, moves a wrap, alters a body", () => {
    const hour = "2026-11-28T22:00:00Z";
    const a = sealObject({ id: newObjectId(), kind: "capsule", hour, payload: new Uint8Array([1]), author: alice, recipients: [rcpt(bob)] });
    const b = sealObject({ id: newObjectId(), kind: "candidate", hour, payload: new Uint8Array([2]), author: alice, recipients: [rcpt(bob)] });
    // a's body and wrap served under b's id: the wrap names a's id
    expect(failure(() => openObject({ ...served(a, bob), id: b.id }, bob, authorKey))).toContain("key wrap belongs to object");
    // a's wrap moved onto b's body
    expect(failure(() => openObject({ ...served(b, bob), wrapped: served(a, bob).wrapped }, bob, authorKey))).toContain("key wrap belongs to object");
    // relabelled kind
    expect(failure(() => openObject({ ...served(a, bob), kind: "candidate" }, bob, authorKey))).toContain("sealed as a capsule, served as a candidate");
    // one flipped bit anywhere in the body
    for (let i = 0; i < a.body.length; i += 7) {
      expect(() => openObject({ ...served(a, bob), body: flipped(a.body, i) }, bob, authorKey)).toThrow(TeamError);
    }
  });

  test("an object made by someone outside the membership (the database, which knows public keys) is refused", () => {
    const o = sealObject({ id: newObjectId(), kind: "candidate", hour: "2026-11-28T22:00:00Z", payload: new Uint8Array([9]), author: carol, recipients: [rcpt(bob)] });
    expect(failure(() => openObject(served(o, bob), bob, authorKey))).toContain("who is not a member of the signed membership");
  });
});

describe("epoch keys", () => {
  test("round trip per purpose; another purpose, another epoch, an altered byte refused", () => {
    const k = newEpochKey();
    const keys = new Map([[k.id, k]]);
    const body = sealUnderEpoch(new Uint8Array([5, 6, 7]), k, EpochPurpose.entry);
    expect([...openUnderEpoch(body, keys, EpochPurpose.entry, "row")]).toEqual([5, 6, 7]);
    expect(failure(() => openUnderEpoch(body, keys, EpochPurpose.membership, "row"))).toContain("sealed for another purpose");
    expect(failure(() => openUnderEpoch(body, new Map(), EpochPurpose.entry, "row"))).toContain("whose key this member was never given");
    expect(failure(() => openUnderEpoch(flipped(body, body.length - 1), keys, EpochPurpose.entry, "row"))).toContain("failed authentication");
    // a purpose byte changed by the database does not help it either
    const relabelled = Uint8Array.from(body);
    relabelled[17] = EpochPurpose.membership;
    expect(failure(() => openUnderEpoch(relabelled, keys, EpochPurpose.membership, "row"))).toContain("failed authentication");
  });

  test("the epoch id commits to the key: a payload naming another id is refused", () => {
    const k = newEpochKey();
    expect(readEpochKeyPayload(epochKeyPayload(k)).id).toBe(k.id);
    const other = epochKey(nacl.randomBytes(32));
    const text = Buffer.from(epochKeyPayload(k)).toString().replace(k.id, other.id);
    expect(failure(() => readEpochKeyPayload(new TextEncoder().encode(text)))).toContain("does not match the key");
  });
});
