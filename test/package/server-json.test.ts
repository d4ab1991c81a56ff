/**
 * server.json (issue 13 item 7) validates against the MCP registry's server.json schema (its validation
 * constraints, kept in test/fixtures/mcp-registry/), its name is package.json's mcpName, its versions follow
 * package.json, and it never suggests `npx` (the npm name is not published by us yet).
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { Ajv } from "ajv";
import addFormatsModule from "ajv-formats";
import { describe, expect, test } from "vitest";
import { repoRoot } from "../helpers/shared.js";

const read = (f: string) => JSON.parse(readFileSync(join(repoRoot, f), "utf8")) as Record<string, unknown>;
const addFormats = addFormatsModule as unknown as (ajv: Ajv) => Ajv;

describe("server.json", () => {
  const server = read("server.json");
  const pkg = read("package.json");
  const schema = read("test/fixtures/mcp-registry/server.schema.2025-09-29.json");

  test("validates against the registry schema", () => {
    const ajv = addFormats(new Ajv({ allErrors: true, strict: false }));
    const validate = ajv.compile(schema);
    expect(validate(server) ? [] : validate.errors).toEqual([]);
    expect(server.$schema).toBe(schema.$id);
  });

  test("the schema check can fail: a name without a namespace is refused", () => {
    const ajv = addFormats(new Ajv({ allErrors: true, strict: false }));
    expect(ajv.compile(schema)({ ...server, name: "evidence-bridge" })).toBe(false);
  });

  test("name matches package.json mcpName; versions match package.json", () => {
    expect(server.name).toBe(pkg.mcpName);
    expect(server.version).toBe(pkg.version);
    for (const p of server.packages as Array<{ version?: string; identifier: string }>) {
      expect(p.identifier).toBe(pkg.name);
      expect(p.version).toBe(pkg.version);
    }
  });

  test("nothing tells anyone to npx our unpublished name (warnings against it excepted)", () => {
    const bad = (text: string) =>
      text.split("\n").filter((l) => (/"command":\s*"npx"/.test(l) || /\bnpx\s+(-y\s+)?evidence-bridge\b/.test(l)) && !/\b(never|not|Do not)\b/i.test(l));
    expect(bad('"command": "npx",\nrun npx -y evidence-bridge')).toHaveLength(2);
    for (const f of ["server.json", "README.md", "docs/mcp-clients.md", "docs/install.md", "bridge/mcp/banner.ts"]) {
      expect(bad(readFileSync(join(repoRoot, f), "utf8")), f).toEqual([]);
    }
    expect(JSON.stringify(server)).not.toMatch(/runtimeHint/);
  });
});
