/** The data directory remembers its pack (issue 13 item 3), on the synthetic pack shipped in examples/. */
import { copyFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, test } from "vitest";
import { PackError } from "../../../published/pack/errors.js";
import { homePackFiles, installPack, rememberFirstPack, resolvePack } from "../../../published/pack/home-pack.js";
import { repoRoot } from "../../helpers/shared.js";

const SYNTHETIC = join(repoRoot, "examples/synthetic/intelligence-pack.json");
const dirs: string[] = [];
function temp(): string {
  const d = mkdtempSync(join(tmpdir(), "eb-home-pack-"));
  dirs.push(d);
  return d;
}
afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));

/** The synthetic pack with different bytes (one more space at the end: same content, another digest). */
function otherPack(dir: string): string {
  const f = join(dir, "other.json");
  writeFileSync(f, `${readFileSync(SYNTHETIC, "utf8")} `);
  return f;
}

function packError(f: () => unknown): PackError {
  try {
    f();
  } catch (e) {
    if (e instanceof PackError) return e;
    throw e;
  }
  throw new Error("expected a PackError");
}

describe("the data directory's own pack", () => {
  test("no pack anywhere: not-configured, naming the one command, and for MCP the bundle setting, never a flag", () => {
    const home = temp();
    const cli = packError(() => resolvePack({ home, packFile: undefined }));
    expect(cli.rule).toBe("not-configured");
    expect(cli.detail).toBe(`no intelligence pack in the data directory ${home}: run 'evidence-bridge pack fetch' to install the pinned published pack 2026-08-08.2`);
    const mcp = packError(() => resolvePack({ home, packFile: undefined }, { audience: "mcp" }));
    expect(mcp.detail).toMatch(/EVIDENCE_BRIDGE_PACK/);
    expect(mcp.detail).not.toMatch(/--\w/);
  });

  test("the first pack used is copied in with its digest and used afterwards with no configuration", () => {
    const home = temp();
    const first = resolvePack({ home, packFile: SYNTHETIC }, { install: true });
    expect(first.installed).toMatch(/installed/);
    const { file, digestFile } = homePackFiles(home);
    expect(readFileSync(file)).toEqual(readFileSync(SYNTHETIC));
    expect(readFileSync(digestFile, "utf8")).toBe(`${first.pack.sha256}\n`);
    const later = resolvePack({ home, packFile: undefined });
    expect(later.file).toBe(file);
    expect(later.pack.sha256).toBe(first.pack.sha256);
  });

  test("nothing is installed into a data directory that does not exist yet, or without install", () => {
    const home = join(temp(), "absent");
    expect(resolvePack({ home, packFile: SYNTHETIC }, { install: true }).installed).toBeUndefined();
    expect(rememberFirstPack({ home, packFile: SYNTHETIC })).toBe(false);
    const present = temp();
    resolvePack({ home: present, packFile: SYNTHETIC });
    expect(() => resolvePack({ home: present, packFile: undefined })).toThrow(/no intelligence pack in the data directory .*: run 'evidence-bridge pack fetch'/);
    expect(rememberFirstPack({ home: present, packFile: SYNTHETIC })).toBe(true);
    expect(resolvePack({ home: present, packFile: undefined }).file).toBe(homePackFiles(present).file);
  });

  test("another pack from EVIDENCE_BRIDGE_PACK is refused naming both digests; --pack overrides for one run", () => {
    const home = temp();
    const own = resolvePack({ home, packFile: SYNTHETIC }, { install: true }).pack.sha256;
    const other = otherPack(home);
    const e = packError(() => resolvePack({ home, packFile: other, packFromFlag: false }, { install: true }));
    expect(e.rule).toBe("different-pack");
    const mcp = packError(() => resolvePack({ home, packFile: other }, { audience: "mcp" }));
    expect(mcp.detail).toMatch(/EVIDENCE_BRIDGE_PACK/);
    expect(mcp.detail).not.toMatch(/--\w/);
    const otherSha = resolvePack({ home, packFile: other, packFromFlag: true }).pack.sha256;
    expect(e.detail).toContain(own);
    expect(e.detail).toContain(otherSha);
    const overridden = resolvePack({ home, packFile: other, packFromFlag: true }, { install: true });
    expect(overridden.overrides).toMatch(/for this run/);
    expect(resolvePack({ home, packFile: undefined }).pack.sha256).toBe(own);
  });

  test("install refuses to replace a different pack without replace, and replaces with it", () => {
    const home = temp();
    installPack(home, readFileSync(SYNTHETIC));
    const other = readFileSync(otherPack(home));
    expect(installPack(home, readFileSync(SYNTHETIC)).outcome).toBe("unchanged");
    expect(packError(() => installPack(home, other)).rule).toBe("different-pack");
    expect(installPack(home, other, { replace: true }).outcome).toBe("installed");
    expect(readFileSync(homePackFiles(home).file)).toEqual(other);
  });

  test("an installed pack whose bytes changed since install is refused until reinstalled", () => {
    const home = temp();
    installPack(home, readFileSync(SYNTHETIC));
    copyFileSync(otherPack(home), homePackFiles(home).file);
    const e = packError(() => resolvePack({ home, packFile: undefined }));
    expect(e.rule).toBe("digest");
    expect(e.detail).toMatch(/changed since it was installed/);
  });

  test("an invalid pack is never installed", () => {
    const home = temp();
    const bad = join(home, "bad.json");
    writeFileSync(bad, "{}");
    expect(() => resolvePack({ home, packFile: bad }, { install: true })).toThrow(PackError);
    expect(() => readFileSync(homePackFiles(home).file)).toThrow(/ENOENT/);
  });
});
