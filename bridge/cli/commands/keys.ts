/**
 * `keys init` and `keys show` (product.md §5): create the installation's store and signing keys, or print their
 * fingerprints and paths. Nothing secret is ever printed.
 *
 * `keys init --reviewer NAME` creates a reviewer key instead (a separate key type of the review log; the logic
 * lives in capsules/review/reviewer-key.ts).
 */
import { describeInstallationKeys, describeKeys, loadKeys, loadOrCreateKeys, type InstallationKeys, type KeyDescription } from "../../../src/crypto/keys.js";
import { join } from "node:path";
import { parseFlags, type FlagSpec } from "../args.js";
import { configFrom } from "../config.js";
import { CliError, type CliCommand, type CliContext } from "../context.js";

const INIT_FLAGS: FlagSpec = { reviewer: { type: "string" }, group: { type: "string" } };
const TRUST_FLAGS: FlagSpec = { name: { type: "string" } };

function reviewerRegistryFile(home: string): string {
  return join(home, "keys", "reviewers.json");
}

/**
 * The installation keys that sign the reviewer registry: loaded (in either mode), or created on first use when
 * `create` and the store holds no sealed files (new keys could not open them).
 */
async function installationKeys(home: string, passphrase: string | undefined, create: boolean): Promise<InstallationKeys> {
  if (!create) return loadKeys(home, passphrase);
  const { storeHoldsSealedFiles } = await import("../../../capsules/store/store.js");
  return (await loadOrCreateKeys(home, passphrase, { allowCreate: !storeHoldsSealedFiles(home) })).keys;
}
const SHOW_FLAGS: FlagSpec = { json: { type: "boolean" } };

function describeLines(d: KeyDescription): string[] {
  const mode =
    d.mode === "key-file"
      ? "key files"
      : `passphrase (scrypt n=${d.kdf?.n} r=${d.kdf?.r} p=${d.kdf?.p}; ${d.passphraseChecked ? "EVIDENCE_BRIDGE_PASSPHRASE unlocks it" : "set EVIDENCE_BRIDGE_PASSPHRASE to check it"})`;
  return [
    `mode: ${mode}`,
    `keys directory: ${d.keysDir}`,
    `store key: ${d.storeKey.fingerprint} (${d.storeKey.path})`,
    `signing key: ${d.signingKey.fingerprint} (${d.signingKey.path})`,
  ];
}

function describeJson(home: string, d: KeyDescription): string {
  return `${JSON.stringify(
    {
      home,
      mode: d.mode,
      keys_dir: d.keysDir,
      store_key: d.storeKey,
      signing_key: d.signingKey,
      kdf: d.kdf === undefined ? null : { algorithm: d.kdf.algorithm, n: d.kdf.n, r: d.kdf.r, p: d.kdf.p },
      passphrase_checked: d.passphraseChecked,
    },
    null,
    2,
  )}\n`;
}

export const init: CliCommand = {
  summary: "create the store and signing keys, or a reviewer or group key",
  help: `usage: evidence-bridge keys init [--reviewer NAME | --group NAME]

Creates, under the data directory (mode 0700), a random 32-byte store key and an Ed25519 signing key in files
with mode 0600 (keys/store.key, keys/signing.key). With EVIDENCE_BRIDGE_PASSPHRASE set, creates a passphrase
store instead: the store key is derived with scrypt and keys/passphrase.json holds the parameters, the salt and
the signing key sealed under the derived key. Refuses to replace existing keys. 'capsule build' creates keys on
first use, so this step is optional.

With --reviewer NAME, creates only a reviewer's Ed25519 key, keys/reviewers/NAME.key (mode 0600; NAME: 1 to 64 of
A-Z a-z 0-9 . _ -), used by 'review approve|reject|defer' to sign decisions, and prints its fingerprint.

With --group NAME, creates only a random 32-byte group key for match tokens, keys/groups/NAME.key (mode 0600),
to be shared out of band with the group's members ('keys add-group' installs it; 'tokens export|match' use it).`,
  async run(args: string[], ctx: CliContext): Promise<number> {
    const { flags, positionals } = parseFlags(args, INIT_FLAGS);
    if (positionals.length > 0) throw new CliError(`keys init: unexpected argument ${JSON.stringify(positionals[0])}`);
    if (flags.group !== undefined) {
      if (flags.reviewer !== undefined) throw new CliError("keys init: --group and --reviewer exclude each other");
      return (await import("./tokens.js")).initGroup(flags.group as string, ctx);
    }
    const config = configFrom(ctx);
    if (flags.reviewer !== undefined) {
      const { createReviewerKey } = await import("../../../capsules/review/reviewer-key.js");
      const installation = await installationKeys(config.home, config.passphrase, true);
      const r = createReviewerKey(config.home, flags.reviewer as string, { installation });
      ctx.io.stdout.write(`created reviewer key for ${r.name}\nreviewer key: ${r.key.fingerprint} (${r.path})\nregistered in ${reviewerRegistryFile(config.home)}\n`);
      return 0;
    }
    const { initStoreKeys } = await import("../../../capsules/store/store.js");
    const d = describeInstallationKeys(await initStoreKeys({ home: config.home, passphrase: config.passphrase }));
    ctx.io.stdout.write([`created keys in ${d.keysDir}`, ...describeLines(d)].join("\n") + "\n");
    return 0;
  },
};

export const show: CliCommand = {
  summary: "key mode, paths and fingerprints (never key material)",
  help: `usage: evidence-bridge keys show [--json]

Prints the key mode, the key paths and fingerprints (store-key:<key id>, ed25519:<SHA-256 of the public key>) and
the registered reviewer keys (name, fingerprint, created here or trusted); never key material. In passphrase mode, a set EVIDENCE_BRIDGE_PASSPHRASE is checked.`,
  async run(args: string[], ctx: CliContext): Promise<number> {
    const { flags, positionals } = parseFlags(args, SHOW_FLAGS);
    if (positionals.length > 0) throw new CliError(`keys show: unexpected argument ${JSON.stringify(positionals[0])}`);
    const config = configFrom(ctx);
    const d = await describeKeys(config.home, config.passphrase);
    if (d === undefined) throw new CliError(`no keys in ${config.home}: run 'evidence-bridge keys init' (or build a capsule, which creates them)`);
    const reviewers = await registeredReviewers(config.home);
    if (flags.json) {
      const o = JSON.parse(describeJson(config.home, d)) as Record<string, unknown>;
      ctx.io.stdout.write(`${JSON.stringify({ ...o, reviewers }, null, 2)}\n`);
    } else {
      const lines = describeLines(d);
      if (typeof reviewers === "string") lines.push(`reviewer registry: ${reviewers}`);
      else for (const r of reviewers) lines.push(`reviewer ${r.name}: ${r.fingerprint} (${r.origin})`);
      ctx.io.stdout.write(lines.join("\n") + "\n");
    }
    return 0;
  },
};

/** The registered reviewers (fingerprints and names only), or why the registry does not verify. */
async function registeredReviewers(home: string): Promise<{ name: string; fingerprint: string; origin: string }[] | string> {
  const { loadReviewerRegistry } = await import("../../../capsules/review/reviewer-registry.js");
  try {
    return loadReviewerRegistry(home).reviewers.map((r) => ({ name: r.name, fingerprint: r.fingerprint, origin: r.origin }));
  } catch (e) {
    return `DOES NOT VERIFY (${(e as Error).message})`;
  }
}

export const trust: CliCommand = { summary: "register another reviewer's Ed25519 key under NAME",
  help: `usage: evidence-bridge keys trust FINGERPRINT --name NAME

Registers another reviewer's Ed25519 key (FINGERPRINT: ed25519:<64 hex>, as 'keys init --reviewer' printed it on
that reviewer's machine; compare it out of band) as a known reviewer of this store, under NAME (1 to 64 of A-Z a-z
0-9 . _ -). The registry, keys/reviewers.json, is signed with this installation's signing key (in passphrase
mode EVIDENCE_BRIDGE_PASSPHRASE must be set). Every command that reads the review log refuses records signed by
keys that are not registered.`,
  async run(args: string[], ctx: CliContext): Promise<number> {
    const { flags, positionals } = parseFlags(args, TRUST_FLAGS);
    if (positionals.length !== 1) throw new CliError("keys trust: expected exactly one FINGERPRINT (ed25519: and 64 lowercase hexadecimal digits)");
    if (typeof flags.name !== "string") throw new CliError("keys trust: --name NAME is required");
    const fingerprint = positionals[0];
    if (!/^ed25519:[0-9a-f]{64}$/.test(fingerprint)) throw new CliError("keys trust: FINGERPRINT must be ed25519: and 64 lowercase hexadecimal digits");
    const config = configFrom(ctx);
    const { registerReviewer } = await import("../../../capsules/review/reviewer-registry.js");
    const keys = await installationKeys(config.home, config.passphrase, false);
    const r = registerReviewer(config.home, keys, { fingerprint, name: flags.name, origin: "trusted" });
    ctx.io.stdout.write(`trusted reviewer ${r.name}: ${r.fingerprint}\nregistered in ${reviewerRegistryFile(config.home)}\n`);
    return 0;
  },
};
