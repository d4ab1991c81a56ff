/**
 * Fixtures for feed and review tests: temporary data directories holding sealed stores of the reference example
 * capsules (read in place from ../shared), the real intelligence pack, and capsules built to be withheld.
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Writable } from "node:stream";
import type { FeedOutcome } from "../../../capsules/feed/index.js";
import { loadPackFile } from "../../../published/pack/file.js";
import type { IntelligencePack } from "../../../published/pack/types.js";
import { openOrCreateStore, type SealedStore } from "../../../capsules/store/store.js";
import { sharedPath } from "../../helpers/shared.js";
import { at, capsuleFor, exampleBytes, mutatedCapsule } from "../candidates/build-helpers.js";
import { storable } from "../../helpers/storable.js";

export const PACK_FILE = sharedPath("data/intelligence-pack/intelligence-pack-v1.json");
const VALID_DIR = sharedPath("data/bridge-examples/valid");

let pack: IntelligencePack | undefined;
export function testPack(): IntelligencePack {
  pack ??= loadPackFile(PACK_FILE);
  return pack;
}

export interface ExampleCapsule {
  name: string;
  id: string;
  bytes: Uint8Array;
}

/** The ten reference capsules (`valid/*.capsule.json`), by example name. */
export function exampleCapsules(): ExampleCapsule[] {
  return readdirSync(VALID_DIR)
    .filter((f) => f.endsWith(".capsule.json"))
    .sort()
    .map((f) => {
      const bytes = readFileSync(join(VALID_DIR, f));
      return { name: f.replace(/\.capsule\.json$/, ""), id: (JSON.parse(bytes.toString("utf8")) as { content_sha256: string }).content_sha256, bytes };
    });
}

export function exampleCapsule(prefix: string): ExampleCapsule {
  const found = exampleCapsules().find((c) => c.name.startsWith(prefix));
  if (!found) throw new Error(`no example ${prefix}`);
  return found;
}

function idOf(bytes: Uint8Array): string {
  return (JSON.parse(new TextDecoder().decode(bytes)) as { content_sha256: string }).content_sha256;
}

/** Example 03 with the handle `analytical`, a word of a fixed limitation sentence: the leak guard withholds it. */
export function leakGuardCapsule(): ExampleCapsule {
  const bytes = mutatedCapsule("03-usdt-inr-kitchen-sink-iocs", (doc) => {
    (at(doc, "detector", "iocs") as Map<string, unknown>).set("handles", ["analytical"]);
  });
  return { name: "leak-guard", id: idOf(bytes), bytes };
}

/** The reference's lenient example 02 as the reference bridge wrapped it: its assessment_id does not recompute. */
export function lenientCapsule(): ExampleCapsule {
  const bytes = capsuleFor(exampleBytes("lenient", "02-origin-answer-carries-ioc"));
  return { name: "lenient-02", id: idOf(bytes), bytes };
}

const homes: string[] = [];

/** A fresh data directory under the system temporary directory (removed by {@link removeHomes}). */
export function tempHome(tag: string): string {
  const home = mkdtempSync(join(tmpdir(), `eb-${tag}-`));
  homes.push(home);
  return home;
}

export function removeHomes(): void {
  for (const h of homes.splice(0)) rmSync(h, { recursive: true, force: true });
}

/** A store in a new data directory holding `capsules`. */
export async function storeWith(tag: string, capsules: readonly ExampleCapsule[]): Promise<{ home: string; store: SealedStore }> {
  const home = tempHome(tag);
  const store = await openOrCreateStore({ home, passphrase: undefined });
  for (const c of capsules) store.putCapsule(storable(c.bytes, c.id));
  return { home, store };
}

/** The feed's lines in output order, as one string; the spool is disposed. */
export async function text(o: FeedOutcome): Promise<string> {
  const chunks: Buffer[] = [];
  await o.spool.writeSorted(
    new Writable({
      write(c, _e, cb) {
        chunks.push(Buffer.from(c));
        cb();
      },
    }),
  );
  o.spool.dispose();
  return Buffer.concat(chunks).toString("utf8");
}
