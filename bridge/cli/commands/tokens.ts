/**
 * Match tokens (issue 16 item 5): `keys init --group NAME` (via keys.ts), `keys add-group NAME FILE`,
 * `tokens export --group NAME --out FILE`, `tokens match --group NAME FILE [--json]`. The library part is
 * capsules/tokens/. Output names key ids, capsule ids, kinds and counts; never an IOC value or key material.
 */
import { resolve } from "node:path";
import { ExportWriteError, writeExportFile } from "../../../capsules/exports/write-output.js";
import { StoreError } from "../../../capsules/store/errors.js";
import { openStore, type SealedStore } from "../../../capsules/store/store.js";
import {
  addGroupKey,
  createGroupKey,
  exportStoreTokens,
  GroupKeyError,
  loadGroupKey,
  matchStoreTokens,
  parseTokenBytes,
  readTokenFile,
  TOKEN_FILE_MAX_BYTES,
  TokenFileError,
} from "../../../capsules/tokens/index.js";
import { KeyError } from "../../../src/crypto/errors.js";
import { parseFlags } from "../args.js";
import { configFrom } from "../config.js";
import { CliError, type CliCommand, type CliContext } from "../context.js";
import { readStdinInput, STDIN_NAME } from "../named-input.js";

async function guarded<T>(command: string, body: () => Promise<T>): Promise<T> {
  try {
    return await body();
  } catch (e) {
    if (e instanceof CliError) throw e;
    if (e instanceof GroupKeyError || e instanceof TokenFileError || e instanceof KeyError || e instanceof StoreError || e instanceof ExportWriteError) {
      throw new CliError(`${command}: ${e.message}`);
    }
    if (e instanceof Error && /^(SealError|SafeWriteError|DataDirError)$/.test(e.name)) throw new CliError(`${command}: ${e.message}`);
    throw e;
  }
}

async function openExisting(ctx: CliContext): Promise<SealedStore | undefined> {
  const config = configFrom(ctx);
  try {
    return await openStore({ home: config.home, passphrase: config.passphrase });
  } catch (e) {
    if (e instanceof StoreError && e.code === "no-store") return undefined;
    throw e;
  }
}

function groupFlag(flags: Record<string, unknown>, command: string): string {
  if (typeof flags.group !== "string" || flags.group === "") throw new CliError(`${command}: --group NAME is required`);
  return flags.group;
}

/** `keys init --group NAME` (called from keys.ts). */
export async function initGroup(name: string, ctx: CliContext): Promise<number> {
  return guarded("keys init", async () => {
    const g = createGroupKey(configFrom(ctx).home, name);
    ctx.io.stdout.write(
      `created group key ${g.name}\ngroup key: ${g.keyId} (${g.path})\n` +
        `give this file to the group's members over a channel you trust; they install it with 'evidence-bridge keys add-group ${g.name} FILE'\n`,
    );
    return 0;
  });
}

export const addGroup: CliCommand = { summary: "install a group key received from a peer",
  help: `usage: evidence-bridge [--home DIR] keys add-group NAME FILE

Installs a group key received from a peer (a 'group-key' key file, mode 0600) as keys/groups/NAME.key (mode 0600)
and prints its key id. Installing the same key again is accepted; a different key under an existing name is
refused. Compare the key id with the peer's out of band.`,
  async run(args, ctx) {
    const { positionals } = parseFlags(args, {});
    if (positionals.length !== 2) throw new CliError("keys add-group: expected NAME and FILE");
    return guarded("keys add-group", async () => {
      const g = addGroupKey(configFrom(ctx).home, positionals[0], resolve(positionals[1]));
      ctx.io.stdout.write(`installed group key ${g.name}\ngroup key: ${g.keyId} (${g.path})\n`);
      return 0;
    });
  },
};

export const exportTokens: CliCommand = {
  help: `usage: evidence-bridge [--home DIR] tokens export --group NAME --out FILE

Writes keyed match tokens of every IOC value in the store: HMAC-SHA-256 under the group key NAME of each value
after the per-kind canonicalisation of docs/sharing.md, sorted and without duplicates, grouped by kind, in a JSON
file laid out after the Private Search Set meta format (key id, algorithm, canonicalisation, kinds). No capsule
id, no value; the file passes the outward guard. FILE is created with mode 0600 and never overwritten.
Only members holding the group key can test values against it.`,
  async run(args, ctx) {
    const { flags, positionals } = parseFlags(args, { group: { type: "string" }, out: { type: "string" } });
    if (positionals.length > 0) throw new CliError(`tokens export: unexpected argument ${JSON.stringify(positionals[0])}`);
    const name = groupFlag(flags, "tokens export");
    if (typeof flags.out !== "string" || flags.out === "") throw new CliError("tokens export: --out FILE is required");
    const out = resolve(flags.out);
    return guarded("tokens export", async () => {
      const key = loadGroupKey(configFrom(ctx).home, name);
      const result = exportStoreTokens(await openExisting(ctx), key);
      writeExportFile(out, result.bytes);
      const counts = Object.entries(result.counts).map(([k, n]) => `${k}=${n}`).join(", ") || "none";
      ctx.io.stdout.write(`wrote match tokens of ${result.capsules} capsule${result.capsules === 1 ? "" : "s"} under ${key.keyId} (group ${key.name}) to ${out}\ntokens by kind: ${counts}\n`);
      return 0;
    });
  },
};

export const matchTokens: CliCommand = { summary: "compare a member's token file with this store's tokens",
  help: `usage: evidence-bridge [--home DIR] tokens match --group NAME FILE [--json]

Compares a token file received from a group member with the tokens of this store under the group key NAME and
prints the ids of the local capsules that share at least one token, one per line (nothing when none do). With
--json: {"group","key_id","matches":[{"capsule_sha256","kinds"}]}. A file made under another key is refused.
Never prints a value. FILE '-' reads the token file from stdin; a link, FIFO, device or directory is refused at
once, naming what it is.`,
  async run(args, ctx) {
    const { flags, positionals } = parseFlags(args, { group: { type: "string" }, json: { type: "boolean" } });
    const name = groupFlag(flags, "tokens match");
    if (positionals.length !== 1) throw new CliError("tokens match: expected exactly one FILE");
    return guarded("tokens match", async () => {
      const key = loadGroupKey(configFrom(ctx).home, name);
      const file = positionals[0];
      const received = file === STDIN_NAME ? parseTokenBytes(file, await readStdinInput(ctx, { maxBytes: TOKEN_FILE_MAX_BYTES })) : readTokenFile(file);
      const matches = matchStoreTokens(await openExisting(ctx), key, received);
      if (flags.json) {
        ctx.io.stdout.write(`${JSON.stringify({ group: key.name, key_id: key.keyId, matches }, null, 2)}\n`);
      } else if (matches.length > 0) {
        ctx.io.stdout.write(matches.map((m) => `${m.capsule_sha256}\n`).join(""));
      }
      return 0;
    });
  },
};
