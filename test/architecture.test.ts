/**
 * product.md §3: dependencies point bridge → capsules → src, and nothing under src/ or capsules/ reaches the
 * network or the MCP SDK. This reads every import of every source file and fails on a violation.
 */
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join, relative } from "node:path";
import { describe, expect, test } from "vitest";
import { repoRoot } from "./helpers/shared.js";

const FORBIDDEN_MODULES = [
  /^(node:)?net$/,
  /^(node:)?http$/,
  /^(node:)?https$/,
  /^(node:)?http2$/,
  /^(node:)?dgram$/,
  /^(node:)?tls$/,
  /^(node:)?dns$/,
  /^(node:)?child_process$/,
  /^@modelcontextprotocol\//,
];

function sourceFiles(dir: string): string[] {
  const out: string[] = [];
  for (const name of readdirSync(dir)) {
    const full = join(dir, name);
    if (statSync(full).isDirectory()) out.push(...sourceFiles(full));
    else if (name.endsWith(".ts")) out.push(full);
  }
  return out;
}

/** Module specifiers of static imports, re-exports, dynamic imports and requires. */
export function importsOf(code: string): string[] {
  const specs: string[] = [];
  const patterns = [
    /\bimport\s+(?:type\s+)?[^'";]*?\bfrom\s*["']([^"']+)["']/g,
    /\bimport\s*["']([^"']+)["']/g,
    /\bexport\s+[^'";]*?\bfrom\s*["']([^"']+)["']/g,
    /\bimport\s*\(\s*["'`]([^"'`]+)["'`]/g,
    /\brequire\s*\(\s*["'`]([^"'`]+)["'`]/g,
  ];
  for (const re of patterns) for (const m of code.matchAll(re)) specs.push(m[1]);
  return specs;
}

function violations(root: "src" | "capsules"): string[] {
  const found: string[] = [];
  for (const file of sourceFiles(join(repoRoot, root))) {
    const code = readFileSync(file, "utf8");
    const rel = relative(repoRoot, file);
    for (const spec of importsOf(code)) {
      if (FORBIDDEN_MODULES.some((re) => re.test(spec))) found.push(`${rel} imports ${spec}`);
      if (spec.startsWith(".")) {
        const target = relative(repoRoot, join(file, "..", spec));
        if (target.startsWith("bridge")) found.push(`${rel} imports ${spec} (bridge/ is above ${root}/)`);
        if (root === "src" && target.startsWith("capsules")) found.push(`${rel} imports ${spec} (capsules/ is above src/)`);
      }
    }
    if (/\bfetch\s*\(/.test(code) || /globalThis\.fetch|\bWebSocket\b|\bXMLHttpRequest\b/.test(code)) {
      found.push(`${rel} uses fetch or another network API`);
    }
  }
  return found;
}

describe("architecture", () => {
  test("src/ has no network, MCP SDK, capsules/ or bridge/ imports", () => {
    expect(violations("src")).toEqual([]);
  });
  test("capsules/ has no network, MCP SDK or bridge/ imports", () => {
    expect(violations("capsules")).toEqual([]);
  });
  test("the import scanner sees every import form (so the checks above can fail)", () => {
    const code = [
      'import { request } from "node:http";',
      'import "node:net";',
      'export { connect } from "tls";',
      'const m = await import("@modelcontextprotocol/sdk/server/mcp.js");',
      'const d = require("dgram");',
      'import type { X } from "../bridge/x.js";',
    ].join("\n");
    expect(importsOf(code)).toEqual(
      expect.arrayContaining(["node:http", "node:net", "tls", "@modelcontextprotocol/sdk/server/mcp.js", "dgram", "../bridge/x.js"]),
    );
    expect(importsOf(code).filter((s) => FORBIDDEN_MODULES.some((re) => re.test(s)))).toHaveLength(5);
  });
});
