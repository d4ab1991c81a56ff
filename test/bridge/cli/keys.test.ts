/** `evidence-bridge keys init` and `keys show` end to end through main() with fake streams. */
import { chmodSync, readFileSync, rmSync, statSync, writeFileSync, mkdirSync } from "node:fs";
import { randomBytes } from "node:crypto";
import { join } from "node:path";
import { afterAll, describe, expect, test } from "vitest";
import { runCli } from "../../helpers/cli.js";
import { main, oneLine } from "../../../bridge/cli/main.js";
import { createKeys, keyLayout } from "../../../src/crypto/keys.js";

const homes: string[] = [];
afterAll(() => {
  for (const h of homes) rmSync(h, { recursive: true, force: true });
});
function home(): string {
  const h = join(process.env.TMPDIR ?? "/tmp", `eb-cli-keys-${process.pid}-${randomBytes(4).toString("hex")}`);
  homes.push(h);
  return h;
}

const run = (args: string[], env: NodeJS.ProcessEnv = {}) => runCli(args, { env });

describe("keys init", () => {
  test("creates both key files (0600) in a 0700 data directory and prints fingerprints, never key material", async () => {
    const h = home();
    const r = await run(["--home", h, "keys", "init"]);
    expect(r.code).toBe(0);
    expect(r.stderr).toBe("");
    const l = keyLayout(h);
    expect(statSync(h).mode & 0o777).toBe(0o700);
    expect(statSync(l.storeKey).mode & 0o777).toBe(0o600);
    expect(statSync(l.signingKey).mode & 0o777).toBe(0o600);
    const storeHex = readFileSync(l.storeKey, "utf8").split("\n")[1];
    const seedHex = readFileSync(l.signingKey, "utf8").split("\n")[1];
    expect(r.stdout).not.toContain(storeHex);
    expect(r.stdout).not.toContain(seedHex);
    expect(r.stdout).toMatch(new RegExp(`^created keys in ${l.dir}\nmode: key files\n`));
    expect(r.stdout).toMatch(/store key: store-key:[0-9a-f]{16} \(/);
    expect(r.stdout).toMatch(/signing key: ed25519:[0-9a-f]{64} \(/);
  });

  test("refuses to replace existing keys (exit 2, one line, files unchanged)", async () => {
    const h = home();
    await run(["--home", h, "keys", "init"]);
    const before = readFileSync(keyLayout(h).storeKey);
    const r = await run(["--home", h, "keys", "init"]);
    expect(r.code).toBe(2);
    expect(r.stdout).toBe("");
    expect(r.stderr).toBe(
      `evidence-bridge: keys already exist in ${keyLayout(h).dir} (key-file mode); refusing to replace them ('evidence-bridge keys show' prints their fingerprints)\n`,
    );
    expect(readFileSync(keyLayout(h).storeKey).equals(before)).toBe(true);
  });

  test("with EVIDENCE_BRIDGE_PASSPHRASE: a passphrase store with the default scrypt parameters", async () => {
    const h = home();
    const r = await run(["--home", h, "keys", "init"], { EVIDENCE_BRIDGE_PASSPHRASE: "init passphrase" });
    expect(r.code).toBe(0);
    expect(r.stdout).toContain("mode: passphrase (scrypt n=65536 r=8 p=2; EVIDENCE_BRIDGE_PASSPHRASE unlocks it)");
    expect(r.stdout).not.toContain("init passphrase");
    const doc = JSON.parse(readFileSync(keyLayout(h).passphraseFile, "utf8"));
    expect(doc.kdf).toMatchObject({ n: 65536, r: 8, p: 2 });
  });

  test("bad data directory and unexpected arguments", async () => {
    const base = home();
    mkdirSync(base);
    writeFileSync(join(base, "file"), "");
    let r = await run(["--home", join(base, "file"), "keys", "init"]);
    expect(r.code).toBe(2);
    expect(r.stderr).toBe(`evidence-bridge: data directory ${join(base, "file")} is not a directory (choose another with --home or EVIDENCE_BRIDGE_HOME)\n`);
    r = await run(["--home", base, "keys", "init", "extra"]);
    expect(r.stderr).toBe('evidence-bridge: keys init: unexpected argument "extra"\n');
    r = await run(["--home", base, "keys", "init", "--force"]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/^evidence-bridge: Unknown option '--force'/);
  });
});

describe("keys show", () => {
  test("key-file mode: mode, paths and fingerprints; --json", async () => {
    const h = home();
    const keys = await createKeys(h, undefined);
    const r = await run(["--home", h, "keys", "show"]);
    expect(r.code).toBe(0);
    expect(r.stdout).toBe(
      [
        "mode: key files",
        `keys directory: ${keyLayout(h).dir}`,
        `store key: store-key:${keys.store.idHex} (${keyLayout(h).storeKey})`,
        `signing key: ${keys.signing.fingerprint} (${keyLayout(h).signingKey})`,
        "",
      ].join("\n"),
    );
    const j = await run(["--home", h, "keys", "show", "--json"]);
    expect(JSON.parse(j.stdout)).toEqual({
      home: h,
      mode: "key-file",
      keys_dir: keyLayout(h).dir,
      store_key: { path: keyLayout(h).storeKey, fingerprint: `store-key:${keys.store.idHex}` },
      signing_key: { path: keyLayout(h).signingKey, fingerprint: keys.signing.fingerprint },
      kdf: null,
      passphrase_checked: false,
      reviewers: [],
    });
  });

  test("refuses a world-readable key file with the fix; a passphrase for a key-file store; no keys", async () => {
    const h = home();
    await createKeys(h, undefined);
    chmodSync(keyLayout(h).signingKey, 0o644);
    let r = await run(["--home", h, "keys", "show"]);
    expect(r.code).toBe(2);
    expect(r.stdout).toBe("");
    expect(r.stderr).toBe(
      `evidence-bridge: key file ${keyLayout(h).signingKey} is accessible by group or others (mode 0644); fix it with: chmod 600 ${keyLayout(h).signingKey}\n`,
    );
    chmodSync(keyLayout(h).signingKey, 0o600);
    r = await run(["--home", h, "keys", "show"], { EVIDENCE_BRIDGE_PASSPHRASE: "x" });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain("but EVIDENCE_BRIDGE_PASSPHRASE is set: unset it to open this store");
    r = await run(["--home", home(), "keys", "show"]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/^evidence-bridge: no keys in .*: run 'evidence-bridge keys init'/);
  });

  test("passphrase mode: public parts without the passphrase; checked with it; a wrong one is named", async () => {
    const h = home();
    const keys = await createKeys(h, "pw", { kdfCost: { n: 1024, r: 8, p: 1 } });
    let r = await run(["--home", h, "keys", "show"]);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain("mode: passphrase (scrypt n=1024 r=8 p=1; set EVIDENCE_BRIDGE_PASSPHRASE to check it)");
    expect(r.stdout).toContain(keys.signing.fingerprint);
    r = await run(["--home", h, "keys", "show"], { EVIDENCE_BRIDGE_PASSPHRASE: "pw" });
    expect(r.stdout).toContain("EVIDENCE_BRIDGE_PASSPHRASE unlocks it");
    r = await run(["--home", h, "keys", "show"], { EVIDENCE_BRIDGE_PASSPHRASE: "wrong" });
    expect(r.code).toBe(2);
    expect(r.stderr).toBe(`evidence-bridge: wrong passphrase: EVIDENCE_BRIDGE_PASSPHRASE does not unlock the store keys in ${keyLayout(h).passphraseFile}\n`);
  });
});
