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

export class PrivateState {
  private store: SealedStore | undefined;
  private opening: Promise<SealedStore | undefined> | undefined;
  private pack: { key: string; resolved: ResolvedPack } | undefined;

  constructor(readonly config: Config) {}

  /** The existing store, or undefined when the data directory has none yet. Key errors propagate. */
  async existingStore(): Promise<SealedStore | undefined> {
    if (this.store) return this.store;
    this.opening ??= (async () => {
      const { openStore } = await import("../../capsules/store/store.js");
      const { StoreError } = await import("../../capsules/store/errors.js");
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
    const resolved = resolvePack(this.config, { audience: "mcp", install: true });
    if (resolved.installed !== undefined) process.stderr.write(`evidence-bridge: ${resolved.installed}\n`);
    this.pack = { key: keyNow(), resolved };
    return resolved;
  }
}

function statKey(file: string): string {
  try {
    const st = statSync(file);
    return `${st.mtimeMs}:${st.size}:${st.ino}`;
  } catch {
    return "absent";
  }
}
