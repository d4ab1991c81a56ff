/**
 * The test server's binaries are found by globbing Debian's layout (test/helpers/postgres-server.ts): the newest
 * major version 13 or above with both `postgres` and `initdb`; nothing (so the groups skip) when there is none.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, expect, test } from "vitest";
import { findPostgresBin } from "../../helpers/postgres-server.js";

const root = mkdtempSync(join(tmpdir(), "eb-pg-bins-"));
afterAll(() => rmSync(root, { recursive: true, force: true }));

function install(version: string, files = ["postgres", "initdb"]): void {
  mkdirSync(join(root, version, "bin"), { recursive: true });
  for (const f of files) writeFileSync(join(root, version, "bin", f), "");
}

test("the newest major version from 13 with a server and initdb; none below 13 or without initdb", () => {
  expect(findPostgresBin(join(root, "absent"))).toBeUndefined();
  install("12");
  expect(findPostgresBin(root)).toBeUndefined();
  install("13");
  install("9");
  expect(findPostgresBin(root)).toBe(join(root, "13", "bin"));
  install("16", ["postgres"]);
  expect(findPostgresBin(root)).toBe(join(root, "13", "bin"));
  install("15");
  install("common");
  expect(findPostgresBin(root)).toBe(join(root, "15", "bin"));
});
