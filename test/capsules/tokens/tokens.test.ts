/**
 * Match tokens between two stores built from the synthetic example: they share exactly one wallet (written in
 * different letter case), and `tokens match` names exactly the local capsule holding it; tokens under another key
 * match nothing; group key files are 0600 under keys/groups; the token file carries no value in any usual form.
 */
import { copyFileSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { groupKeysDir } from "../../../capsules/tokens/group-key.js";
import { approve, buildCapsule, cli, iocs, MESSAGE_A, MESSAGE_B, MESSAGE_C, removeHomes, tempHome } from "../exports/synthetic-store.js";

afterAll(removeHomes);

const WALLET = "0x52908400098527886E0F7030069857D2E4169EE7";
const PHONE = "+44 20 7946 0958";

describe("tokens export and match", () => {
  let alice: string;
  let bob: string;
  let a1: string;
  let a2: string;
  let tokensB: string;

  beforeAll(async () => {
    alice = tempHome("tokens-alice");
    bob = tempHome("tokens-bob");
    a1 = await buildCapsule(alice, MESSAGE_A, iocs({ handles: ["@synthetic_recruiter_demo"], wallets: [WALLET] }));
    a2 = await buildCapsule(alice, MESSAGE_C, iocs({ handles: ["@third_synthetic_desk"] }));
    await buildCapsule(bob, MESSAGE_B, iocs({ handles: ["@another_synthetic_broker"], wallets: [WALLET.toLowerCase()], phones: [PHONE] }));
    await approve(alice, a1);
  }, 120_000);

  test("keys init --group creates a 0600 key file under keys/groups and prints its key id, never the key", async () => {
    const r = await cli(alice, ["keys", "init", "--group", "crew"]);
    expect(r.code, r.stderr).toBe(0);
    const path = join(groupKeysDir(alice), "crew.key");
    expect(statSync(path).mode & 0o777).toBe(0o600);
    const key = readFileSync(path, "utf8").split("\n")[1];
    expect(key).toMatch(/^[0-9a-f]{64}$/);
    expect(r.stdout).toMatch(/group key: gk1:[0-9a-f]{32} /);
    expect(r.stdout).not.toContain(key);
    expect((await cli(alice, ["keys", "init", "--group", "crew"])).stderr).toMatch(/already exists/);
    expect((await cli(alice, ["keys", "init", "--group", "../x"])).stderr).toMatch(/group name: expected 1 to 64 characters/);
  });

  test("keys add-group installs a peer's key (0600) with the same key id", async () => {
    const path = join(groupKeysDir(alice), "crew.key");
    const r = await cli(bob, ["keys", "add-group", "crew", path]);
    expect(r.code, r.stderr).toBe(0);
    expect(statSync(join(groupKeysDir(bob), "crew.key")).mode & 0o777).toBe(0o600);
    const idA = (await cli(alice, ["keys", "add-group", "crew", path])).stdout.match(/gk1:[0-9a-f]{32}/)![0];
    expect(r.stdout).toContain(idA);
  });

  test("two stores sharing exactly one wallet find exactly that capsule; --json names the kind", async () => {
    tokensB = join(bob, "tokens-b.json");
    const ex = await cli(bob, ["tokens", "export", "--group", "crew", "--out", tokensB]);
    expect(ex.code, ex.stderr).toBe(0);
    expect(ex.stdout).toContain("tokens by kind: handles=1, phones=1, wallets=1");
    expect(statSync(tokensB).mode & 0o777).toBe(0o600);
    const m = await cli(alice, ["tokens", "match", "--group", "crew", tokensB]);
    expect(m.code, m.stderr).toBe(0);
    expect(m.stdout).toBe(`${a1}\n`);
    expect(m.stdout).not.toContain(a2);
    const j = await cli(alice, ["tokens", "match", "--group", "crew", tokensB, "--json"]);
    expect(JSON.parse(j.stdout)).toEqual({ group: "crew", key_id: expect.stringMatching(/^gk1:/), matches: [{ capsule_sha256: a1, kinds: ["wallets"] }] });
    // The other way round: bob's one capsule matches alice's file.
    const tokensA = join(alice, "tokens-a.json");
    expect((await cli(alice, ["tokens", "export", "--group", "crew", "--out", tokensA])).code).toBe(0);
    expect((await cli(bob, ["tokens", "match", "--group", "crew", tokensA])).stdout.trim().split("\n")).toHaveLength(1);
  });

  test("the token file carries no value in any usual form and follows the documented layout", () => {
    const text = readFileSync(tokensB, "utf8");
    for (const v of [WALLET, WALLET.slice(2), "another_synthetic_broker", "442079460958", PHONE]) {
      expect(text.toLowerCase().includes(v.toLowerCase()), v).toBe(false);
    }
    // A fragment of four digits is looked for outside the tokens and the key id: random hex holds any four digits
    // about once in a thousand files.
    const outsideDigests = text.replace(/[0-9a-f]{32,}/g, "");
    expect(outsideDigests.length).toBeGreaterThan(100);
    expect(outsideDigests.includes("7946")).toBe(false);
    const doc = JSON.parse(text);
    expect(Object.keys(doc).sort()).toEqual(["algorithm", "canonicalization-format", "description", "generated-timestamp", "keyid", "kinds", "name", "tokens", "version"]);
    expect(doc).toMatchObject({ algorithm: "HMAC-SHA-256", "canonicalization-format": "evidence-bridge-ioc-canonical/v1", version: 1, kinds: ["handles", "phones", "wallets"] });
    expect(doc.tokens.wallets).toEqual([expect.stringMatching(/^[0-9a-f]{64}$/)]);
  });

  test("tokens under another key match nothing", async () => {
    const carol = tempHome("tokens-carol");
    await buildCapsule(carol, MESSAGE_B, iocs({ wallets: [WALLET] }));
    expect((await cli(carol, ["keys", "init", "--group", "crew"])).code).toBe(0);
    const file = join(carol, "tokens-c.json");
    expect((await cli(carol, ["tokens", "export", "--group", "crew", "--out", file])).code).toBe(0);
    const refused = await cli(alice, ["tokens", "match", "--group", "crew", file]);
    expect(refused.code).toBe(2);
    expect(refused.stdout).toBe("");
    expect(refused.stderr).toMatch(/tokens under another key match nothing/);
    // Even with the key id forged to alice's, tokens made under carol's key match nothing.
    const aliceId = JSON.parse(readFileSync(tokensB, "utf8")).keyid;
    const forged = JSON.parse(readFileSync(file, "utf8"));
    forged.keyid = aliceId;
    const forgedFile = join(carol, "forged.json");
    writeFileSync(forgedFile, JSON.stringify(forged));
    const m = await cli(alice, ["tokens", "match", "--group", "crew", forgedFile, "--json"]);
    expect(m.code, m.stderr).toBe(0);
    expect(JSON.parse(m.stdout).matches).toEqual([]);
  });

  test("hostile or malformed token files are refused at once, naming the member", async () => {
    const bad = join(alice, "bad.json");
    const doc = JSON.parse(readFileSync(tokensB, "utf8"));
    writeFileSync(bad, JSON.stringify({ ...doc, extra: 1 }));
    expect((await cli(alice, ["tokens", "match", "--group", "crew", bad])).stderr).toMatch(/unknown member "extra"/);
    writeFileSync(bad, JSON.stringify({ ...doc, tokens: { wallets: ["XYZ"] } }));
    expect((await cli(alice, ["tokens", "match", "--group", "crew", bad])).stderr).toMatch(/token file\.tokens\.wallets\[0\]: expected 64 lowercase hexadecimal digits/);
    writeFileSync(bad, JSON.stringify({ ...doc, algorithm: "Blake2" }));
    expect((await cli(alice, ["tokens", "match", "--group", "crew", bad])).stderr).toMatch(/token file\.algorithm: expected "HMAC-SHA-256"/);
    expect((await cli(alice, ["tokens", "match", "--group", "crew", "/dev/zero"])).stderr).toMatch(/\/dev\/zero is a device; only regular files are read/);
    expect((await cli(alice, ["tokens", "match", "--group", "nobody", tokensB])).stderr).toMatch(/no group key nobody/);
  });

  test("a group key file readable by others is refused by add-group", async () => {
    const loose = join(alice, "loose.key");
    copyFileSync(join(groupKeysDir(alice), "crew.key"), loose);
    const { chmodSync } = await import("node:fs");
    chmodSync(loose, 0o644);
    expect((await cli(bob, ["keys", "add-group", "loose", loose])).stderr).toMatch(/accessible by group or others/);
  });
});
