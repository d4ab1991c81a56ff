/**
 * The values the egress guard refuses to send upstream (product.md §9): IOC values and message hashes of every
 * capsule in the private store, read once per capsule and kept in memory for the life of the process (never
 * written anywhere). Refreshed before every public tool call; a store that cannot be read refuses the call.
 */
import { statSync } from "node:fs";
import type { JsonObject } from "../../src/json/value.js";
import type { PrivateState } from "./private-state.js";

export type EgressReadiness = { ok: true } | { ok: false; reason: string };

export class EgressValues {
  private readonly known = new Map<string, string[]>();
  private flat: string[] = [];
  /** Modification time of the capsules directory at the last complete refresh (a new capsule changes it). */
  private seenMtimeNs: bigint | undefined;

  constructor(private readonly state: PrivateState) {}

  /** The current private values (what the upstream client's egress guard reads at every call). */
  values(): string[] {
    return this.flat;
  }

  private rebuild(): void {
    this.flat = [...new Set([...this.known.values()].flat())];
  }

  /** Adds the values of a capsule just stored, so no later call can miss them. */
  async remember(id: string, envelope: JsonObject): Promise<void> {
    if (this.known.has(id)) return;
    const { capsulePrivateValues } = await import("../../capsules/store/private-values.js");
    this.known.set(id, capsulePrivateValues(envelope));
    this.rebuild();
  }

  /** Reads capsules stored since the last refresh (by any process). */
  async refresh(): Promise<EgressReadiness> {
    try {
      const store = await this.state.existingStore();
      if (!store) return { ok: true };
      // Read before listing: a capsule linked in after this stat changes the time again and is read next time.
      const mtime = statSync(store.layout.capsules, { bigint: true, throwIfNoEntry: false })?.mtimeNs;
      if (mtime !== undefined && mtime === this.seenMtimeNs) return { ok: true };
      const { collectStorePrivateValues } = await import("../../capsules/store/private-values.js");
      if (collectStorePrivateValues(store, this.known).length > 0) this.rebuild();
      this.seenMtimeNs = mtime;
      return { ok: true };
    } catch (e) {
      return {
        ok: false,
        reason: `refused: the private store cannot be read, so the egress guard cannot check the arguments (${(e as Error).message}); nothing was sent to the hosted server`,
      };
    }
  }
}
