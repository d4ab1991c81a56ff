/**
 * Issue 4 test 5(a) and 5(b): writers are SIGKILLed at random moments, and two writers race on a fresh data
 * directory (creating keys at the same moment, storing the same and different capsules). Afterwards every file
 * under a final name opens and verifies, every acknowledged capsule is present, and no plaintext exists
 * anywhere under the data directory.
 */
import { existsSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { join, relative } from "node:path";
import { afterAll, describe, expect, test } from "vitest";
import { loadCapsuleBytes } from "../../../capsules/capsule/load.js";
import { verifyCapsule } from "../../../capsules/capsule/verify.js";
import { openStore } from "../../../capsules/store/store.js";
import { SealKind, unseal } from "../../../src/crypto/seal.js";
import { prng, startWriter } from "./child.js";
import { allFiles, CANARY, filesContaining, PLAINTEXT_MARKERS, syntheticCapsule, tempHome } from "./synthetic.js";

const homes: string[] = [];
afterAll(() => {
  for (const h of homes) rmSync(h, { recursive: true, force: true });
});

const NEEDLES = [...PLAINTEXT_MARKERS, CANARY.wallet, CANARY.email, CANARY.message.slice(0, 40)];
const FINAL_NAME = /^(keys\/(store|signing)\.key|store\/capsules\/[0-9a-f]{64}\.(sealed|receipt)|store\/messages\/[0-9a-f]{64}\.sealed|store\/rows\.sealed|store\/store-key-id)$/;

/** Opens and checks everything under the data directory; returns the store for further checks. */
async function auditHome(home: string, acknowledged: Set<string>, messages: Set<number>) {
  const store = await openStore({ home, passphrase: undefined }); // also removes the crashed writers' temp files
  const names = allFiles(home).map((f) => relative(home, f));
  expect(names.filter((n) => !FINAL_NAME.test(n))).toEqual([]);
  for (const id of acknowledged) expect(store.hasCapsule(id), `acknowledged capsule ${id} is missing`).toBe(true);
  const ids = store.capsuleIds();
  for (const id of ids) {
    const bytes = store.getCapsule(id);
    const report = verifyCapsule(loadCapsuleBytes(bytes));
    expect(report.ok, `capsule ${id}: ${report.errors.join("; ")}`).toBe(true);
    const receipt = store.receipt(id);
    expect(["valid", "missing"]).toContain(receipt.status); // a kill between link and receipt leaves none
  }
  // The messages directory is made by the first message put: absent when no killed writer reached one (an
  // acknowledged message is still demanded below).
  for (const name of existsSync(store.layout.messages) ? readdirSync(store.layout.messages) : []) {
    const label = `store/messages/${name}`;
    expect(() => unseal(readFileSync(join(store.layout.messages, name)), store.keys.store, SealKind.message, label)).not.toThrow();
  }
  for (const i of messages) expect(Buffer.from(store.getMessage(syntheticCapsule(i).messageSha256)).toString()).toBe(syntheticCapsule(i).message);
  expect(store.rows().map((r) => r.id).sort()).toEqual(ids);
  expect(filesContaining(home, NEEDLES)).toEqual([]);
  return { store, ids };
}

describe("kill at random moments", () => {
  test("dozens of SIGKILLed writers leave only complete, verifying, sealed files", async () => {
    const seed = Number(process.env.EB_KILL_SEED ?? Date.now() % 1_000_000);
    const random = prng(seed);
    const home = tempHome("kill");
    homes.push(home);
    const acknowledged = new Set<string>();
    const messages = new Set<number>();
    // At least 24 cycles, and more (up to 96) until at least 7 kills have landed mid-write: where a kill lands
    // depends on the machine's timing, so the count of cycles adapts instead of the test failing on a fast run.
    const minCycles = 24;
    const maxCycles = 96;
    const wantedMidWrite = 7;
    let cycles = 0;
    let killedMidWrite = 0;
    const plaintextHits: string[] = [];
    let killedDuringStartup = 0;
    for (let cycle = 0; cycle < maxCycles && (cycle < minCycles || killedMidWrite < wantedMidWrite); cycle++) {
      cycles++;
      // Overlap with the previous cycle's range so idempotent re-puts are also interrupted.
      const w = startWriter([home, String(Math.max(0, cycle * 40 - 5)), "60"]);
      if (random() < 0.2) {
        // Some kills land while the store is being opened (on the first cycle: while the keys are created).
        await w.waitFor((l) => l === "ready");
        await new Promise((r) => setTimeout(r, Math.floor(random() * 30)));
        killedDuringStartup++;
      } else {
        await w.waitFor((l) => l.startsWith("keys "));
        await new Promise((r) => setTimeout(r, Math.floor(random() * 60)));
      }
      w.child.kill("SIGKILL");
      const { signal } = await w.exited;
      expect(signal, `seed ${seed} cycle ${cycle}: ${w.stderr().slice(0, 500)}`).toBe("SIGKILL");
      for (const line of w.lines) {
        const [tag, value] = line.split(" ");
        if (tag === "ok") acknowledged.add(value);
        if (tag === "message") messages.add(Number(value));
      }
      // A temporary file left behind proves the kill interrupted a write (the next open removes it).
      if (allFiles(home).some((f) => f.includes("/.tmp-"))) killedMidWrite++;
      // Before any cleanup: no file, temporary or final, holds plaintext.
      plaintextHits.push(...filesContaining(home, NEEDLES));
    }
    expect(plaintextHits).toEqual([]);
    if (process.env.EB_KILL_DEBUG) console.log({ seed, killedMidWrite, killedDuringStartup, acknowledged: acknowledged.size });
    // The kills must have landed mid-write for the test to mean anything.
    expect(killedMidWrite, `seed ${seed}, ${cycles} cycles`).toBeGreaterThanOrEqual(wantedMidWrite);
    expect(killedDuringStartup + killedMidWrite).toBeGreaterThan(0);
    expect(acknowledged.size).toBeGreaterThan(0);
    await auditHome(home, acknowledged, messages);
  }, 240_000);
});

describe("two writers at once", () => {
  test("racing key creation and puts: same keys, one stored copy per id, only the documented conflict", async () => {
    const home = tempHome("race");
    homes.push(home);
    const shared = 0;
    const a = startWriter([home, String(shared), "60", "race"]);
    const b = startWriter([home, String(shared), "60", "race"], { EB_PRETTY: "1" });
    await Promise.all([a.waitFor((l) => l === "ready"), b.waitFor((l) => l === "ready")]);
    a.child.stdin.write("go\n");
    b.child.stdin.write("go\n");
    const [ea, eb] = await Promise.all([a.exited, b.exited]);
    expect(ea.code, a.stderr()).toBe(0);
    expect(eb.code, b.stderr()).toBe(0);
    // Both processes ended up with the same keys, whichever created them.
    expect(a.lines.find((l) => l.startsWith("keys "))).toBe(b.lines.find((l) => l.startsWith("keys ")));
    // Capsule 0 was written by A canonically and by B pretty-printed: exactly one is stored, the other is the
    // documented conflict; every other id is stored once and reported `new` by exactly one writer.
    const first = syntheticCapsule(0).id;
    const outcomes = [...a.lines, ...b.lines].filter((l) => l.includes(first)).map((l) => l.split(" ")[0]);
    expect(outcomes.sort()).toEqual(["conflict", "ok"]);
    for (let i = 1; i < 60; i++) {
      const id = syntheticCapsule(i).id;
      const results = [...a.lines, ...b.lines].filter((l) => l.startsWith(`ok ${id}`)).map((l) => l.split(" ")[2]);
      expect(results.sort(), `capsule ${i}`).toEqual(["existing", "new"]);
    }
    const acknowledged = new Set([...a.lines, ...b.lines].filter((l) => l.startsWith("ok ")).map((l) => l.split(" ")[1]));
    const messages = new Set(Array.from({ length: 60 }, (_, i) => i).filter((i) => i % 3 === 0));
    const { ids } = await auditHome(home, acknowledged, messages);
    expect(ids.length).toBe(60);
  });
});
