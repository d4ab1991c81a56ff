/**
 * Issue 14: one process strictly parses each input once. Every command below runs in process (the CLI's `main()`,
 * the MCP server over in-memory streams) on our own synthetic inputs (examples/synthetic, so it runs in a fresh
 * clone) while `observeStrictParses` counts the strict parses of each distinct text. A text parsed twice fails the
 * test, named by its kind and length only (never its content: the inputs are private by nature).
 */
import { createHash } from "node:crypto";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, test } from "vitest";
import { loadConfig } from "../../../src/config.js";
import { observeStrictParses } from "../../../src/json/parse.js";
import { runCli } from "../../helpers/cli.js";
import { repoRoot } from "../../helpers/shared.js";
import { startSession } from "../../bridge/mcp/session.js";

const EXAMPLE = join(repoRoot, "examples/synthetic");
const PACK = join(EXAMPLE, "intelligence-pack.json");
const ASSESSMENT = readFileSync(join(EXAMPLE, "assessment.json"));
const MESSAGE_FILE = join(EXAMPLE, "message.txt");
const JUDGEMENT = Buffer.from(
  JSON.stringify({ signals: ["account_rental_offer", "commission_share_terms"], findings: [], surface: "private_submission", authorization: "user_submitted" }),
);

const work = mkdtempSync(join(tmpdir(), "eb-parse-count-"));
afterAll(() => rmSync(work, { recursive: true, force: true }));
let homes = 0;
const freshHome = () => join(work, `home-${homes++}`);

const keyOf = (text: string) => createHash("sha256").update(text, "utf8").digest("hex");

/** The kind of a parsed text, for naming it without its content. */
function kindOf(text: string): string {
  let doc: Record<string, unknown>;
  try {
    doc = JSON.parse(text) as Record<string, unknown>;
  } catch {
    return "a document";
  }
  if (doc === null || typeof doc !== "object") return "a document";
  if (doc.schema_version === "scamshield-provenance/v1") return "an assessment";
  if ("content_sha256" in doc) return "a capsule";
  if ("typologies" in doc) return "an intelligence pack";
  if ("signals" in doc) return "a judgement";
  return "a document";
}

/** Runs `body` and returns one line per text parsed more than once: its kind and length, never its content. */
async function repeatedParses(body: () => Promise<void>): Promise<string[]> {
  const counts = new Map<string, { n: number; length: number; kind: string }>();
  observeStrictParses((text) => {
    const k = keyOf(text);
    const c = counts.get(k) ?? { n: 0, length: text.length, kind: kindOf(text) };
    c.n++;
    counts.set(k, c);
  });
  try {
    await body();
  } finally {
    observeStrictParses(undefined);
  }
  return [...counts].filter(([, c]) => c.n > 1).map(([, c]) => `${c.kind} (${c.length} characters) parsed ${c.n} times`);
}

async function cli(args: string[], stdin?: Buffer): Promise<string> {
  const r = await runCli(args, { stdin });
  expect(r.code, r.stderr).toBe(0);
  return r.stdout;
}

describe("each input is strictly parsed at most once per command", () => {
  let capsuleFile: string;

  test("capsule build --no-store (with the message file)", async () => {
    let out = "";
    const repeated = await repeatedParses(async () => {
      out = await cli(["--home", freshHome(), "--pack", PACK, "capsule", "build", "--no-store", "--message-file", MESSAGE_FILE], ASSESSMENT);
    });
    expect(repeated).toEqual([]);
    capsuleFile = join(work, "synthetic.capsule.json");
    writeFileSync(capsuleFile, out);
  });

  test("capsule build into a new store, then --no-store in the data directory that remembers the pack", async () => {
    const home = freshHome();
    expect(await repeatedParses(async () => void (await cli(["--home", home, "--pack", PACK, "capsule", "build"], ASSESSMENT)))).toEqual([]);
    // --pack and the data directory's own copy of the same pack: compared by digest, loaded once.
    expect(await repeatedParses(async () => void (await cli(["--home", home, "--pack", PACK, "capsule", "build", "--no-store"], ASSESSMENT)))).toEqual([]);
  });

  test("capsule assess (message file and judgement)", async () => {
    const repeated = await repeatedParses(async () => {
      await cli(["--home", freshHome(), "--pack", PACK, "capsule", "assess", "--message-file", MESSAGE_FILE], JUDGEMENT);
    });
    expect(repeated).toEqual([]);
  });

  test("capsule import, verify, open and export", async () => {
    const home = freshHome();
    const id = (JSON.parse(readFileSync(capsuleFile, "utf8")) as { content_sha256: string }).content_sha256;
    expect(await repeatedParses(async () => void (await cli(["--home", home, "capsule", "import", capsuleFile])))).toEqual([]);
    expect(await repeatedParses(async () => void (await cli(["--home", home, "capsule", "verify", capsuleFile])))).toEqual([]);
    expect(await repeatedParses(async () => void (await cli(["--home", home, "capsule", "open", id])))).toEqual([]);
    const out = join(work, `export-${homes}.capsule.json`);
    expect(await repeatedParses(async () => void (await cli(["--home", home, "capsule", "export", id, "--out", out])))).toEqual([]);
  });

  for (const tool of ["record_assessment", "assess_message"] as const) {
    test(`MCP ${tool} (in process, with the message text)`, async () => {
      const config = loadConfig({ home: freshHome(), pack: PACK, "mcp-url": "http://127.0.0.1:9/mcp", "base-url": "http://127.0.0.1:9" }, {});
      const s = await startSession(config);
      const message_text = readFileSync(MESSAGE_FILE, "utf8");
      try {
        const repeated = await repeatedParses(async () => {
          const args = tool === "record_assessment" ? { assessment: ASSESSMENT.toString("utf8"), message_text } : { message_text, ...JSON.parse(JUDGEMENT.toString("utf8")) };
          const r = await s.call(tool, args);
          expect(r.msg.result.isError, JSON.stringify(r.msg.result.content)).toBeUndefined();
          expect(r.msg.result.structuredContent.capsule_id).toMatch(/^[0-9a-f]{64}$/);
        });
        // The candidate preview is the derivation the store's put made from the built value: nothing parsed twice.
        expect(repeated).toEqual([]);
      } finally {
        await s.end();
      }
    });
  }
});
