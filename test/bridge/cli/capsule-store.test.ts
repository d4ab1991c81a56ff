/** `capsule list|open|export|import` end to end through main() with fake streams. */
import { chmodSync, existsSync, mkdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { randomBytes } from "node:crypto";
import { join } from "node:path";
import { afterAll, describe, expect, test } from "vitest";
import { runCli } from "../../helpers/cli.js";
import { main, oneLine } from "../../../bridge/cli/main.js";
import { openOrCreateStore } from "../../../capsules/store/store.js";
import { keyLayout } from "../../../src/crypto/keys.js";
import { createReviewerKey } from "../../../capsules/review/reviewer-key.js";
import { appendDecision } from "../../../capsules/review/log.js";
import { describeShared, sharedPath } from "../../helpers/shared.js";
import { CANARY, filesContaining, PLAINTEXT_MARKERS, snapshot, syntheticCapsule } from "../../capsules/store/synthetic.js";

const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});
function tmp(tag: string): string {
  const d = join(process.env.TMPDIR ?? "/tmp", `eb-cli-store-${tag}-${process.pid}-${randomBytes(4).toString("hex")}`);
  dirs.push(d);
  return d;
}

const run = runCli;

/** A work directory holding capsule files 0..n-1 (canonical bytes) and a data directory path. */
function workspace(tag: string, n: number) {
  const dir = tmp(tag);
  mkdirSync(dir, { recursive: true });
  const caps = Array.from({ length: n }, (_, i) => syntheticCapsule(500 + i));
  const files = caps.map((c, i) => {
    const f = join(dir, `c${i}.capsule.json`);
    writeFileSync(f, c.bytes);
    return f;
  });
  return { dir, home: join(dir, "home"), caps, files };
}

describe("capsule import", () => {
  test("verifies and seals several files; prints one line per capsule; idempotent", async () => {
    const w = workspace("imp", 3);
    let r = await run(["--home", w.home, "capsule", "import", ...w.files]);
    expect(r.code).toBe(0);
    expect(r.stderr).toBe("");
    expect(r.stdout).toBe(w.caps.map((c) => `${c.id} stored\n`).join(""));
    r = await run(["--home", w.home, "capsule", "import", w.files[0]]);
    expect(r.stdout).toBe(`${w.caps[0].id} already stored\n`);
    expect(existsSync(keyLayout(w.home).storeKey)).toBe(true); // keys created on first use
  });

  test("progress on a terminal, cleared at the end", async () => {
    const w = workspace("tty", 2);
    const r = await run(["--home", w.home, "capsule", "import", ...w.files], { tty: true });
    expect(r.code).toBe(0);
    expect(r.stderr).toContain("capsule import: verified 1/2");
    expect(r.stderr).toContain("capsule import: verified 2/2");
    expect(r.stderr).toContain("capsule import: sealed 2/2");
    expect(r.stderr.endsWith("\r\x1b[K")).toBe(true);
  });

  test("a file that is not JSON or does not verify: named, exit 2, nothing written (not even keys)", async () => {
    const w = workspace("bad", 2);
    writeFileSync(join(w.dir, "notjson.json"), "not json at all");
    const tampered = Buffer.from(w.caps[1].bytes).toString().replace("Synthetic lead", "Altered lead");
    writeFileSync(join(w.dir, "tampered.json"), tampered);
    for (const [bad, message] of [
      [join(w.dir, "notjson.json"), `${join(w.dir, "notjson.json")}: not a capsule file: invalid JSON: `],
      [join(w.dir, "tampered.json"), `${join(w.dir, "tampered.json")}: capsule does not verify: content_sha256 does not match canonical content`],
    ]) {
      const r = await run(["--home", w.home, "capsule", "import", w.files[0], bad, w.files[1]], { tty: true });
      expect(r.code).toBe(2);
      expect(r.stdout).toBe("");
      expect(r.stderr).toContain(`\r\x1b[Kevidence-bridge: ${message}`);
      expect(r.stderr.split("\n").filter((l) => l.length > 0).length).toBe(1);
      expect(existsSync(w.home)).toBe(false);
    }
    // With an existing store, nothing on disk changes either.
    await run(["--home", w.home, "capsule", "import", w.files[0]]);
    const before = snapshot(w.home);
    const r = await run(["--home", w.home, "capsule", "import", w.files[1], join(w.dir, "tampered.json")]);
    expect(r.code).toBe(2);
    expect(snapshot(w.home)).toEqual(before);
    expect((await run(["--home", w.home, "capsule", "import"])).stderr).toBe("evidence-bridge: capsule import: at least one FILE is required\n");
  });

  test("a capsule whose id is stored with different bytes is refused and named", async () => {
    const w = workspace("conflict", 1);
    await run(["--home", w.home, "capsule", "import", w.files[0]]);
    const pretty = join(w.dir, "pretty.json");
    writeFileSync(pretty, w.caps[0].prettyBytes);
    const r = await run(["--home", w.home, "capsule", "import", pretty]);
    expect(r.code).toBe(2);
    expect(r.stderr).toBe(`evidence-bridge: ${pretty}: capsule ${w.caps[0].id} is already stored with different bytes; the stored copy is kept\n`);
  });
});

describe("capsule list", () => {
  test("no store yet; table and --json rows; --limit", async () => {
    const w = workspace("list", 3);
    let r = await run(["--home", w.home, "capsule", "list"]);
    expect(r).toMatchObject({ code: 0, stdout: "no capsules in the store\n", stderr: "" });
    expect((await run(["--home", w.home, "capsule", "list", "--json"])).stdout).toBe("[]\n");
    expect(existsSync(w.home)).toBe(false);
    await run(["--home", w.home, "capsule", "import", ...w.files]);
    r = await run(["--home", w.home, "capsule", "list"]);
    const lines = r.stdout.trimEnd().split("\n");
    expect(lines[0]).toMatch(/^ID +CREATED +TIER +FAMILIES +IOCS +REVIEW$/);
    expect(lines.length).toBe(4);
    expect(lines[1]).toContain(w.caps[2].id); // newest first
    expect(lines[1]).toMatch(/LIKELY_SCAM +ACCOUNT,FRAUD +handles=1,wallets=1,emails=2 +HUMAN_REVIEW_REQUIRED$/);
    const rows = JSON.parse((await run(["--home", w.home, "capsule", "list", "--json"])).stdout);
    expect(rows.map((x: { id: string }) => x.id)).toEqual([w.caps[2].id, w.caps[1].id, w.caps[0].id]);
    expect(Object.keys(rows[0])).toEqual(["id", "created_at", "kind", "tiers", "families", "ioc_counts", "review_status", "approvals"]);
    expect(rows[0].approvals).toEqual({ counted: 0, required: 1, met: false });
    expect(JSON.parse((await run(["--home", w.home, "capsule", "list", "--json", "--limit", "1"])).stdout).length).toBe(1);
    expect((await run(["--home", w.home, "capsule", "list", "--limit", "0"])).stderr).toBe(
      'evidence-bridge: --limit: expected an integer >= 1, got "0"\n',
    );
  });

  test("review status comes from the review log's latest decision for the capsule", async () => {
    const w = workspace("review", 2);
    await run(["--home", w.home, "capsule", "import", ...w.files]);
    const reviewer = createReviewerKey(w.home, "test-reviewer");
    appendDecision(
      w.home,
      { capsule_sha256: w.caps[0].id, candidate_sha256: "c".repeat(64), typology_match_visible: false, decision: "REJECTED", reason: "corroborated", public_note: "not a scam" },
      reviewer,
    );
    const rows = JSON.parse((await run(["--home", w.home, "capsule", "list", "--json"])).stdout) as { id: string; review_status: string }[];
    expect(Object.fromEntries(rows.map((r) => [r.id, r.review_status]))).toEqual({
      [w.caps[0].id]: "REJECTED",
      [w.caps[1].id]: "HUMAN_REVIEW_REQUIRED",
    });
  });

  test("key problems and mode mix-ups are errors, not an empty list", async () => {
    const w = workspace("listkeys", 1);
    await run(["--home", w.home, "capsule", "import", w.files[0]]);
    chmodSync(keyLayout(w.home).storeKey, 0o640);
    let r = await run(["--home", w.home, "capsule", "list"]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(`fix it with: chmod 600 ${keyLayout(w.home).storeKey}`);
    chmodSync(keyLayout(w.home).storeKey, 0o600);
    r = await run(["--home", w.home, "capsule", "list"], { env: { EVIDENCE_BRIDGE_PASSPHRASE: "p" } });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain("EVIDENCE_BRIDGE_PASSPHRASE is set");
    rmSync(keyLayout(w.home).dir, { recursive: true });
    r = await run(["--home", w.home, "capsule", "list"]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain("holds sealed files but its keys are missing");
  });
});

describe("capsule open", () => {
  test("prints the exact stored bytes, by full id or unique prefix", async () => {
    const w = workspace("open", 2);
    await run(["--home", w.home, "capsule", "import", ...w.files]);
    for (const id of [w.caps[0].id, w.caps[0].id.slice(0, 8), w.caps[0].id.toUpperCase()]) {
      const r = await run(["--home", w.home, "capsule", "open", id]);
      expect(r.code).toBe(0);
      expect(r.out.equals(Buffer.from(w.caps[0].bytes))).toBe(true);
    }
    expect((await run(["--home", w.home, "capsule", "open"])).stderr).toMatch(/^evidence-bridge: capsule open: expected exactly one capsule id/);
    expect((await run(["--home", w.home, "capsule", "open", "0".repeat(64)])).stderr).toBe(`evidence-bridge: no capsule ${"0".repeat(64)} in the store\n`);
  });

  test("a damaged or future-version sealed file is a precise error, exit 2, empty stdout", async () => {
    const w = workspace("opendmg", 1);
    await run(["--home", w.home, "capsule", "import", w.files[0]]);
    const id = w.caps[0].id;
    const path = join(w.home, "store", "capsules", `${id}.sealed`);
    const original = readFileSync(path);
    const bad = Buffer.from(original);
    bad[100] ^= 0x10;
    writeFileSync(path, bad);
    let r = await run(["--home", w.home, "capsule", "open", id]);
    expect(r).toMatchObject({ code: 2, stdout: "", stderr: `evidence-bridge: sealed file failed authentication: store/capsules/${id}.sealed\n` });
    const future = Buffer.from(original);
    future[8] = 7;
    future[9] = 0xf8;
    writeFileSync(path, future);
    r = await run(["--home", w.home, "capsule", "open", id]);
    expect(r.stderr).toBe(
      `evidence-bridge: sealed file store/capsules/${id}.sealed uses format version 7; this build reads version 1 only: upgrade evidence-bridge to open it\n`,
    );
  });
});

describe("capsule export", () => {
  test("writes a verified plaintext copy (0600) outside the data directory; same bytes again is fine", async () => {
    const w = workspace("export", 1);
    await run(["--home", w.home, "capsule", "import", w.files[0]]);
    const out = join(w.dir, "shared", "copy.json");
    mkdirSync(join(w.dir, "shared"));
    let r = await run(["--home", w.home, "capsule", "export", w.caps[0].id.slice(0, 12), "--out", out]);
    expect(r.code).toBe(0);
    expect(r.stdout).toBe(`${w.caps[0].id} exported to ${out}\n`);
    expect(readFileSync(out).equals(Buffer.from(w.caps[0].bytes))).toBe(true);
    expect(statSync(out).mode & 0o777).toBe(0o600);
    r = await run(["--home", w.home, "capsule", "export", w.caps[0].id, "--out", out]);
    expect(r.code).toBe(0);
  });

  test("refuses: inside the data directory, an existing different file, no --out", async () => {
    const w = workspace("exportbad", 1);
    await run(["--home", w.home, "capsule", "import", w.files[0]]);
    const id = w.caps[0].id;
    const before = snapshot(w.home);
    let r = await run(["--home", w.home, "capsule", "export", id, "--out", join(w.home, "store", "plain.json")]);
    expect(r.code).toBe(2);
    expect(r.stderr).toBe(
      `evidence-bridge: capsule export: --out ${join(w.home, "store", "plain.json")} is inside the data directory ${w.home}; plaintext copies must live elsewhere\n`,
    );
    expect(snapshot(w.home)).toEqual(before);
    const other = join(w.dir, "other.json");
    writeFileSync(other, "something else");
    r = await run(["--home", w.home, "capsule", "export", id, "--out", other]);
    expect(r.stderr).toBe(`evidence-bridge: capsule export: ${other} already exists with different content; refusing to overwrite it\n`);
    expect(readFileSync(other, "utf8")).toBe("something else");
    expect((await run(["--home", w.home, "capsule", "export", id])).stderr).toBe("evidence-bridge: capsule export: --out FILE is required\n");
  });
});

describe("canaries through the CLI", () => {
  test("import, list, open: no canary on stderr or in list output, none anywhere under the data directory", async () => {
    const w = workspace("canary", 4);
    const outputs: string[] = [];
    for (const args of [["capsule", "import", ...w.files], ["capsule", "list"], ["capsule", "list", "--json"], ["keys", "show"]]) {
      const r = await run(["--home", w.home, ...args]);
      expect(r.code).toBe(0);
      outputs.push(r.stdout, r.stderr);
    }
    const open = await run(["--home", w.home, "capsule", "open", w.caps[0].id]);
    expect(open.stdout).toContain(CANARY.handle); // the owner's explicit request
    const text = outputs.join("\n");
    for (const needle of [CANARY.handle, CANARY.wallet, CANARY.email, ...w.caps.map((c) => c.messageSha256)]) expect(text).not.toContain(needle);
    expect(filesContaining(w.home, [...PLAINTEXT_MARKERS, CANARY.wallet, CANARY.email])).toEqual([]);
  });
});

describeShared("example capsules", () => {
  test("the reference bridge's example capsules and the golden vectors import, list and open byte-exactly", async () => {
    const home = tmp("examples");
    const files = [
      ...["01-mule-account-rental-hinglish", "03-usdt-inr-kitchen-sink-iocs", "22-clean-mandi-prices"].map((n) =>
        sharedPath(`data/bridge-examples/valid/${n}.capsule.json`),
      ),
      sharedPath("data/capsule-v1/test-vectors/nemesis-ddti-v1.json"),
      sharedPath("data/capsule-v1/test-vectors/palimpsest-erasure-v1.json"),
    ];
    const r = await run(["--home", home, "capsule", "import", ...files]);
    expect(r.code, r.stderr).toBe(0);
    const rows = JSON.parse((await run(["--home", home, "capsule", "list", "--json"])).stdout);
    expect(rows.length).toBe(5);
    expect(rows.filter((x: { kind: string }) => x.kind === "other").length).toBe(2);
    const store = await openOrCreateStore({ home, passphrase: undefined });
    for (const f of files) {
      const id = JSON.parse(readFileSync(f, "utf8")).content_sha256;
      expect(Buffer.from(store.getCapsule(id)).equals(readFileSync(f))).toBe(true);
      expect(store.receipt(id).status).toBe("valid");
    }
  });
});

describeShared("canaries through capsule build --retain-message", () => {
  test("the example's IOC values, message text, message hash and pseudonym appear nowhere under the data directory", async () => {
    const home = tmp("build");
    const dir = "data/bridge-examples/valid";
    const name = "03-usdt-inr-kitchen-sink-iocs";
    const assessmentBytes = readFileSync(sharedPath(dir, `${name}.json`));
    const assessment = JSON.parse(assessmentBytes.toString("utf8"));
    const pack = sharedPath("data/intelligence-pack/intelligence-pack-v1.json");
    const r = await run(
      ["--home", home, "--pack", pack, "capsule", "build", "--message-file", sharedPath(dir, `${name}.txt`), "--retain-message"],
      { stdin: assessmentBytes },
    );
    expect(r.code, r.stderr).toBe(0);
    const id = JSON.parse(r.stdout).content_sha256 as string;
    const store = await openOrCreateStore({ home, passphrase: undefined });
    expect(Buffer.from(store.getCapsule(id)).toString("utf8")).toBe(r.stdout);
    expect(Buffer.from(store.getMessage(assessment.message_sha256)).equals(readFileSync(sharedPath(dir, `${name}.txt`)))).toBe(true);
    const iocs = Object.values(assessment.detector.iocs as Record<string, string[]>).flat();
    expect(iocs.length).toBeGreaterThan(5);
    const messageLines = readFileSync(sharedPath(dir, `${name}.txt`), "utf8").split("\n").filter((l) => l.trim().length > 12);
    const needles = [...iocs, ...messageLines, assessment.message_sha256, assessment.collection.source_pseudonym, ...PLAINTEXT_MARKERS.slice(0, 2)].filter((n) => n.length > 0);
    expect(filesContaining(home, needles)).toEqual([]);
    const list = await run(["--home", home, "capsule", "list", "--json"]);
    for (const n of needles.slice(0, -2)) expect(list.stdout).not.toContain(n);
  });
});
