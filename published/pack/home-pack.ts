/**
 * The data directory remembers its intelligence pack (product.md §4): the first pack a command uses is copied into
 * `<home>/intelligence-pack-v1.json` next to `<home>/intelligence-pack-v1.json.sha256` (its digest, recorded at
 * install). Later commands and the MCP server use that copy with no configuration. A different pack named by
 * `EVIDENCE_BRIDGE_PACK` is refused with both digests; `--pack FILE` on the command line uses another pack for that
 * one run (the data directory keeps its own); `pack install FILE --replace` (or `pack fetch --replace`) replaces it.
 *
 * Only loading happens here (no network): a pack is installed only after it loaded and validated, so what lands in
 * the data directory always passed `pack verify`. The copy is written atomically with mode 0600.
 */
import { join } from "node:path";
import { inspectDataDir, prepareDataDir } from "../../src/crypto/data-dir.js";
import { readRegularFileIfExists, SafeReadError } from "../../src/crypto/safe-read.js";
import { discardStaged, renameInto, stageUnsynced, type StagedFile } from "../../src/crypto/safe-write.js";
import { runDurable, runDurableSync, type DurableSteps } from "../../src/crypto/sync-set.js";
import { PackError } from "./errors.js";
import { PACK_FILE_NAME, presentAt, readPackBytes } from "./file.js";
import { loadPack, packDigest } from "./load.js";
import type { IntelligencePack } from "./types.js";
import { PACK_FETCH_COMMAND, PINNED_PACK } from "./pinned.js";

export const PACK_DIGEST_FILE_NAME = `${PACK_FILE_NAME}.sha256`;

/** Who reads the error: the CLI can name flags and commands; the MCP server names only its configuration. */
export type PackAudience = "cli" | "mcp";

export interface PackConfig {
  home: string;
  packFile: string | undefined;
  /** Where packFile came from: the `--pack` flag (a one-run override) or EVIDENCE_BRIDGE_PACK (standing config). */
  packFromFlag?: boolean;
}

export interface ResolvedPack {
  /** The file the pack was read from. */
  file: string;
  pack: IntelligencePack;
  /** The file's bytes as read and loaded (so installing this pack later does not parse it again). */
  bytes?: Uint8Array;
  /** Set when this call installed the pack into the data directory (callers say so on stderr: never silently). */
  installed?: string;
  /** Set when `--pack` chose a pack other than the data directory's (callers say so on stderr). */
  overrides?: string;
}

/** The data directory's pack file and its recorded digest, or undefined when none is installed. */
/** A pack's raw file bytes and the pack loaded from exactly those bytes. */
export interface LoadedPackBytes {
  bytes: Uint8Array;
  pack: IntelligencePack;
}

export function homePackFiles(home: string): { file: string; digestFile: string } {
  return { file: join(home, PACK_FILE_NAME), digestFile: join(home, PACK_DIGEST_FILE_NAME) };
}

/** Largest digest record read: 64 hex digits and a newline, with room for stray whitespace. */
const DIGEST_FILE_MAX_BYTES = 1024;

function recordedDigest(digestFile: string): string | undefined {
  let bytes;
  try {
    bytes = readRegularFileIfExists(digestFile, { maxBytes: DIGEST_FILE_MAX_BYTES, label: digestFile });
  } catch (e) {
    if (e instanceof SafeReadError) throw new PackError("pack", "digest", `cannot read the recorded pack digest: ${e.message}`);
    throw e;
  }
  if (bytes === undefined) return undefined;
  const text = Buffer.from(bytes).toString("utf8").trim();
  if (!/^[0-9a-f]{64}$/.test(text)) throw new PackError("pack", "digest", `${digestFile}: expected 64 lowercase hex digits`);
  return text;
}

/**
 * No pack at all: the refusal names the one command that fixes it (`pack fetch` installs the release's pinned pack
 * into this data directory). The MCP server fetches it by itself first, unless offline (bridge/mcp/private-state.ts).
 */
export function notConfigured(home: string, audience: PackAudience, why?: string): PackError {
  const where = audience === "mcp" ? "; or set the bundle's \"Intelligence pack file\" (EVIDENCE_BRIDGE_PACK)" : "";
  return new PackError(
    "pack",
    "not-configured",
    `no intelligence pack in the data directory ${home}${why === undefined ? "" : ` (${why})`}: run '${PACK_FETCH_COMMAND}' to install the pinned published pack ${PINNED_PACK.version}${where}`,
  );
}

/** Loads the data directory's own pack, checking it still has the digest recorded at install. */
export function loadHomePack(home: string, audience: PackAudience = "cli"): ResolvedPack | undefined {
  const { file, digestFile } = homePackFiles(home);
  if (!presentAt(file)) return undefined;
  const bytes = readPackBytes(file);
  const pack = loadPack(bytes);
  const recorded = recordedDigest(digestFile);
  if (recorded !== undefined && recorded !== pack.sha256) {
    const fix =
      audience === "mcp"
        ? `remove it and set EVIDENCE_BRIDGE_PACK in the server's environment (the bundle's "Intelligence pack file" setting) to the pack to install`
        : "reinstall it with 'pack install FILE --replace'";
    throw new PackError("pack", "digest", `${file} changed since it was installed (recorded sha256 ${recorded}, file sha256 ${pack.sha256}): ${fix}`);
  }
  return { file, pack };
}

/**
 * Copies a validated pack into the data directory (created 0700 when absent). Refuses to replace a different pack
 * unless `replace` is set. Returns "installed", or "unchanged" when the same pack is already there.
 */
export function installPack(home: string, bytes: Uint8Array, opts: { replace?: boolean } = {}): { pack: IntelligencePack; outcome: "installed" | "unchanged" } {
  return installLoadedPack(home, { bytes, pack: loadPack(bytes) }, opts);
}

/** {@link installPack} for a pack the caller loaded from exactly `bytes` (its one parse of them). */
export function installLoadedPack(home: string, loaded: LoadedPackBytes, opts: { replace?: boolean } = {}): { pack: IntelligencePack; outcome: "installed" | "unchanged" } {
  return runDurableSync(installSteps(home, loaded, opts));
}

type InstallOutcome = { pack: IntelligencePack; outcome: "installed" | "unchanged" };

/**
 * The durable steps of an install (src/crypto/sync-set.ts): the pack file and its digest record are staged, their data
 * synced together, then renamed into place, the pack first, and the data directory synced once. A crash leaves the
 * old state, the new pack without its record (accepted: the record is checked only when present), or both; a record
 * without its pack is ignored (no pack is installed then) and rewritten by the next install.
 */
function* installSteps(home: string, loaded: LoadedPackBytes, opts: { replace?: boolean }): DurableSteps<InstallOutcome> {
  const { bytes, pack } = loaded;
  const current = installedDigest(home);
  if (current !== undefined && current !== pack.sha256 && opts.replace !== true) {
    throw new PackError(
      "pack",
      "different-pack",
      `the data directory ${home} already uses the pack with sha256 ${current}; this pack has sha256 ${pack.sha256} (add --replace to replace it)`,
    );
  }
  const unchanged = current !== undefined && current === pack.sha256;
  if (!unchanged) prepareDataDir(home);
  const { file, digestFile } = homePackFiles(home);
  const staged: StagedFile[] = [];
  try {
    const packTemp = unchanged ? undefined : stageUnsynced(home, bytes);
    if (packTemp) staged.push(packTemp);
    const digestTemp = recordedDigest(digestFile) === pack.sha256 ? undefined : stageUnsynced(home, new TextEncoder().encode(`${pack.sha256}\n`));
    if (digestTemp) staged.push(digestTemp);
    if (staged.length > 0) {
      yield { files: staged };
      if (packTemp) renameInto(packTemp.path, file);
      if (digestTemp) renameInto(digestTemp.path, digestFile);
      yield { dirs: [home] };
    }
  } finally {
    for (const t of staged) discardStaged(t);
  }
  return { pack, outcome: unchanged ? "unchanged" : "installed" };
}

/**
 * The §3.2 P5 digest of the installed pack file as it is now (undefined when none is installed): a hash of the raw
 * bytes, which is all a comparison of packs needs (the pack itself is not parsed: a command parses its pack once).
 */
function installedDigest(home: string): string | undefined {
  const { file } = homePackFiles(home);
  return presentAt(file) ? packDigest(readPackBytes(file)) : undefined;
}


/**
 * The pack a command or the MCP server uses:
 * - no pack configured: the data directory's own (digest checked), else a `not-configured` error naming the fix;
 * - a pack configured and none installed: that pack, copied into the data directory when `install` is set and the
 *   directory exists (or `createHome` is set);
 * - a pack configured and the same one installed: it;
 * - a different one: `--pack` uses it for this run; EVIDENCE_BRIDGE_PACK is refused naming both digests.
 */
export function resolvePack(config: PackConfig, opts: { audience?: PackAudience; install?: boolean; createHome?: boolean } = {}): ResolvedPack {
  const audience = opts.audience ?? "cli";
  if (config.packFile === undefined) {
    const own = loadHomePack(config.home, audience);
    if (own === undefined) throw notConfigured(config.home, audience);
    return own;
  }
  const bytes = readPackBytes(config.packFile);
  const pack = loadPack(bytes);
  const own = homePackFiles(config.home).file;
  const ownDigest = installedDigest(config.home);
  if (ownDigest === undefined) {
    if (opts.install === true && (opts.createHome === true || inspectDataDir(config.home) === "present")) {
      installLoadedPack(config.home, { bytes, pack });
      return { file: config.packFile, pack, bytes, installed: `intelligence pack sha256 ${pack.sha256} installed into ${own}; later commands use it without --pack` };
    }
    return { file: config.packFile, pack, bytes };
  }
  if (ownDigest === pack.sha256) return { file: config.packFile, pack, bytes };
  if (config.packFromFlag === true) {
    return { file: config.packFile, pack, bytes, overrides: `using --pack ${config.packFile} (sha256 ${pack.sha256}) for this run instead of the data directory's pack (sha256 ${ownDigest})` };
  }
  const fix =
    audience === "mcp"
      ? `clear EVIDENCE_BRIDGE_PACK in the server's environment (the bundle's "Intelligence pack file" setting) to use the data directory's pack, or point EVIDENCE_BRIDGE_HOME at a data directory for the other pack`
      : "unset EVIDENCE_BRIDGE_PACK, pass --pack FILE for one run, or replace the data directory's pack with 'pack install FILE --replace'";
  throw new PackError(
    "pack",
    "different-pack",
    `EVIDENCE_BRIDGE_PACK names ${config.packFile} (sha256 ${pack.sha256}), but the data directory ${config.home} uses the pack with sha256 ${ownDigest}: ${fix}`,
  );
}

/**
 * Installs the configured pack as the data directory's own when the directory exists and has none (a command that
 * just stored something calls this, so a refused command writes nothing). Returns true when it installed.
 */
export function rememberFirstPack(config: PackConfig, resolved?: ResolvedPack): boolean {
  const loaded = packToRemember(config, resolved);
  if (loaded !== undefined) runDurableSync(installSteps(config.home, loaded, {}));
  return loaded !== undefined;
}

/** {@link rememberFirstPack} with the install's independent syncs at once (src/crypto/sync-set.ts): a one-shot command. */
export async function rememberFirstPackConcurrently(config: PackConfig, resolved?: ResolvedPack): Promise<boolean> {
  const loaded = packToRemember(config, resolved);
  if (loaded !== undefined) await runDurable(installSteps(config.home, loaded, {}));
  return loaded !== undefined;
}

function packToRemember(config: PackConfig, resolved: ResolvedPack | undefined): LoadedPackBytes | undefined {
  if (config.packFile === undefined || presentAt(homePackFiles(config.home).file)) return undefined;
  if (inspectDataDir(config.home) !== "present") return undefined;
  // The pack this run already loaded from the configured file is installed as loaded, not parsed a second time.
  if (resolved?.bytes !== undefined && resolved.file === config.packFile) return { bytes: resolved.bytes, pack: resolved.pack };
  const bytes = readPackBytes(config.packFile);
  return { bytes, pack: loadPack(bytes) };
}
