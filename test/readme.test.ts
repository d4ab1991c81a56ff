/**
 * Every `sh` code block of README.md runs as written (issue 13 item 4), in order, from a temporary directory that
 * looks like a checkout (examples/, test/ and dist/ linked in), with `evidence-bridge` on PATH running the built
 * bundle, HOME pointing at the temporary directory, and no ../shared. Blocks fenced as `sh no-run` are
 * illustrations with placeholders (or, like the quick start, run by CI itself) and are skipped; JSON blocks are
 * client configurations. Needs `npm run build` first.
 */
import { spawnSync } from "node:child_process";
import { chmodSync, existsSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, test } from "vitest";
import { repoRoot } from "./helpers/shared.js";
import { childEnv } from "./helpers/test-env.js";

interface Block {
  info: string;
  code: string;
  line: number;
}

/** Fenced code blocks of a Markdown text with their info strings and first line numbers. */
export function codeBlocks(markdown: string): Block[] {
  const out: Block[] = [];
  const lines = markdown.split("\n");
  for (let i = 0; i < lines.length; i++) {
    const open = /^```(.*)$/.exec(lines[i]);
    if (open === null) continue;
    const start = i;
    const body: string[] = [];
    while (++i < lines.length && lines[i] !== "```") body.push(lines[i]);
    out.push({ info: open[1].trim(), code: body.join("\n"), line: start + 1 });
  }
  return out;
}

const work = mkdtempSync(join(tmpdir(), "eb-readme-"));
afterAll(() => rmSync(work, { recursive: true, force: true }));

describe("README.md", () => {
  const blocks = codeBlocks(readFileSync(join(repoRoot, "README.md"), "utf8"));
  const runnable = blocks.filter((b) => b.info === "sh");

  test("marks every shell block either runnable (sh) or an illustration (sh no-run)", () => {
    for (const b of blocks) expect(["sh", "sh no-run", "json", ""], `block at line ${b.line}`).toContain(b.info);
    expect(runnable.length).toBeGreaterThanOrEqual(5);
  });

  test("every runnable block runs as written against a temporary data directory", () => {
    if (!existsSync(join(repoRoot, "dist/bundle/bin.js"))) throw new Error("run npm run build first: dist/bundle/bin.js is missing");
    for (const d of ["examples", "test", "dist"]) symlinkSync(join(repoRoot, d), join(work, d));
    const binDir = join(work, ".bin");
    spawnSync("mkdir", [binDir]);
    const shim = join(binDir, "evidence-bridge");
    writeFileSync(shim, `#!/bin/sh\nexec "${process.execPath}" "${join(repoRoot, "dist/bundle/bin.js")}" "$@"\n`);
    chmodSync(shim, 0o755);
    const env = childEnv({ PATH: `${binDir}:${process.env.PATH ?? ""}`, HOME: join(work, "home"), LANG: "C.UTF-8" });
    for (const b of runnable) {
      const r = spawnSync("bash", ["-euo", "pipefail", "-c", b.code], { cwd: work, env, encoding: "utf8", timeout: 120_000 });
      expect(r.status, `README.md block at line ${b.line} failed:\n${b.code}\nstderr: ${r.stderr}`).toBe(0);
    }
    // The review block approved the synthetic candidate and exported it (one candidate line, then the signed checkpoint).
    const exported = readFileSync(join(work, "approved.jsonl"), "utf8").trim().split("\n").map((l) => Object.keys(JSON.parse(l)));
    expect(exported).toEqual([["candidate", "decision", "schema_version"], ["checkpoint", "schema_version", "signature", "signer"]]);
    expect(existsSync(join(work, "eb-pack", "intelligence-pack-v1.json.sha256"))).toBe(true);
  }, 600_000);
});
