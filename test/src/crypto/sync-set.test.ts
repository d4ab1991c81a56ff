/**
 * Syncs without order among them (src/crypto/sync-set.ts) and the durable writes built from them: every staged
 * descriptor is closed by its set, sets run in the order the steps yield them (synchronously and concurrently), a
 * failing sync stops the steps and lets them clean up, and the key creation's barriers stay in their order: nothing
 * is linked into place before the set that syncs its data completed, and the store key only after the keys directory
 * was synced with the signing key in it (docs/store.md "Syncs").
 */
import { existsSync, fstatSync, mkdirSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, test } from "vitest";
import { createKeyFileModeSteps, keyLayout } from "../../../src/crypto/keys.js";
import { stageUnsynced } from "../../../src/crypto/safe-write.js";
import { runDurable, runDurableSync, syncSet, syncSetSync, type DurableSteps, type SyncSet } from "../../../src/crypto/sync-set.js";
import { tempDir } from "./helpers.js";

const bytes = (s: string) => new TextEncoder().encode(s);
const closed = (fd: number) => {
  try {
    fstatSync(fd);
    return false;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === "EBADF";
  }
};

describe("sync sets", () => {
  for (const [name, run] of [
    ["one after another", async (s: SyncSet) => syncSetSync(s)],
    ["at once", syncSet],
  ] as const) {
    test(`${name}: syncs staged files and directories, and closes every staged descriptor`, async () => {
      const dir = tempDir(`set-${name.replace(/ /g, "-")}`);
      mkdirSync(dir);
      const files = [stageUnsynced(dir, bytes("a")), stageUnsynced(dir, bytes("b"))];
      expect(files.some((f) => closed(f.fd))).toBe(false);
      await run({ files, dirs: [dir, dir] });
      expect(files.every((f) => closed(f.fd))).toBe(true);
    });

    test(`${name}: a directory that cannot be opened is an error naming it, and the files are still closed`, async () => {
      const dir = tempDir(`set-missing-${name.replace(/ /g, "-")}`);
      mkdirSync(dir);
      const files = [stageUnsynced(dir, bytes("a"))];
      await expect(run({ files, dirs: [join(dir, "absent")] })).rejects.toThrow(/cannot open directory .*absent/);
      expect(closed(files[0].fd)).toBe(true);
    });
  }
});

function* recorded(log: string[], dir: string): DurableSteps<string> {
  try {
    log.push("stage");
    yield { files: [stageUnsynced(dir, bytes("x"))] };
    log.push("after first set");
    yield { dirs: [dir] };
    log.push("after second set");
    return "done";
  } finally {
    log.push("finally");
  }
}

describe("durable steps", () => {
  test("both drivers run the sets in the order the steps yield them and return the result", async () => {
    const dir = tempDir("steps");
    mkdirSync(dir);
    const a: string[] = [];
    expect(runDurableSync(recorded(a, dir))).toBe("done");
    const b: string[] = [];
    expect(await runDurable(recorded(b, dir))).toBe("done");
    expect(a).toEqual(["stage", "after first set", "after second set", "finally"]);
    expect(b).toEqual(a);
  });

  test("a failed set stops the steps: nothing after it runs, their finally blocks do, the error is the sync's", async () => {
    const dir = tempDir("steps-fail");
    mkdirSync(dir);
    function* failing(log: string[]): DurableSteps<void> {
      try {
        yield { dirs: [join(dir, "absent")] };
        log.push("went on");
      } finally {
        log.push("cleaned up");
      }
    }
    const a: string[] = [];
    expect(() => runDurableSync(failing(a))).toThrow(/cannot open directory/);
    const b: string[] = [];
    await expect(runDurable(failing(b))).rejects.toThrow(/cannot open directory/);
    expect(a).toEqual(["cleaned up"]);
    expect(b).toEqual(["cleaned up"]);
  });
});

describe("key creation keeps its barriers", () => {
  test("data synced before any link; the signing key linked and synced before the store key is linked", () => {
    const home = tempDir("key-steps");
    mkdirSync(home);
    const layout = keyLayout(home);
    const steps = createKeyFileModeSteps(home, layout);
    const first = steps.next();
    expect(first.done).toBe(false);
    const set1 = first.value as SyncSet;
    // Both key files staged, neither linked; the data directory that gained keys/ is synced in the same set.
    expect(set1.files).toHaveLength(2);
    expect(set1.dirs).toEqual([home]);
    expect(existsSync(layout.signingKey) || existsSync(layout.storeKey)).toBe(false);
    syncSetSync(set1);
    const second = steps.next();
    expect(second.value).toEqual({ dirs: [layout.dir] });
    expect(existsSync(layout.signingKey)).toBe(true);
    expect(existsSync(layout.storeKey)).toBe(false);
    syncSetSync(second.value as SyncSet);
    const third = steps.next();
    expect(third.value).toEqual({ dirs: [layout.dir] });
    expect(existsSync(layout.storeKey)).toBe(true);
    syncSetSync(third.value as SyncSet);
    const done = steps.next();
    expect(done.done).toBe(true);
    expect(readdirSync(layout.dir).sort()).toEqual(["signing.key", "store.key"]); // no temporary file left
  });
});
