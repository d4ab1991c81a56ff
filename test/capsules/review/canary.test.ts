/**
 * Privacy (product.md §2): capsules whose assessments carry canary values in every free-text field the schema allows
 * (IOC values, matched fragments, term hits, observation summaries and URIs, the pseudonym of private surfaces, the
 * message hash), with the raw message text retained (sealed) in the store. Every feed, review list, review show,
 * decision, log, export and verify-export run is captured — stdout, stderr, the review log and head files and the
 * export file — and no canary appears in any of them, not even when a reviewer types one into a note.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, expect, test } from "vitest";
import { sha256Hex } from "../../../src/hash.js";
import type { JsonObject } from "../../../src/json/value.js";
import { openOrCreateStore } from "../../../capsules/store/store.js";
import { reviewLayout } from "../../../capsules/review/layout.js";
import { describeShared, validExampleNames } from "../../helpers/shared.js";
import { assessmentBytes, capsuleFor, exampleValue } from "../candidates/build-helpers.js";
import { canaryCase } from "../candidates/canary-assessments.js";
import { PACK_FILE, removeHomes, tempHome } from "../feed/store-fixtures.js";
import { exportFingerprints } from "./review-fixtures.js";
import { cli, type CliRun } from "./cli-run.js";
import { storable } from "../../helpers/storable.js";

afterAll(removeHomes);

const TEMPLATES = validExampleNames();
const CASES = 30;

describeShared("canary values never leave through feed or review", () => {
  test("no canary in any output channel or file written", { timeout: 120_000 }, async () => {
    const templates = TEMPLATES.map((n) => exampleValue("valid", n)) as JsonObject[];
    const home = tempHome("canary");
    const outDir = tempHome("canary-out");
    const store = await openOrCreateStore({ home, passphrase: undefined });
    const canaries: string[] = [];
    const iocs: string[] = [];
    /** Per capsule: one private value of its own (an IOC, else its message hash) for the leaking-note attempt. */
    const ownSecret = new Map<string, string>();
    for (let i = 0; i < CASES; i++) {
      const c = canaryCase(templates, { template: i, seed: 7919 * i + 13, surface: i % 5, twist: (i * 37) % 100, extraObservation: i % 2 === 0 });
      const message = `CANARY MESSAGE qx${i}vz7: rent your account, write to the desk, case ${sha256Hex(String(i)).slice(0, 10)}`;
      const messageSha256 = sha256Hex(message);
      c.doc.set("message_sha256", messageSha256);
      canaries.push(...c.canaries, message, `qx${i}vz7`, messageSha256, messageSha256.slice(0, 16));
      const detectorIocs = (c.doc.get("detector") as JsonObject).get("iocs") as JsonObject;
      const own: string[] = [];
      for (const values of detectorIocs.values()) for (const v of values as string[]) own.push(v);
      iocs.push(...own);
      const bytes = capsuleFor(assessmentBytes(c.doc));
      const id = (JSON.parse(new TextDecoder().decode(bytes)) as { content_sha256: string }).content_sha256;
      ownSecret.set(id, own[0] ?? messageSha256);
      store.putCapsule(storable(bytes, id));
      store.putMessage(message, messageSha256);
    }
    expect(iocs.length).toBeGreaterThan(20);

    const runs: CliRun[] = [];
    const eb = async (...args: string[]) => {
      const r = await cli(["--home", home, "--pack", PACK_FILE, ...args]);
      runs.push(r);
      return r;
    };
    await eb("keys", "init", "--reviewer", "alice");
    for (const flags of [[], ["--include-typology-matches", "--include-clean"], ["--json-errors"], ["--include-clean", "--json-errors"]]) {
      expect((await eb("feed", ...flags)).code).toBeLessThan(2);
    }
    const withheld = await eb("feed", "--include-clean", "--include-typology-matches");
    expect(withheld.stdout.split("\n").length - 1).toBeGreaterThan(5);

    await eb("review", "list");
    const list = await eb("review", "list", "--json", "--include-clean");
    const ids = (JSON.parse(list.stdout) as { capsule_sha256: string }[]).map((d) => d.capsule_sha256);
    expect(ids.length).toBeGreaterThan(5);
    for (const id of store.capsuleIds()) {
      await eb("review", "show", id, "--include-clean");
      await eb("review", "show", id, "--json", "--include-clean", "--include-typology-matches");
    }
    for (const [n, id] of ids.entries()) {
      const leaky = await eb("review", "approve", id, "--include-clean", "--reason", "corroborated", "--public-note", `seen before: ${ownSecret.get(id)!.toUpperCase()}`);
      expect([leaky.code, leaky.stderr]).toEqual([2, expect.stringContaining("--public-note refused: leak guard") as unknown as string]);
      const verb = n % 3 === 2 ? "reject" : "approve";
      expect((await eb("review", verb, id, "--include-clean", "--reason", "corroborated", "--public-note", `Reviewed case ${n}; pattern consistent.`)).code).toBe(0);
    }
    await eb("review", "list", "--include-clean");
    await eb("review", "log");
    expect((await eb("review", "log", "--verify")).code).toBe(0);
    const exportFile = join(outDir, "export.jsonl");
    expect((await eb("review", "export", "--out", exportFile)).code).toBe(0);
    const verified = await cli(["review", "verify-export", exportFile, "--trust", [...exportFingerprints(readFileSync(exportFile))].join(",")]);
    runs.push(verified);
    expect(verified.code).toBe(0);

    const layout = reviewLayout(home);
    const channels: Record<string, string> = {
      stdout: runs.map((r) => r.stdout).join("\n"),
      stderr: runs.map((r) => r.stderr).join("\n"),
      "review log": readFileSync(layout.log, "utf8"),
      "review head": readFileSync(layout.head, "utf8"),
      export: readFileSync(exportFile, "utf8"),
    };
    expect(readdirSync(outDir)).toEqual(["export.jsonl"]);
    expect(channels.export.split("\n").length - 1).toBeGreaterThan(3);
    const leaks: string[] = [];
    for (const [name, text] of Object.entries(channels)) {
      const lower = text.toLowerCase();
      for (const canary of new Set(canaries)) if (lower.includes(canary.toLowerCase())) leaks.push(`${name}: canary #${canaries.indexOf(canary)}`);
    }
    expect(leaks).toEqual([]);
    // The detector itself works: the owner's plaintext view of a capsule does contain canaries.
    const plaintext = (await cli(["--home", home, "capsule", "open", store.capsuleIds()[0]])).stdout.toLowerCase();
    expect(canaries.filter((c) => plaintext.includes(c.toLowerCase())).length).toBeGreaterThan(3);
  });
});
