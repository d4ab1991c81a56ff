/**
 * Store integrity against hostile files and foreign keys: FIFOs, devices and links where the store and the review
 * log expect regular files give an immediate clear error (also in the MCP server, which keeps answering and exits
 * at the end of stdin); a copied-in foreign store key cannot seal; `keys init` never creates keys next to sealed
 * files it cannot open; endless inputs are refused before they are read; doctor checks every mode and receipt;
 * `capsule list` names swapped receipts; `--outbox` inside the data directory is refused.
 */
import { spawn, execFileSync } from "node:child_process";
import { chmodSync, copyFileSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, truncateSync, writeFileSync, closeSync, openSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, test } from "vitest";
import { reviewLayout } from "../../../capsules/review/layout.js";
import { verifyReviewLog } from "../../../capsules/review/log.js";
import { readRowIndex } from "../../../capsules/store/row-index.js";
import { openStore } from "../../../capsules/store/store.js";
import { runCli } from "../../helpers/cli.js";
import { scriptArgs } from "../../helpers/node-script.js";
import { describeShared, repoRoot, sharedPath } from "../../helpers/shared.js";
import { exampleCapsule, PACK_FILE, removeHomes, storeWith, tempHome } from "../feed/store-fixtures.js";
import { storable } from "../../helpers/storable.js";

afterAll(removeHomes);

const fifo = (path: string) => execFileSync("mkfifo", [path]);

describeShared("hostile files in the data directory", () => {
  test.each([
    ["a sealed capsule", (home: string, id: string) => join(home, "store", "capsules", `${id}.sealed`)],
    ["the row index", (home: string) => join(home, "store", "rows.sealed")],
  ])("a FIFO at %s: capsule list fails at once naming it", { timeout: 20_000 }, async (_what, where) => {
    const { home } = await storeWith("fifo", [exampleCapsule("01")]);
    const path = where(home, exampleCapsule("01").id);
    rmSync(path, { force: true });
    fifo(path);
    const r = await runCli(["--home", home, "capsule", "list"]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/is a FIFO; only regular files are read/);
  });

  test.each([
    ["head.json", (l: ReturnType<typeof reviewLayout>) => l.head],
    ["log.jsonl", (l: ReturnType<typeof reviewLayout>) => l.log],
  ])("a FIFO or dangling link at review/%s: verification fails at once naming it", { timeout: 20_000 }, (_what, where) => {
    const home = tempHome("fifo-review");
    const layout = reviewLayout(home);
    mkdirSync(layout.dir, { recursive: true });
    fifo(where(layout));
    let error: string | undefined;
    try {
      error = verifyReviewLog(home).error;
    } catch (e) {
      error = (e as Error).message;
    }
    expect(error).toMatch(/is a FIFO; only regular files are read/);
    rmSync(where(layout));
    execFileSync("ln", ["-s", join(home, "nowhere"), where(layout)]);
    try {
      error = verifyReviewLog(home).error;
    } catch (e) {
      error = (e as Error).message;
    }
    expect(error).toMatch(/is a symbolic link; only regular files are read/);
  });

  test("the MCP server answers list_capsules with an error and exits at the end of stdin, with a FIFO planted in the store", { timeout: 60_000 }, async () => {
    const { home } = await storeWith("fifo-mcp", [exampleCapsule("01")]);
    const id = exampleCapsule("01").id;
    rmSync(join(home, "store", "capsules", `${id}.sealed`));
    fifo(join(home, "store", "capsules", `${id}.sealed`));
    const child = spawn(process.execPath, [...scriptArgs(join(repoRoot, "bridge/cli/bin.ts")), "--home", home, "--pack", PACK_FILE], {
      cwd: repoRoot,
      stdio: ["pipe", "pipe", "pipe"],
    });
    let out = "";
    child.stdout.on("data", (c: Buffer) => (out += c.toString("utf8")));
    const exited = new Promise<number | null>((resolve) => child.on("exit", (code) => resolve(code)));
    const send = (msg: unknown) => child.stdin.write(`${JSON.stringify(msg)}\n`);
    const reply = async (idNum: number) => {
      for (;;) {
        const line = out.split("\n").find((l) => l.includes(`"id":${idNum}`));
        if (line) return JSON.parse(line);
        await new Promise((r) => setTimeout(r, 20));
      }
    };
    send({ jsonrpc: "2.0", id: 1, method: "initialize", params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "t", version: "1" } } });
    await reply(1);
    send({ jsonrpc: "2.0", method: "notifications/initialized" });
    send({ jsonrpc: "2.0", id: 2, method: "tools/call", params: { name: "list_capsules", arguments: {} } });
    const listed = await reply(2);
    expect(JSON.stringify(listed)).toMatch(/FIFO/);
    send({ jsonrpc: "2.0", id: 3, method: "tools/list" });
    expect((await reply(3)).result.tools.length).toBeGreaterThan(0);
    child.stdin.end();
    expect(await exited).toBe(0);
  });
});

describeShared("keys match the store", () => {
  test("a foreign store key copied in cannot seal: the message names both key ids; the store's own key works again", async () => {
    const { home } = await storeWith("foreign", [exampleCapsule("01")]);
    const other = await storeWith("foreign-other", [exampleCapsule("32")]);
    const own = join(home, "keys", "store.key");
    copyFileSync(own, `${own}.bak`);
    copyFileSync(join(other.home, "keys", "store.key"), own);
    chmodSync(own, 0o600);
    const store = await openStore({ home, passphrase: undefined });
    const c = exampleCapsule("32");
    expect(() => store.putCapsule(storable(c.bytes, c.id))).toThrow(/^this store is sealed with key store-key:[0-9a-f]{16}; the loaded key is store-key:[0-9a-f]{16}: /);
    expect(readdirSync(join(home, "store", "capsules")).filter((n) => n.startsWith(c.id))).toEqual([]);
    renameSync(`${own}.bak`, own);
    const r = await runCli(["--home", home, "capsule", "list"]);
    expect(r.code).toBe(0);
  });

  test("the same holds for a store from before the key-id file: the ids in the sealed headers decide", async () => {
    const { home } = await storeWith("foreign-old", [exampleCapsule("01")]);
    rmSync(join(home, "store", "store-key-id"));
    const other = await storeWith("foreign-old-other", [exampleCapsule("32")]);
    copyFileSync(join(other.home, "keys", "store.key"), join(home, "keys", "store.key"));
    const store = await openStore({ home, passphrase: undefined });
    const c = exampleCapsule("32");
    expect(() => store.putCapsule(storable(c.bytes, c.id))).toThrow(/this store is sealed with key store-key:/);
  });

  test("keys init refuses to create keys next to sealed capsules that no present key opens", async () => {
    const { home } = await storeWith("lost-keys", [exampleCapsule("01")]);
    rmSync(join(home, "keys"), { recursive: true });
    const r = await runCli(["--home", home, "keys", "init"]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/holds sealed files \(sealed with store key store-key:[0-9a-f]{16}\) that no present key opens: restore the keys directory/);
    expect(readdirSync(home).includes("keys") ? readdirSync(join(home, "keys")) : []).toEqual([]);
  });
});

describe("every file input is bounded before it is read", () => {
  test("review verify-export /dev/zero ends with a clear error", { timeout: 10_000 }, async () => {
    const r = await runCli(["review", "verify-export", "/dev/zero"]);
    expect(r.code).toBe(2);
    expect(r.stderr).toBe("evidence-bridge: review verify-export: cannot read /dev/zero: /dev/zero is a device; only regular files are read\n");
  });

  test("a file larger than the bound is refused from its size, before reading", { timeout: 10_000 }, async () => {
    const dir = tempHome("big");
    const big = join(dir, "big.jsonl");
    closeSync(openSync(big, "w"));
    truncateSync(big, 300 * 1024 * 1024); // sparse: no bytes are written or read
    const r = await runCli(["review", "verify-export", big]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/is larger than 268435456 bytes/);
    const fifoPath = join(dir, "pipe");
    fifo(fifoPath);
    const p = await runCli(["review", "verify-export", fifoPath]);
    expect(p.stderr).toMatch(/is a FIFO/);
    const m = await runCli(["capsule", "import", fifoPath]);
    expect(m.code).toBe(2);
    expect(m.stderr).toMatch(/is a FIFO/);
  });
});

describeShared("doctor, receipts and the outbox", () => {
  test("doctor fails on a directory or file open to others and names it", async () => {
    const { home } = await storeWith("modes", [exampleCapsule("01")]);
    const ok = await runCli(["--home", home, "doctor"]);
    expect(ok.stdout).toMatch(/\[ok\] data directory modes/);
    chmodSync(join(home, "store", "capsules"), 0o777);
    const sealed = readdirSync(join(home, "store", "capsules")).find((n) => n.endsWith(".sealed"))!;
    chmodSync(join(home, "store", "capsules", sealed), 0o644);
    const r = await runCli(["--home", home, "doctor"]);
    expect(r.code).toBe(1);
    expect(r.stdout).toMatch(/\[fail\] data directory modes/);
    expect(r.stdout).toContain("store/capsules/: mode 0777 (expected 0700");
    expect(r.stdout).toContain(`store/capsules/${sealed}: mode 0644 (expected 0600`);
  });

  test("swapped receipts are named by capsule list and doctor, also after a listing remembered them as valid", async () => {
    const { home } = await storeWith("receipts", [exampleCapsule("01"), exampleCapsule("32")]);
    const dir = join(home, "store", "capsules");
    const [a, b] = [exampleCapsule("01").id, exampleCapsule("32").id];
    // A clean listing verifies both receipts once and the sealed row index remembers their digests.
    expect((await runCli(["--home", home, "capsule", "list"])).code).toBe(0);
    const store = await openStore({ home, passphrase: undefined });
    const remembered = readRowIndex(store.layout.root, store.layout.indexName, store.keys.store)!;
    expect([...remembered.values()].every((e) => e.receipt !== null)).toBe(true);
    expect(store.receiptProblems()).toEqual([]);
    renameSync(join(dir, `${a}.receipt`), join(dir, "swap"));
    renameSync(join(dir, `${b}.receipt`), join(dir, `${a}.receipt`));
    renameSync(join(dir, "swap"), join(dir, `${b}.receipt`));
    const list = await runCli(["--home", home, "capsule", "list"]);
    expect(list.code).toBe(1);
    expect(list.stderr).toContain(`capsule list: capsule ${a}: receipt invalid: receipt names a different content_sha256`);
    const d = await runCli(["--home", home, "doctor"]);
    expect(d.code).toBe(1);
    expect(d.stdout).toMatch(/\[fail\] store receipts/);
    expect(d.stdout).toContain(`capsule ${b}: receipt invalid: receipt names a different content_sha256`);
    // Swapped back, they verify again; then one signature digit changed is found although the index knew the file.
    renameSync(join(dir, `${a}.receipt`), join(dir, "swap"));
    renameSync(join(dir, `${b}.receipt`), join(dir, `${a}.receipt`));
    renameSync(join(dir, "swap"), join(dir, `${b}.receipt`));
    expect(store.receiptProblems()).toEqual([]);
    const receipt = readFileSync(join(dir, `${a}.receipt`), "utf8");
    const sig = /"signature":"([0-9a-f])/.exec(receipt)!;
    writeFileSync(join(dir, `${a}.receipt`), receipt.replace(sig[0], `"signature":"${sig[1] === "0" ? "1" : "0"}`));
    expect(store.receiptProblems()).toEqual([`capsule ${a}: receipt invalid: receipt signature does not verify`]);
  });

  test("capsule build --outbox inside the data directory is refused before anything is written", async () => {
    const home = tempHome("outbox");
    const assessment = readFileSync(sharedPath("data/bridge-examples/valid/01-mule-account-rental-hinglish.json"));
    const r = await runCli(["--home", home, "--pack", PACK_FILE, "capsule", "build", "--outbox", join(home, "out")], { stdin: assessment });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/--outbox .* is inside the data directory .*; plaintext copies must live elsewhere/);
    expect(r.stdout).toBe("");
    const outside = tempHome("outbox-elsewhere");
    writeFileSync(join(outside, ".keep"), "");
    expect((await runCli(["--home", home, "--pack", PACK_FILE, "capsule", "build", "--outbox", join(outside, "out")], { stdin: assessment })).code).toBe(0);
  });
});
