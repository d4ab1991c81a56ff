/**
 * The private side as the MCP server sees it: the sealed store (opened on first use and kept open, so passphrase
 * mode pays the key derivation once) and the intelligence pack (reloaded when its file changes). Modules of the
 * private side are imported on first use only, so `initialize` does not wait for them.
 */
import { existsSync, statSync } from "node:fs";
import type { Config } from "../../src/config.js";
import type { ResolvedPack } from "../../published/pack/home-pack.js";
import type { IntelligencePack } from "../../published/pack/types.js";
import type { SealedStore } from "../../capsules/store/store.js";
import type { PackPin } from "../../published/pack/pinned.js";

export interface PrivateStateOptions {
  /** The pack pin the first-need fetch checks against (the release's own unless a test names another). */
  pin?: PackPin;
  /** Where the one-line notices go (stderr in the real process). */
  notice?: (line: string) => void;
}

export class PrivateState {
  private store: SealedStore | undefined;
  private opening: Promise<SealedStore | undefined> | undefined;
  private pack: { key: string; resolved: ResolvedPack } | undefined;

  private fetching: Promise<void> | undefined;
  /** The store's modules, imported once (on first use, so `initialize` does not wait for them). */
  private storeModules: ReturnType<typeof loadStoreModules> | undefined;

  constructor(
    readonly config: Config,
    private readonly opts: PrivateStateOptions = {},
  ) {}

  private notice(line: string): void {
    if (this.opts.notice) this.opts.notice(line);
    else process.stderr.write(`evidence-bridge: ${line}\n`);
  }

  /**
   * First need of a pack with none configured or installed (product.md §4): the release's pinned pack is fetched
   * from the published files, checked against its pinned digest, validated and installed into the data directory,
   * saying so on stderr. Offline, or when the download fails, the refusal names the one command that fixes it.
   */
  private async fetchPinnedPack(): Promise<void> {
    const { notConfigured, installPack, homePackFiles } = await import("../../published/pack/home-pack.js");
    const { PINNED_PACK } = await import("../../published/pack/pinned.js");
    const pin = this.opts.pin ?? PINNED_PACK;
    if (this.config.baseUrl === undefined) throw notConfigured(this.config.home, "mcp", "the bridge is offline, so it was not downloaded");
    this.notice(`no intelligence pack in ${this.config.home}: fetching the pinned published pack ${pin.version} from ${this.config.baseUrl}/${pin.path}`);
    const { downloadPinnedPack } = await import("../upstream/pack-download.js");
    const got = await downloadPinnedPack({ baseUrl: this.config.baseUrl, timeoutMs: this.config.timeoutMs, pin });
    if (!got.ok) throw notConfigured(this.config.home, "mcp", `downloading the pinned pack failed: ${got.reason}`);
    const { pack } = installPack(this.config.home, got.bytes);
    this.notice(`installed intelligence pack ${pack.version} (sha256 ${pack.sha256}) as ${homePackFiles(this.config.home).file}`);
  }

  /**
   * The existing store, or undefined when the data directory has none yet. Key errors propagate. Asked before every
   * proxied call (the outward guard reads a store another process created): without a store that costs a few
   * stats (`surelyNoStore`), not a failed open.
   */
  async existingStore(): Promise<SealedStore | undefined> {
    if (this.store) return this.store;
    const { openStore, surelyNoStore, StoreError } = await (this.storeModules ??= loadStoreModules());
    if (this.store) return this.store;
    if (this.opening === undefined && surelyNoStore(this.config.home)) return undefined;
    this.opening ??= (async () => {
      try {
        this.store = await openStore({ home: this.config.home, passphrase: this.config.passphrase });
        return this.store;
      } catch (e) {
        if (e instanceof StoreError && e.code === "no-store") return undefined;
        throw e;
      }
    })().finally(() => {
      this.opening = undefined;
    });
    return this.opening;
  }

  /** The store, created with its keys on first use (what recording a capsule needs). */
  async storeForWriting(): Promise<SealedStore> {
    const existing = await this.existingStore();
    if (existing) return existing;
    const { openOrCreateStore } = await import("../../capsules/store/store.js");
    this.store ??= await openOrCreateStore({ home: this.config.home, passphrase: this.config.passphrase });
    return this.store;
  }

  /**
   * The intelligence pack (published/pack/home-pack.ts): the data directory's own, or the configured one, copied
   * into the data directory on first use. Loaded again only when one of the files involved changed. Errors name
   * the configuration that fixes them (environment variable or bundle setting), never a CLI flag. Throws PackError.
   */
  async loadPack(): Promise<{ file: string; pack: IntelligencePack }> {
    const { rememberFirstPack, resolvePack, homePackFiles } = await import("../../published/pack/home-pack.js");
    const own = homePackFiles(this.config.home);
    const keyNow = () => [this.config.packFile, own.file, own.digestFile].map((f) => (f === undefined ? "-" : statKey(f))).join("|");
    const cached = this.pack;
    if (cached && cached.key === keyNow()) {
      // The data directory may have been created since the last call (record_assessment creates the store): the
      // pack loaded then is remembered now, from the bytes it was loaded from (no second parse).
      if (this.config.packFile !== undefined && !existsSync(own.file) && rememberFirstPack(this.config, cached.resolved)) {
        process.stderr.write(`evidence-bridge: the intelligence pack ${this.config.packFile} is now remembered in ${own.file}\n`);
        this.pack = { ...cached, key: keyNow() };
      }
      return cached.resolved;
    }
    if (this.config.packFile === undefined && !existsSync(own.file)) {
      // Concurrent first calls share one download.
      this.fetching ??= this.fetchPinnedPack().finally(() => {
        this.fetching = undefined;
      });
      await this.fetching;
    }
    const resolved = resolvePack(this.config, { audience: "mcp", install: true });
    if (resolved.installed !== undefined) process.stderr.write(`evidence-bridge: ${resolved.installed}\n`);
    this.pack = { key: keyNow(), resolved };
    return resolved;
  }
}

async function loadStoreModules() {
  const [{ openStore, surelyNoStore }, { StoreError }] = await Promise.all([import("../../capsules/store/store.js"), import("../../capsules/store/errors.js")]);
  return { openStore, surelyNoStore, StoreError };
}

function statKey(file: string): string {
  try {
    const st = statSync(file);
    return `${st.mtimeMs}:${st.size}:${st.ino}`;
  } catch {
    return "absent";
  }
}
