/**
 * The published package on its own (issue 13 item 5): `npm pack`, install the tarball into a temporary prefix
 * with --omit=dev and no registry, then run `demo` and an MCP initialize through the installed bin. The tarball
 * holds only the bundle, README, SECURITY.md, LICENSE, docs/, schemas/ and the synthetic example.
 * Every runnable README block (issue 30 item 5) runs as written, in order, with the installed `evidence-bridge` on
 * PATH, in a temporary directory with HOME inside it, and the checkout is unchanged afterwards.
 * Needs `npm run build` first (the bundle is what ships).
 */
import { execFileSync, spawnSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { repoRoot } from "../helpers/shared.js";
import { probeServer } from "./mcp-probe.js";
import { childEnv } from "../helpers/test-env.js";
import { codeBlocks } from "../helpers/markdown.js";

const work = mkdtempSync(join(tmpdir(), "eb-tarball-"));
let tarball = "";
let bin = "";

beforeAll(() => {
  if (!existsSync(join(repoRoot, "dist/bundle/bin.js"))) throw new Error("run npm run build first: dist/bundle/bin.js is missing");
  const name = execFileSync("npm", ["pack", "--silent", "--pack-destination", work], { cwd: repoRoot, encoding: "utf8" }).trim().split("\n").pop()!;
  tarball = join(work, name);
  const prefix = join(work, "prefix");
  execFileSync("npm", ["install", "-g", "--prefix", prefix, "--omit=dev", "--offline", "--no-audit", "--no-fund", "--silent", tarball], {
    cwd: work,
    encoding: "utf8",
  });
  bin = join(prefix, "bin", "evidence-bridge");
}, 240_000);

afterAll(() => rmSync(work, { recursive: true, force: true }));

describe("the packed tarball", () => {
  test("holds the bundle, README, SECURITY.md, LICENSE, docs/, schemas/ and the synthetic example, nothing else", () => {
    const files = execFileSync("tar", ["tzf", tarball], { encoding: "utf8" })
      .split("\n")
      .filter((f) => f !== "" && !f.endsWith("/"))
      .map((f) => f.replace(/^package\//, ""));
    const allowed = /^(dist\/bundle\/(commands\/)?[^/]+\.js|dist\/bundle\/package\.json|README\.md|SECURITY\.md|LICENSE|package\.json|docs\/.+|schemas\/[^/]+\.json|examples\/synthetic\/[^/]+)$/;
    expect(files.filter((f) => !allowed.test(f))).toEqual([]);
    for (const must of ["dist/bundle/bin.js", "dist/bundle/package.json", "dist/bundle/commands/serve.js", "README.md", "SECURITY.md", "LICENSE", "examples/synthetic/assessment.json"]) expect(files).toContain(must);
    expect(files.some((f) => f.startsWith("docs/"))).toBe(true);
    expect(files.some((f) => f.startsWith("schemas/"))).toBe(true);
  });

  test("installs with at most 5 packages and no runtime dependencies", () => {
    const pkg = JSON.parse(readFileSync(join(repoRoot, "package.json"), "utf8")) as { dependencies?: Record<string, string> };
    expect(Object.keys(pkg.dependencies ?? {}).length).toBeLessThanOrEqual(4);
    const installed = join(work, "prefix", "lib", "node_modules", "evidence-bridge");
    const nested = existsSync(join(installed, "node_modules")) ? readdirSync(join(installed, "node_modules")) : [];
    expect(1 + nested.length).toBeLessThanOrEqual(5);
  });

  test("the installed bin runs demo", () => {
    const out = execFileSync(bin, ["demo"], { encoding: "utf8", env: childEnv({ HOME: work }) });
    expect(out).toMatch(/evidence-bridge demo: synthetic example/);
    expect(out).toMatch(/"review_status": "HUMAN_REVIEW_REQUIRED"/);
  });

  test("the installed bin answers MCP initialize and tools/list", async () => {
    const home = join(work, "home");
    const r = await probeServer(bin, [], { EVIDENCE_BRIDGE_HOME: home });
    expect(r.server?.name).toBe("evidence-bridge");
    expect(r.tools).toContain("record_assessment");
    expect(r.tools).toContain("list_signals");
  }, 60_000);

  test("every runnable README block runs as written with the installed bin in a temporary directory; the checkout stays clean", () => {
    const status = () => execFileSync("git", ["status", "--porcelain", "--untracked-files=all"], { cwd: repoRoot, encoding: "utf8" });
    const before = status();
    const dir = join(work, "readme");
    mkdirSync(join(dir, "home"), { recursive: true });
    const env = childEnv({ PATH: `${join(work, "prefix", "bin")}:${process.env.PATH ?? ""}`, HOME: join(dir, "home"), LANG: "C.UTF-8" });
    const runnable = codeBlocks(readFileSync(join(repoRoot, "README.md"), "utf8")).filter((b) => b.info === "sh");
    expect(runnable.length).toBeGreaterThanOrEqual(5);
    for (const b of runnable) {
      const r = spawnSync("bash", ["-euo", "pipefail", "-c", b.code], { cwd: dir, env, encoding: "utf8", timeout: 120_000 });
      expect(r.status, `README.md block at line ${b.line} failed:\n${b.code}\nstderr: ${r.stderr}`).toBe(0);
    }
    // The review block approved the synthetic candidate and exported it (one candidate line, then the signed checkpoint).
    const exported = readFileSync(join(dir, "approved.jsonl"), "utf8").trim().split("\n").map((l) => Object.keys(JSON.parse(l)));
    expect(exported).toEqual([["candidate", "decision", "schema_version"], ["checkpoint", "schema_version", "signature", "signer"]]);
    expect(existsSync(join(dir, "eb-pack", "intelligence-pack-v1.json.sha256"))).toBe(true);
    expect(JSON.parse(readFileSync(join(dir, "capsule.json"), "utf8")).content_sha256).toMatch(/^733c55/);
    expect(status()).toBe(before);
  }, 600_000);
});
