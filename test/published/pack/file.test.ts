/** Reading pack files (assessment-v1 §3.2 P1) and locating the configured pack (product.md §4). */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, test } from "vitest";
import { PackError } from "../../../published/pack/errors.js";
import { configuredPackPath, loadConfiguredPack, loadPackFile, readPackBytes } from "../../../published/pack/file.js";
import { describeShared } from "../../helpers/shared.js";
import { PACK_PATH, PACK_SHA256, realPackBytes } from "./helpers.js";

const tmp = mkdtempSync(join(tmpdir(), "eb-pack-file-"));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

function errorOf(f: () => unknown): PackError {
  try {
    f();
  } catch (e) {
    if (e instanceof PackError) return e;
    throw e;
  }
  throw new Error("expected a PackError");
}

describe("readPackBytes", () => {
  test("reads exactly 1 MiB and refuses one byte more", () => {
    const exact = join(tmp, "exact.json");
    writeFileSync(exact, Buffer.alloc(1_048_576, 0x20));
    expect(readPackBytes(exact).length).toBe(1_048_576);
    const over = join(tmp, "over.json");
    writeFileSync(over, Buffer.alloc(1_048_577, 0x20));
    expect(errorOf(() => readPackBytes(over))).toMatchObject({ rule: "size", path: "pack" });
  });

  test("a missing file or a directory is a read failure", () => {
    expect(errorOf(() => readPackBytes(join(tmp, "missing.json"))).rule).toBe("read");
    expect(errorOf(() => readPackBytes(tmp)).rule).toBe("read");
  });

  test("an empty file is rejected by the JSON grammar", () => {
    const empty = join(tmp, "empty.json");
    writeFileSync(empty, "");
    expect(errorOf(() => loadPackFile(empty)).rule).toBe("json:syntax");
  });
});

describeShared("configured pack", () => {
  test("the explicit file wins; else <home>/intelligence-pack-v1.json when present; else a clear error", () => {
    expect(configuredPackPath({ home: tmp, packFile: PACK_PATH })).toBe(PACK_PATH);
    const home = join(tmp, "home");
    mkdirSync(home);
    expect(configuredPackPath({ home, packFile: undefined })).toBeUndefined();
    expect(errorOf(() => loadConfiguredPack({ home, packFile: undefined }))).toMatchObject({ rule: "not-configured" });
    writeFileSync(join(home, "intelligence-pack-v1.json"), realPackBytes());
    const loaded = loadConfiguredPack({ home, packFile: undefined });
    expect(loaded.file).toBe(join(home, "intelligence-pack-v1.json"));
    expect(loaded.pack.sha256).toBe(PACK_SHA256);
  });
});
