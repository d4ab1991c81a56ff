/**
 * Issue 29 item 3: every file a command reads or writes by name, driven through the built CLI (`dist/bundle`) with a
 * FIFO that has no writer, a symbolic link (to a readable regular file: it must not be followed), a directory,
 * /dev/zero and an oversize (sparse) file. Each run must end by itself with exit 2, nothing on stdout and one stderr
 * line that names the path and what it is.
 *
 * Each process runs under a hang guard (a spawn timeout): reading a FIFO that has no writer blocks forever, so a
 * process the guard has to kill fails the test. The guard's length decides only how long a failing run takes; it
 * measures no speed (the machine may be busy), and a run that is refused at open never comes near it.
 */
import { execFileSync, spawnSync } from "node:child_process";
import { closeSync, existsSync, mkdirSync, mkdtempSync, openSync, readFileSync, rmSync, symlinkSync, truncateSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { repoRoot } from "../../helpers/shared.js";
import { runCli } from "../../helpers/cli.js";
import { BUNDLE, ensureBuilt } from "../mcp/compiled.js";

const HANG_GUARD_MS = 10_000;
const EXAMPLES = join(repoRoot, "examples/synthetic");
const PACK = join(EXAMPLES, "intelligence-pack.json");
const MESSAGE = join(EXAMPLES, "message.txt");
const ASSESSMENT = readFileSync(join(EXAMPLES, "assessment.json"));
const JUDGEMENT = readFileSync(join(EXAMPLES, "judgement.json"));

const base = mkdtempSync(join(tmpdir(), "eb-hostile-files-"));
afterAll(() => rmSync(base, { recursive: true, force: true }));

/** A readable regular file that a followed link would reach. */
const plain = join(base, "plain.txt");
const hostile = {
  fifo: join(base, "fifo"),
  link: join(base, "link"),
  directory: join(base, "directory"),
  device: "/dev/zero",
  oversize: join(base, "oversize"),
} as const;
type Hostile = keyof typeof hostile;
const WHAT: Record<Hostile, RegExp> = {
  fifo: /is a FIFO/,
  link: /is a symbolic link/,
  directory: /is a directory/,
  device: /is a device/,
  oversize: /(larger than|exceeds|over the) [^\n]*\d+[^\n]*byte/,
};

let home = "";
let capsuleId = "";
let capsuleBytes: Buffer = Buffer.alloc(0);

beforeAll(async () => {
  writeFileSync(plain, "not what the command expects\n");
  execFileSync("mkfifo", [hostile.fifo]);
  symlinkSync(plain, hostile.link);
  mkdirSync(hostile.directory);
  closeSync(openSync(hostile.oversize, "w", 0o600)); // private, so a key-file reader judges its size, not its mode
  truncateSync(hostile.oversize, 1024 * 1024 * 1024); // sparse: nothing is written, and nothing should be read
  home = join(base, "home");
  const built = await runCli(["--home", home, "--pack", PACK, "capsule", "build", "--message-file", MESSAGE], { stdin: ASSESSMENT });
  expect(built.code, built.stderr).toBe(0);
  capsuleId = (JSON.parse(built.stdout) as { content_sha256: string }).content_sha256;
  capsuleBytes = built.out.subarray(0, built.out.length - 1); // the canonical capsule, without the printed newline
  expect(capsuleId).toMatch(/^[0-9a-f]{64}$/);
  const group = await runCli(["--home", home, "keys", "init", "--group", "crew"]);
  expect(group.code, group.stderr).toBe(0);
  ensureBuilt();
}, 400_000);

interface Run {
  status: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

function runBundle(args: string[], stdin?: Buffer): Run {
  const r = spawnSync(process.execPath, [BUNDLE!, ...args], {
    cwd: base,
    input: stdin ?? Buffer.alloc(0),
    timeout: HANG_GUARD_MS,
    killSignal: "SIGKILL",
    env: { PATH: process.env.PATH ?? "" },
    encoding: "utf8",
  });
  return { status: r.status, signal: r.signal, stdout: r.stdout, stderr: r.stderr };
}

function expectRefused(r: Run, path: string, kind: Hostile): void {
  expect(r.signal, `killed by the hang guard: the command waited on ${kind} ${path}`).toBeNull();
  expect(r.stdout).toBe("");
  expect(r.stderr.split("\n").filter((l) => l !== "")).toHaveLength(1);
  expect(r.stderr).toContain(path);
  expect(r.stderr).toMatch(WHAT[kind]);
  expect(r.status).toBe(2);
}

/**
 * A command's own report instead of the one stderr line: `doctor` lists an unreadable `--index` file as a failed
 * check (exit 1); `readings check-ledger` reads one byte past the server's cap and fails the check with the server's
 * own size message (exit 1), as hosted-tool-server.md §4.3 says.
 */
type Expect = (r: Run, path: string, kind: Hostile) => void;
function expectReported(r: Run, path: string, kind: Hostile): void {
  expect(r.signal, `killed by the hang guard: the command waited on ${kind} ${path}`).toBeNull();
  expect(r.status).toBe(1);
  expect(r.stdout).toContain(path);
  expect(r.stdout).toMatch(WHAT[kind]);
}
function expectServerSizeCheck(message: RegExp): Expect {
  return (r, path, kind) => {
    expect(r.signal, `killed by the hang guard: the command waited on ${kind} ${path}`).toBeNull();
    expect(r.status).toBe(1);
    expect(r.stdout).toMatch(message);
  };
}

interface Reader {
  name: string;
  args: (f: string) => string[];
  stdin?: Buffer;
  expect?: Partial<Record<Hostile, Expect>>;
}

/** Commands that read a file by name: the argument list with the file in it, and stdin. */
const READERS: Reader[] = [
  { name: "capsule verify FILE", args: (f) => ["capsule", "verify", f] },
  { name: "capsule import FILE", args: (f) => ["--home", join(base, "import-home"), "capsule", "import", f] },
  { name: "capsule build --message-file", args: (f) => ["--home", home, "--pack", PACK, "capsule", "build", "--no-store", "--message-file", f], stdin: ASSESSMENT },
  { name: "capsule assess --message-file", args: (f) => ["--home", home, "--pack", PACK, "capsule", "assess", "--message-file", f], stdin: JUDGEMENT },
  { name: "pack verify FILE", args: (f) => ["pack", "verify", f] },
  { name: "--pack FILE (pack signals)", args: (f) => ["--home", join(base, "pack-home"), "--pack", f, "pack", "signals"] },
  { name: "--pack FILE (capsule build)", args: (f) => ["--home", home, "--pack", f, "capsule", "build", "--no-store"], stdin: ASSESSMENT },
  { name: "pack install FILE", args: (f) => ["--home", join(base, "install-home"), "pack", "install", f] },
  { name: "index validate FILE", args: (f) => ["index", "validate", f] },
  { name: "index export FILE", args: (f) => ["index", "export", f, "--format", "jsonl"] },
  {
    name: "doctor --index FILE",
    args: (f) => ["--home", home, "doctor", "--index", f],
    expect: { fifo: expectReported, link: expectReported, directory: expectReported, device: expectReported, oversize: expectReported },
  },
  {
    name: "readings check-ledger --manifest",
    args: (f) => ["readings", "check-ledger", "--manifest", f, "--ledger", plain],
    expect: { oversize: expectServerSizeCheck(/FAILED \(manifest\): published observation manifest exceeds 262144 bytes/) },
  },
  {
    name: "readings check-ledger --ledger",
    args: (f) => ["readings", "check-ledger", "--manifest", plain, "--ledger", f],
    // The manifest is checked first; with a real one the ledger's size fails the receipt (test/bridge/cli/readings.test.ts).
    expect: { oversize: expectServerSizeCheck(/FAILED \(manifest\)/) },
  },
  { name: "review verify-export FILE", args: (f) => ["review", "verify-export", f] },
  { name: "keys add-group NAME FILE", args: (f) => ["--home", join(base, "group-home"), "keys", "add-group", "peers", f] },
  { name: "tokens match FILE", args: (f) => ["--home", home, "tokens", "match", "--group", "crew", f] },
];

describe("every file a command reads by name: one immediate error naming the path and what it is", () => {
  for (const reader of READERS) {
    test.each(Object.keys(hostile) as Hostile[])(`${reader.name}: %s`, { timeout: HANG_GUARD_MS + 20_000 }, (kind) => {
      (reader.expect?.[kind] ?? expectRefused)(runBundle(reader.args(hostile[kind]), reader.stdin), hostile[kind], kind);
    });
  }
});

/** Commands that write a file by name: nothing may be written through a link, into a FIFO or over a device. */
const WRITERS: [string, (f: string) => string[], Buffer?][] = [
  ["capsule export --out", (f) => ["--home", home, "capsule", "export", capsuleId, "--out", f]],
  ["review export --out", (f) => ["--home", home, "--pack", PACK, "review", "export", "--out", f]],
  ["review export --format csv --out", (f) => ["--home", home, "--pack", PACK, "review", "export", "--format", "csv", "--out", f]],
  ["tokens export --out", (f) => ["--home", home, "tokens", "export", "--group", "crew", "--out", f]],
];

describe("every file a command writes by name: a link, FIFO, directory or device there is refused at once", () => {
  for (const [name, argsFor, stdin] of WRITERS) {
    test.each(["fifo", "link", "directory", "device"] as Hostile[])(`${name}: %s`, { timeout: HANG_GUARD_MS + 20_000 }, (kind) => {
      expectRefused(runBundle(argsFor(hostile[kind]), stdin), hostile[kind], kind);
      expect(readFileSync(plain, "utf8")).toBe("not what the command expects\n"); // the link's target is untouched
    });
  }

  // A MISP feed is a directory: a link, FIFO or device in its place is refused the same way.
  test.each(["fifo", "link", "device"] as Hostile[])("review export --format misp --out DIR: %s", { timeout: HANG_GUARD_MS + 20_000 }, (kind) => {
    expectRefused(runBundle(["--home", home, "--pack", PACK, "review", "export", "--format", "misp", "--out", hostile[kind]]), hostile[kind], kind);
  });

  test.each(["fifo", "link", "directory"] as Hostile[])("capsule build --outbox DIR with %s at DIR/<id>.json", { timeout: HANG_GUARD_MS + 20_000 }, (kind) => {
    const outbox = join(base, `outbox-${kind}`);
    mkdirSync(outbox);
    const target = join(outbox, `${capsuleId}.json`);
    if (kind === "fifo") execFileSync("mkfifo", [target]);
    if (kind === "link") symlinkSync(plain, target);
    if (kind === "directory") mkdirSync(target);
    expectRefused(runBundle(["--home", home, "--pack", PACK, "capsule", "build", "--no-store", "--outbox", outbox, "--message-file", MESSAGE], ASSESSMENT), target, kind);
    expect(readFileSync(plain, "utf8")).toBe("not what the command expects\n");
  });
});

describe("files in the data directory that a command reads by name", () => {
  test.each(["fifo", "link", "directory"] as Hostile[])("the installed pack and its digest record as %s", { timeout: 2 * HANG_GUARD_MS + 20_000 }, (kind) => {
    for (const name of ["intelligence-pack-v1.json", "intelligence-pack-v1.json.sha256"]) {
      const h = join(base, `home-pack-${kind}-${name}`);
      mkdirSync(h, { mode: 0o700 });
      const installed = runBundle(["--home", h, "pack", "install", PACK]);
      expect(installed.status, installed.stderr).toBe(0);
      const target = join(h, name);
      expect(existsSync(target)).toBe(true);
      rmSync(target);
      if (kind === "fifo") execFileSync("mkfifo", [target]);
      if (kind === "link") symlinkSync(plain, target);
      if (kind === "directory") mkdirSync(target);
      expectRefused(runBundle(["--home", h, "pack", "signals"]), target, kind);
    }
  });

  test.each(["fifo", "link", "directory"] as Hostile[])("the review policy as %s", { timeout: HANG_GUARD_MS + 20_000 }, (kind) => {
    const target = join(home, "store", "review-policy.json");
    rmSync(target, { force: true, recursive: true });
    if (kind === "fifo") execFileSync("mkfifo", [target]);
    if (kind === "link") symlinkSync(plain, target);
    if (kind === "directory") mkdirSync(target);
    try {
      expectRefused(runBundle(["--home", home, "review", "policy"]), target, kind);
    } finally {
      rmSync(target, { force: true, recursive: true });
    }
  });
});

describe("'-' keeps meaning stdin for the commands that read a FILE", () => {
  const INDEX = readFileSync(join(repoRoot, "test/fixtures/regional/valid/bri.json"));

  test("capsule verify -, capsule import -, pack verify -, index validate -, index export -", async () => {
    const verified = await runCli(["--home", home, "capsule", "verify", "-"], { stdin: capsuleBytes });
    expect([verified.code, verified.stdout.split("\n")[0]]).toEqual([0, "-: ok"]);
    const imported = await runCli(["--home", join(base, "stdin-import-home"), "capsule", "import", "-"], { stdin: capsuleBytes });
    expect([imported.code, imported.stdout]).toEqual([0, `${capsuleId} stored\n`]);
    const pack = await runCli(["pack", "verify", "-"], { stdin: readFileSync(PACK) });
    expect([pack.code, pack.stdout.split("\n")[0]]).toEqual([0, "-: ok"]);
    const index = await runCli(["index", "validate", "-"], { stdin: INDEX });
    expect([index.code, index.stdout.slice(0, 12)]).toEqual([0, "-: conforms "]);
    const exported = await runCli(["index", "export", "-", "--format", "jsonl"], { stdin: INDEX });
    expect(exported.code).toBe(0);
    expect(exported.stdout.split("\n").length).toBeGreaterThan(1);
  });

  test("review verify-export - and tokens match -", async () => {
    const exportFile = join(base, "stdin-review.jsonl");
    expect((await runCli(["--home", home, "--pack", PACK, "review", "export", "--out", exportFile])).code).toBe(0);
    const checked = await runCli(["review", "verify-export", "-", "--json"], { stdin: readFileSync(exportFile) });
    expect(checked.stderr).toBe("");
    expect((JSON.parse(checked.stdout) as { checkpoint: unknown }).checkpoint).toBeDefined();
    const tokens = join(base, "stdin-tokens.json");
    expect((await runCli(["--home", home, "tokens", "export", "--group", "crew", "--out", tokens])).code).toBe(0);
    const matched = await runCli(["--home", home, "tokens", "match", "--group", "crew", "-"], { stdin: readFileSync(tokens) });
    expect([matched.code, matched.stdout]).toEqual([0, `${capsuleId}\n`]);
  });

  test("'-' twice is refused (stdin is read once), and stdin is bounded like the file it stands for", async () => {
    const twice = await runCli(["capsule", "verify", "-", "-"], { stdin: capsuleBytes });
    expect([twice.code, twice.stderr]).toEqual([2, "evidence-bridge: capsule verify: '-' (stdin) can be given only once\n"]);
    const big = await runCli(["index", "validate", "--max-bytes", "100", "-"], { stdin: INDEX });
    expect([big.code, big.stderr]).toEqual([2, "evidence-bridge: -: over the 100-byte cap (raise --max-bytes to read it)\n"]);
  });
});
