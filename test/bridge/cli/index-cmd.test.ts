/**
 * `evidence-bridge index validate` and `index export` (product.md §5, §10). The command modules are driven
 * directly with fake streams; one test runs the real process for dispatch and the exit-code contract.
 */
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, truncateSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { PassThrough } from "node:stream";
import { afterAll, describe, expect, test } from "vitest";
import { exportCmd, validate } from "../../../bridge/cli/commands/index-cmd.js";
import { CliError, type CliCommand, type CliIo } from "../../../bridge/cli/context.js";
import { withDigest } from "../../../published/regional/synthetic.js";
import { scriptArgs } from "../../helpers/node-script.js";
import { repoRoot } from "../../helpers/shared.js";
import { fixturesDir } from "../../published/regional/helpers.js";
import { fitColumns } from "../../../bridge/cli/help.js";

const dir = mkdtempSync(join(tmpdir(), "eb-index-cmd-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const F = (rel: string) => join(fixturesDir, rel);

function fakeIo(stderrTty = false): { io: CliIo; out: () => string; err: () => string } {
  const collect = (s: PassThrough) => {
    const chunks: Buffer[] = [];
    s.on("data", (d: Buffer) => chunks.push(d));
    return () => Buffer.concat(chunks).toString("utf8");
  };
  const stdout = new PassThrough();
  const stderr = Object.assign(new PassThrough(), { isTTY: stderrTty });
  return { io: { stdin: new PassThrough(), stdout, stderr, env: {} }, out: collect(stdout), err: collect(stderr) };
}

async function run(command: CliCommand, args: string[], stderrTty = false) {
  const { io, out, err } = fakeIo(stderrTty);
  const code = await command.run(args, { io, globalFlags: {} });
  await new Promise((r) => setImmediate(r));
  return { code, stdout: out(), stderr: err() };
}

async function runError(command: CliCommand, args: string[], exitCode = 2): Promise<string> {
  const { io, out } = fakeIo();
  const error = await command.run(args, { io, globalFlags: {} }).then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(CliError);
  expect((error as CliError).exitCode).toBe(exitCode);
  expect((error as Error).message).not.toMatch(/\n/);
  await new Promise((r) => setImmediate(r));
  expect(out()).toBe("");
  return (error as Error).message;
}

describe("index validate", () => {
  test("conforming files: exit 0 and a one-line summary each", async () => {
    const r = await run(validate, [F("valid/bri.json"), F("valid/myanmar.json")]);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(
      /^.*valid\/bri\.json: conforms \(neutral profile, service\.regional-captured-index\.v1; region bri, 6 events\); content_sha256 verified; 0 warning\(s\)\n.*myanmar\.json: conforms/,
    );
    expect(r.stderr).toBe("");
  });

  test("a publisher-profile file conforms and the summary says which profile it used", async () => {
    const r = await run(validate, [F("valid-publisher/bri.json")]);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain("bri.json: conforms (publisher profile, palimpsest.regional-captured-index.v1; region bri, 6 events)");
    const json = JSON.parse((await run(validate, ["--json", F("valid-publisher/bri.json")])).stdout);
    expect([json.profile, json.format]).toEqual(["publisher", "palimpsest.regional-captured-index.v1"]);
    const mixed = await run(validate, [F("broken/profile-publisher-with-neutral-provider.json")]);
    expect(mixed.code).toBe(1);
    expect(mixed.stdout).toContain("DOES NOT CONFORM (publisher profile, palimpsest.regional-captured-index.v1): 1 error(s)");
  });

  test("a non-conforming file: exit 1 and each error with its path", async () => {
    const r = await run(validate, [F("valid/gwadar.json"), F("broken/translation-public-url-zero-page.json")]);
    expect(r.code).toBe(1);
    expect(r.stdout).toContain("translation-public-url-zero-page.json: DOES NOT CONFORM (neutral profile, service.regional-captured-index.v1): 1 error(s)");
    expect(r.stdout).toContain("  error pattern: index.events[1].english_translation.public_url: does not match");
  });

  test("--json prints the report; an array for several files", async () => {
    const one = await run(validate, ["--json", F("broken/sidecar-missing-records-one.json")]);
    expect(one.code).toBe(1);
    const report = JSON.parse(one.stdout);
    expect(report).toMatchObject({ file: F("broken/sidecar-missing-records-one.json"), conforms: false, error_count: 1 });
    expect(report.errors[0]).toEqual({
      path: "index.inputs.chinese_translation_sidecar.missing_records",
      rule: "const",
      message: "index.inputs.chinese_translation_sidecar.missing_records: expected the constant 0, got integer 1",
    });
    const two = JSON.parse((await run(validate, ["--json", F("valid/bri.json"), F("valid/gwadar.json")])).stdout);
    expect(two.map((r: { region: string }) => r.region)).toEqual(["bri", "gwadar"]);
  });

  test("truncated and duplicate-key files are not conforming (exit 1), with paths", async () => {
    const r = await run(validate, [F("broken/json-truncated.json"), F("broken/json-duplicate-top-key.json")]);
    expect(r.code).toBe(1);
    expect(r.stdout).toContain("error json-syntax: index.events[1].english_translation.original_title_zh: invalid JSON: Unterminated string");
    expect(r.stdout).toContain("error json-duplicate-key: index.scope: duplicate JSON key: 'scope'");
  });

  test("--strict fails on warnings and on a content_sha256 mismatch", async () => {
    const o = JSON.parse((await import("node:fs")).readFileSync(F("valid/gwadar.json"), "utf8"));
    o.counts.unique_events += 1;
    const warned = join(dir, "warned.json");
    writeFileSync(warned, JSON.stringify(withDigest(o)));
    const mismatch = join(dir, "mismatch.json");
    writeFileSync(mismatch, JSON.stringify({ ...withDigest(JSON.parse((await import("node:fs")).readFileSync(F("valid/gwadar.json"), "utf8"))), label: "Relabelled" }));
    const plain = await run(validate, [warned, mismatch]);
    expect(plain.code).toBe(0);
    expect(plain.stdout).toContain("warning counts: index.counts.unique_events: is 7 but events has 6");
    expect(plain.stdout).toMatch(/content_sha256 declared [0-9a-f]{64}, computed [0-9a-f]{64}/);
    expect((await run(validate, ["--strict", warned])).code).toBe(1);
    expect((await run(validate, ["--strict", mismatch])).code).toBe(1);
    expect((await run(validate, ["--strict", F("valid/bri.json")])).code).toBe(0);
  });

  test("hostile text in a report never reaches the terminal raw", async () => {
    const o = JSON.parse((await import("node:fs")).readFileSync(F("valid/gwadar.json"), "utf8"));
    o["evil\u001b[2J\u202e"] = 1;
    const file = join(dir, "hostile.json");
    writeFileSync(file, JSON.stringify(o));
    const r = await run(validate, [file]);
    expect(r.stdout).not.toMatch(/[\u001b\u202e]/);
    expect(r.stdout).toContain("\\u{1b}");
  });

  test("unreadable: exit 2, one line, nothing printed (even after readable files)", async () => {
    expect(await runError(validate, [F("valid/bri.json"), join(dir, "missing.json")])).toMatch(/missing\.json: cannot read: ENOENT$/);
    expect(await runError(validate, [dir])).toMatch(/ is a directory; only regular files are read$/);
    expect(await runError(validate, ["--max-bytes", "1000", F("valid/bri.json")])).toMatch(/valid\/bri\.json: \d+ bytes, over the 1000-byte cap \(raise --max-bytes to read it\)$/);
    expect(await runError(validate, [])).toMatch(/at least one FILE/);
    expect(await runError(validate, ["--max-bytes", "lots", F("valid/bri.json")])).toMatch(/^--max-bytes: expected an integer/);
    expect(await runError(validate, ["--bogus", F("valid/bri.json")])).toMatch(/bogus/);
  });

  test("a 1 GB file is refused from its size under the default 256 MiB cap, before reading", async () => {
    const huge = join(dir, "huge.json");
    writeFileSync(huge, "");
    truncateSync(huge, 1_073_741_824);
    expect(await runError(validate, [huge])).toBe(`${huge}: 1073741824 bytes, over the 268435456-byte cap (raise --max-bytes to read it)`);
    expect(await runError(exportCmd, [huge, "--format", "csv"])).toMatch(/over the 268435456-byte cap/);
    rmSync(huge);
  });

  test("progress goes to stderr only when it is a terminal", async () => {
    const r = await run(validate, [F("valid/bri.json"), F("valid/gwadar.json")], true);
    expect(r.stderr).toContain("validating 2/2");
  });
});

describe("index export", () => {
  test("csv to stdout: by default the publisher's 19 columns with LF; --columns full our 21 with CRLF", async () => {
    const r = await run(exportCmd, [F("valid/gwadar.json"), "--format", "csv"]);
    expect(r.code).toBe(0);
    expect(r.stdout).not.toContain("\r");
    const lines = r.stdout.split("\n");
    expect(lines[0]).toBe(
      "event_id,event_url,event_page_available,headline,published_at,first_recorded_at,last_recorded_at,source_ids,source_names," +
        "evidence_strength,version_count,current_in_wire,region_tags,english_headline,english_excerpt,translation_id," +
        "translation_status,background_en,translation_public_url",
    );
    expect(lines.length).toBe(8);
    const full = await run(exportCmd, [F("valid/gwadar.json"), "--format", "csv", "--columns", "full"]);
    const fullLines = full.stdout.split("\r\n");
    expect(fullLines[0]).toMatch(/^event_id,event_url,event_page_available,published_at,/);
    expect(fullLines[0].split(",").length).toBe(21);
    expect(fullLines.length).toBe(8);
  });

  test("a publisher-profile file exports too; JSONL lines carry its own schema_version", async () => {
    const csv = await run(exportCmd, [F("valid-publisher/gwadar.json"), "--format", "csv"]);
    expect(csv.code).toBe(0);
    expect(csv.stdout.split("\n").length).toBe(8);
    const jsonl = await run(exportCmd, [F("valid-publisher/gwadar.json"), "--format", "jsonl"]);
    for (const line of jsonl.stdout.trimEnd().split("\n")) expect(JSON.parse(line).schema_version).toBe("palimpsest.regional-captured-index.v1");
    const neutral = await run(exportCmd, [F("valid/gwadar.json"), "--format", "jsonl"]);
    expect(JSON.parse(neutral.stdout.split("\n")[0]).schema_version).toBe("service.regional-captured-index.v1");
  });

  test("jsonl with --region and --since", async () => {
    const all = await run(exportCmd, [F("valid/gwadar.json"), "--format", "jsonl"]);
    expect(all.stdout.trimEnd().split("\n").length).toBe(6);
    const some = await run(exportCmd, [F("valid/gwadar.json"), "--format", "jsonl", "--region", "balochistan", "--since", "2026-08-22"]);
    const events = some.stdout.trimEnd().split("\n").map((l) => JSON.parse(l));
    expect(events.length).toBeGreaterThan(0);
    for (const e of events) {
      expect(e.region_tags).toContain("balochistan");
      expect(e.published_at >= "2026-08-22").toBe(true);
    }
    const none = await run(exportCmd, [F("valid/gwadar.json"), "--format", "jsonl", "--since", "2030-01-01T00:00:00+14:00"]);
    expect(none.stdout).toBe("");
  });

  test("a non-conforming index: exit 1, one line, nothing written", async () => {
    expect(await runError(exportCmd, [F("broken/event-headline-empty.json"), "--format", "csv"], 1)).toMatch(
      /does not conform to service\.regional-captured-index\.v1 \(1 error\(s\); first: index\.events\[1\]\.headline: expected at least 1 character\(s\), got string ''\); run 'evidence-bridge index validate /,
    );
    expect(await runError(exportCmd, [F("broken/json-truncated.json"), "--format", "jsonl"], 1)).toMatch(/does not conform .*: index\.events\[1\]\.english_translation\.original_title_zh: invalid JSON/);
  });

  test("flag errors: exit 2", async () => {
    expect(await runError(exportCmd, [F("valid/bri.json")])).toBe("--format: expected csv or jsonl");
    expect(await runError(exportCmd, [F("valid/bri.json"), "--format", "xlsx"])).toBe("--format: expected csv or jsonl");
    expect(await runError(exportCmd, [F("valid/bri.json"), "--format", "csv", "--region", "tibet"])).toMatch(/^--region: expected one of bri, gwadar, balochistan, myanmar/);
    expect(await runError(exportCmd, [F("valid/bri.json"), "--format", "csv", "--since", "last week"])).toMatch(/^--since: expected an RFC 3339 date-time or YYYY-MM-DD/);
    expect(await runError(exportCmd, ["--format", "csv"])).toMatch(/exactly one FILE/);
    expect(await runError(exportCmd, [F("valid/bri.json"), "--format", "csv", "--columns", "wide"])).toBe('--columns: expected publisher or full, got "wide"');
    expect(await runError(exportCmd, [F("valid/bri.json"), "--format", "jsonl", "--columns", "full"])).toBe("--columns: applies to --format csv only");
  });

  test("a slow stdout is respected (backpressure) and gets every byte", async () => {
    const stdout = new PassThrough({ highWaterMark: 16 });
    const chunks: Buffer[] = [];
    const io: CliIo = { stdin: new PassThrough(), stdout, stderr: new PassThrough(), env: {} };
    const done = exportCmd.run([F("valid/bri.json"), "--format", "jsonl"], { io, globalFlags: {} });
    const reader = (async () => {
      for await (const c of stdout) {
        chunks.push(c as Buffer);
        await new Promise((r) => setTimeout(r, 1));
      }
    })();
    expect(await done).toBe(0);
    stdout.end();
    await reader;
    expect(Buffer.concat(chunks).toString("utf8").trimEnd().split("\n").length).toBe(6);
  });
});

describe("the real process", () => {
  test("dispatch, help and exit codes 0 / 1 / 2", () => {
    const bin = scriptArgs(join(repoRoot, "bridge", "cli", "bin.ts"));
    const help = spawnSync(process.execPath, [...bin, "index", "validate", "--help"], { encoding: "utf8" });
    expect(help.status).toBe(0);
    expect(help.stdout).toBe(`${fitColumns(validate.help.replace(/\n+$/, ""))}\n`); // as printed: fitted to 100 columns
    expect(spawnSync(process.execPath, [...bin, "index", "validate", F("valid/bri.json")], { encoding: "utf8" }).status).toBe(0);
    expect(spawnSync(process.execPath, [...bin, "index", "validate", F("broken/json-nan.json")], { encoding: "utf8" }).status).toBe(1);
    const missing = spawnSync(process.execPath, [...bin, "index", "validate", "/nonexistent/index.json"], { encoding: "utf8" });
    expect(missing.status).toBe(2);
    expect(missing.stdout).toBe("");
    expect(missing.stderr).toBe("evidence-bridge: /nonexistent/index.json: cannot read: ENOENT\n");
    const csv = spawnSync(process.execPath, [...bin, "index", "export", F("valid/myanmar.json"), "--format", "csv"], { encoding: "utf8" });
    expect(csv.status).toBe(0);
    expect(csv.stdout.split("\n").length).toBe(8);
  });
});
