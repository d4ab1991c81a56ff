/**
 * `review verify-export` given another format (issue 30 item 4): one line naming it, not one "not strict JSON"
 * finding per line. The detector alone, then through the CLI on a pretty-printed STIX bundle, a MISP event and a CSV.
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, test } from "vitest";
import { unverifiableExportFormat } from "../../../capsules/review/export-format.js";
import { runCli } from "../../helpers/cli.js";

const dir = mkdtempSync(join(tmpdir(), "eb-export-format-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const enc = (s: string) => new TextEncoder().encode(s);
const STIX = JSON.stringify({ type: "bundle", id: "bundle--00000000-0000-4000-8000-000000000000", objects: [{ type: "indicator", spec_version: "2.1", name: "synthetic" }] }, null, 2);
const MISP = JSON.stringify({ Event: { info: "synthetic", Attribute: [] } }, null, 2);
const CSV = "capsule_sha256,created_at,decision\nabc,2026-11-20T09:00:00Z,APPROVED_FOR_RELEASE\n";

describe("unverifiableExportFormat", () => {
  test("names STIX, MISP, CSV and a single JSON document", () => {
    expect(unverifiableExportFormat(enc(STIX))).toBe("a STIX 2.1 bundle");
    expect(unverifiableExportFormat(enc(JSON.stringify(JSON.parse(STIX))))).toBe("a STIX 2.1 bundle");
    expect(unverifiableExportFormat(enc(MISP))).toBe("a MISP event");
    expect(unverifiableExportFormat(enc(CSV))).toBe("a CSV file");
    expect(unverifiableExportFormat(enc('{\n  "a": 1\n}\n'))).toBe("one JSON document, not JSON Lines");
  });
  test("leaves JSON Lines, empty files and broken files to the per-line report", () => {
    expect(unverifiableExportFormat(enc('{"schema_version":"x"}\n{"checkpoint":1}\n'))).toBeUndefined();
    expect(unverifiableExportFormat(enc(""))).toBeUndefined();
    expect(unverifiableExportFormat(enc("{\n  broken\n"))).toBeUndefined();
  });
});

test("review verify-export on another format: exit 1 and exactly one line naming it", async () => {
  for (const [name, text, what] of [
    ["x.stix.json", STIX, "a STIX 2.1 bundle"],
    ["x.misp.json", MISP, "a MISP event"],
    ["x.csv", CSV, "a CSV file"],
  ]) {
    const file = join(dir, name);
    writeFileSync(file, text);
    const r = await runCli(["review", "verify-export", file]);
    expect(r.code).toBe(1);
    expect(r.stdout).toBe("");
    expect(r.stderr).toBe(
      `evidence-bridge: review verify-export: ${file} is ${what}; only the JSON Lines export ('review export', the default --format jsonl) carries the signed decisions this command verifies\n`,
    );
  }
});
