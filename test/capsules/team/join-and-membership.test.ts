/**
 * Join request, signed membership and invitation (issue 34 item 1): round trips, and every tampering refused with
 * the rule it breaks.
 */
import { afterAll, describe, expect, test } from "vitest";
import fc from "fast-check";
import { bytesToHex } from "../../../src/hash.js";
import { TeamError } from "../../../capsules/team/errors.js";
import { makeJoinRequest, readJoinRequest } from "../../../capsules/team/join-request.js";
import { acceptInvitation, adminFingerprint, makeInvitation } from "../../../capsules/team/invitation.js";
import { checkMembershipSequence, readMembership, signMembership } from "../../../capsules/team/membership.js";
import { loadMemberKeys, loadOrCreateMemberKeys } from "../../../capsules/team/member-keys.js";
import { asMember, flipped, membership, newAdmin, newMember, removeTempHomes, tempHome, TEAM_ID } from "./team-fixtures.js";

afterAll(removeTempHomes);
const enc = (s: string) => new TextEncoder().encode(s);

function code(f: () => unknown): string {
  try {
    f();
  } catch (e) {
    expect(e).toBeInstanceOf(TeamError);
    return `${(e as TeamError).code}: ${(e as Error).message}`;
  }
  throw new Error("expected a TeamError");
}

describe("join request", () => {
  test("round trip: name, keys and fingerprint survive; the text has two lines", () => {
    const k = newMember();
    const text = makeJoinRequest(k, "Ada Lovelace");
    expect(text.split("\n")).toHaveLength(3);
    expect(text.startsWith("evidence-bridge team join-request v1\n")).toBe(true);
    const r = readJoinRequest(enc(text));
    expect(r).toEqual({ name: "Ada Lovelace", signKey: bytesToHex(k.sign.publicKey), boxKey: bytesToHex(k.box.publicKey), fingerprint: k.fingerprint });
  });

  test("a changed name, box key or signature is refused by the self-signature", () => {
    const k = newMember();
    const text = makeJoinRequest(k, "Ada Lovelace");
    expect(code(() => readJoinRequest(enc(text.replace("Ada Lovelace", "Ada Lovelacf"))))).toMatch(/^signature: join request.signature: does not verify/);
    const other = bytesToHex(newMember().box.publicKey);
    expect(code(() => readJoinRequest(enc(text.replace(bytesToHex(k.box.publicKey), other))))).toMatch(/^signature:/);
  });

  test("format rules: header, version, kind, line count, canonical JSON, unknown members, bad names", () => {
    const text = makeJoinRequest(newMember(), "Grace Hopper");
    expect(code(() => readJoinRequest(enc(text.replace("v1\n", "v2\n"))))).toContain("version v2 is not supported");
    expect(code(() => readJoinRequest(enc(text.replace("join-request", "invitation"))))).toContain("this is a team invitation, not a team join-request");
    expect(code(() => readJoinRequest(enc(`${text}\n`)))).toContain("expected exactly two lines");
    expect(code(() => readJoinRequest(enc(text.replace(/\n/g, "\r\n"))))).toMatch(/malformed/);
    expect(code(() => readJoinRequest(enc(text.replace('{"box_key"', '{ "box_key"'))))).toContain("not in canonical form");
    expect(code(() => readJoinRequest(enc(text.replace('{"box_key"', '{"age":1,"box_key"'))))).toContain("join request.age: unknown member");
    expect(code(() => makeJoinRequest(newMember(), "ada@example.org"))).toMatch(/^malformed: --name/);
  });

  test("property: any single changed byte of a request is refused", () => {
    const text = enc(makeJoinRequest(newMember(), "Mary Somerville"));
    fc.assert(
      fc.property(fc.integer({ min: 0, max: text.length - 1 }), fc.integer({ min: 1, max: 255 }), (i, x) => {
        const bad = Uint8Array.from(text);
        bad[i] ^= x;
        expect(() => readJoinRequest(bad)).toThrow(TeamError);
      }),
      { numRuns: 200 },
    );
  });
});

describe("membership", () => {
  const admin = newAdmin();
  const lead = newMember();
  const rev = newMember();

  test("signed, sorted, verifiable; its bytes are its one form", () => {
    const m = membership(admin, [asMember(rev, "Rita Reviewer", "reviewer"), asMember(lead, "Lea Lead", "lead")]);
    expect(m.members.map((x) => x.fingerprint)).toEqual([lead.fingerprint, rev.fingerprint].sort());
    expect(readMembership(m.bytes)).toEqual(m);
  });

  test("any flipped bit of the document is refused", () => {
    const m = membership(admin, [asMember(lead, "Lea Lead", "lead")]);
    fc.assert(
      fc.property(fc.integer({ min: 0, max: m.bytes.length - 1 }), (i) => {
        expect(() => readMembership(flipped(m.bytes, i))).toThrow(TeamError);
      }),
      { numRuns: 300 },
    );
  });

  test("a membership re-signed by another key is refused by the pin; a gap and a forgotten removal are named", () => {
    const pin = { teamId: TEAM_ID, adminKey: bytesToHex(admin.publicKey) };
    const v1 = membership(admin, [asMember(lead, "Lea Lead", "lead"), asMember(rev, "Rita Reviewer", "reviewer")]);
    const v2 = membership(admin, [asMember(lead, "Lea Lead", "lead")], { version: 2, removed: [rev.fingerprint] });
    expect(checkMembershipSequence([v1, v2], pin).version).toBe(2);
    const mallory = newAdmin();
    const forged = signMembership({ ...v2, version: 3, adminKey: bytesToHex(mallory.publicKey), removed: [] }, mallory);
    expect(code(() => checkMembershipSequence([v1, v2, forged], pin))).toMatch(/^forged: membership v3 is signed by admin key .*not by this team's admin key/);
    const v3 = membership(admin, [asMember(lead, "Lea Lead", "lead"), asMember(rev, "Rita Reviewer", "reviewer")], { version: 3 });
    expect(code(() => checkMembershipSequence([v1, v2, v3], pin))).toMatch(/^forged: membership v3 forgets the removal/);
    expect(code(() => checkMembershipSequence([v1, v3], pin))).toContain("a version is missing");
    expect(code(() => checkMembershipSequence([], pin))).toContain("holds no membership");
  });

  test("a team without a lead, a member also removed, and a bad role are refused", () => {
    expect(code(() => membership(admin, [asMember(rev, "Rita Reviewer", "reviewer")]))).toContain("at least one lead");
    expect(code(() => membership(admin, [asMember(lead, "Lea Lead", "lead")], { removed: [lead.fingerprint] }))).toContain("both a member and removed");
    const m = membership(admin, [asMember(lead, "Lea Lead", "lead")]);
    const text = Buffer.from(m.bytes).toString().replace('"role":"lead"', '"role":"owner"');
    expect(code(() => readMembership(enc(text)))).toContain("membership.members[0].role: expected one of investigator, reviewer, lead");
  });
});

describe("invitation", () => {
  const admin = newAdmin();
  const lead = newMember();
  const joiner = newMember();
  const m = membership(admin, [asMember(lead, "Lea Lead", "lead"), asMember(joiner, "Jo Joiner", "reviewer")]);

  test("accepted by the invited member, with the admin fingerprint checked when given", () => {
    const text = makeInvitation(m, joiner.fingerprint);
    const { invitation, self } = acceptInvitation(enc(text), joiner, adminFingerprint(m.adminKey));
    expect(self.name).toBe("Jo Joiner");
    expect(invitation.membership.sha256).toBe(m.sha256);
  });

  test("refused: for another member, from another admin, with a swapped sealing key, altered", () => {
    const text = makeInvitation(m, joiner.fingerprint);
    expect(code(() => acceptInvitation(enc(text), lead))).toMatch(/^not-member: the invitation is for member/);
    expect(code(() => acceptInvitation(enc(text), joiner, "f".repeat(64)))).toMatch(/^forged: the invitation is signed by admin key/);
    const swapped = membership(admin, [asMember(lead, "Lea Lead", "lead"), { ...asMember(joiner, "Jo Joiner", "reviewer"), boxKey: bytesToHex(newMember().box.publicKey) }]);
    expect(code(() => acceptInvitation(enc(makeInvitation(swapped, joiner.fingerprint)), joiner))).toMatch(/^forged: .*another sealing key/);
    expect(code(() => acceptInvitation(enc(text.replace("Jo Joiner", "Jo Joinex")), joiner))).toMatch(/^signature:/);
    expect(code(() => makeInvitation(m, newMember().fingerprint))).toMatch(/^not-member/);
  });
});

describe("member keys", () => {
  test("created once, 0600, and read back as the same key set", async () => {
    const home = tempHome();
    const a = loadOrCreateMemberKeys(home);
    const b = loadMemberKeys(home);
    expect(b.fingerprint).toBe(a.fingerprint);
    expect(bytesToHex(b.box.publicKey)).toBe(bytesToHex(a.box.publicKey));
    const { statSync } = await import("node:fs");
    expect(statSync(`${home}/team/member.key`).mode & 0o777).toBe(0o600);
    expect(a.fingerprint).toBe(a.sign.fingerprint.replace("ed25519:", ""));
  });
});
