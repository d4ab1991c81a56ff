/**
 * Privacy of the sharing channels (product.md §2): capsules whose assessments carry canary values in every
 * free-text field the schema allows (the generator of test/capsules/candidates/canary-assessments.ts), approved,
 * then exported as STIX (both marking profiles), MISP feed and CSV, and tokenised and matched under a group key.
 * No canary appears in any file written or anything printed.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, expect, test } from "vitest";
import { sha256Hex } from "../../../src/hash.js";
import type { JsonObject } from "../../../src/json/value.js";
import { openOrCreateStore } from "../../../capsules/store/store.js";
import { describeShared, validExampleNames } from "../../helpers/shared.js";
import { assessmentBytes, capsuleFor, exampleValue } from "../candidates/build-helpers.js";
import { canaryCase } from "../candidates/canary-assessments.js";
import { PACK_FILE, removeHomes, tempHome } from "../feed/store-fixtures.js";
import { cli, type CliRun } from "../review/cli-run.js";
import { storable } from "../../helpers/storable.js";

afterAll(removeHomes);

const CASES = 24;

describeShared("canary values never leave through the sharing channels", () => {
  test("no canary in any marked export, token file or output", { timeout: 180_000 }, async () => {
    const templates = validExampleNames().map((n) => exampleValue("valid", n)) as JsonObject[];
    const home = tempHome("share-canary");
    const outDir = tempHome("share-canary-out");
    const store = await openOrCreateStore({ home, passphrase: undefined });
    const canaries: string[] = [];
    for (let i = 0; i < CASES; i++) {
      const c = canaryCase(templates, { template: i, seed: 6151 * i + 7, surface: i % 5, twist: (i * 41) % 100, extraObservation: i % 2 === 1 });
      const messageSha256 = sha256Hex(`share canary ${i}`);
      c.doc.set("message_sha256", messageSha256);
      canaries.push(...c.canaries, messageSha256, messageSha256.slice(0, 16));
      const bytes = capsuleFor(assessmentBytes(c.doc));
      store.putCapsule(storable(bytes));
    }
    const runs: CliRun[] = [];
    const eb = async (...args: string[]) => {
      const r = await cli(["--home", home, "--pack", PACK_FILE, ...args]);
      runs.push(r);
      return r;
    };
    await eb("keys", "init", "--reviewer", "alice");
    const list = await eb("review", "list", "--json", "--include-clean", "--include-typology-matches");
    const ids = (JSON.parse(list.stdout) as { capsule_sha256: string }[]).map((d) => d.capsule_sha256);
    expect(ids.length).toBeGreaterThan(10);
    for (const id of ids) {
      expect((await eb("review", "approve", id, "--include-clean", "--include-typology-matches", "--note", "Reviewed; pattern consistent.")).code).toBe(0);
    }
    const out = (n: string) => join(outDir, n);
    for (const args of [
      ["--format", "stix", "--out", out("oasis.json")],
      ["--format", "stix", "--tlp", "red", "--marking-profile", "opencti", "--out", out("opencti.json")],
      ["--format", "misp", "--out", out("feed")],
      ["--format", "csv", "--out", out("leads.csv")],
    ]) {
      const r = await eb("review", "export", ...args);
      expect(r.code, r.stderr).toBe(0);
    }
    expect((await eb("keys", "init", "--group", "crew")).code).toBe(0);
    expect((await eb("tokens", "export", "--group", "crew", "--out", out("tokens.json"))).code).toBe(0);
    const matched = await eb("tokens", "match", "--group", "crew", out("tokens.json"), "--json");
    expect(JSON.parse(matched.stdout).matches.length).toBeGreaterThan(10);

    const files: Record<string, string> = {
      stdout: runs.map((r) => r.stdout).join("\n"),
      stderr: runs.map((r) => r.stderr).join("\n"),
    };
    for (const name of ["oasis.json", "opencti.json", "leads.csv", "tokens.json"]) files[name] = readFileSync(out(name), "utf8");
    for (const name of readdirSync(out("feed"))) files[`feed/${name}`] = readFileSync(join(out("feed"), name), "utf8");
    expect(Object.keys(files).filter((n) => n.startsWith("feed/")).length).toBe(ids.length + 2);
    const leaks: string[] = [];
    for (const [name, text] of Object.entries(files)) {
      const lower = text.toLowerCase();
      for (const canary of new Set(canaries)) if (lower.includes(canary.toLowerCase())) leaks.push(`${name}: canary #${canaries.indexOf(canary)}`);
    }
    expect(leaks).toEqual([]);
    // The search works: the owner's plaintext view of a capsule does contain canaries.
    const plaintext = (await cli(["--home", home, "capsule", "open", ids[0]])).stdout.toLowerCase();
    expect(canaries.filter((c) => plaintext.includes(c.toLowerCase())).length).toBeGreaterThan(3);
  });
});
