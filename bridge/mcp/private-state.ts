/**
 * The private side as the MCP server sees it: the sealed store (opened on first use and kept open, so passphrase
 * mode pays the key derivation once) and the intelligence pack (reloaded when its file changes). Modules of the
 * private side are imported on first use only, so `initialize` does not wait for them.
 */
import { statSync } from "node:fs";
import type { Config } from "../../src/config.js";
import type { IntelligencePack } from "../../published/pack/types.js";
import type { SealedStore } from "../../capsules/store/store.js";

export class PrivateState {
  private store: SealedStore | undefined;
  private opening: Promise<SealedStore | undefined> | undefined;
  private pack: { file: string; mtimeMs: number; size: number; pack: IntelligencePack } | undefined;

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

  /** The configured intelligence pack, loaded again only when its file changed. Throws PackError. */
  async loadPack(): Promise<{ file: string; pack: IntelligencePack }> {
    const { configuredPackPath, loadConfiguredPack, loadPackFile } = await import("../../published/pack/file.js");
    const { PackError } = await import("../../published/pack/errors.js");
    const file = configuredPackPath(this.config);
    if (file === undefined) return loadConfiguredPack(this.config); // throws the not-configured PackError
    let st;
    try {
      st = statSync(file);
    } catch (e) {
      throw new PackError("pack", "read", `cannot read intelligence pack ${file}: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`);
    }
    const cached = this.pack;
    if (cached && cached.file === file && cached.mtimeMs === st.mtimeMs && cached.size === st.size) return cached;
    const pack = loadPackFile(file);
    this.pack = { file, mtimeMs: st.mtimeMs, size: st.size, pack };
    return this.pack;
  }
}
