/**
 * product.md §3: dependencies point bridge → capsules → published → src, and nothing under src/, published/ or
 * capsules/ reaches the network or the MCP SDK. This reads every import of every source file and fails on a
 * violation.
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

/** The layers from the bottom up: a file may import only from its own layer or the ones below it. */
const LAYERS = ["src", "published", "capsules", "bridge"] as const;
type Root = (typeof LAYERS)[number];

function violations(root: Exclude<Root, "bridge">): string[] {
  const found: string[] = [];
  for (const file of sourceFiles(join(repoRoot, root))) {
    const code = readFileSync(file, "utf8");
    const rel = relative(repoRoot, file);
    for (const spec of importsOf(code)) {
      if (FORBIDDEN_MODULES.some((re) => re.test(spec))) found.push(`${rel} imports ${spec}`);
      if (spec.startsWith(".")) {
        const target = relative(repoRoot, join(file, "..", spec));
        const above = LAYERS.slice(LAYERS.indexOf(root) + 1).find((layer) => target.startsWith(`${layer}/`));
        if (above) found.push(`${rel} imports ${spec} (${above}/ is above ${root}/)`);
      }
    }
    if (/\bfetch\s*\(/.test(code) || /globalThis\.fetch|\bWebSocket\b|\bXMLHttpRequest\b/.test(code)) {
      found.push(`${rel} uses fetch or another network API`);
    }
  }
  return found;
}

describe("architecture", () => {
  test("src/ has no network, MCP SDK, published/, capsules/ or bridge/ imports", () => {
    expect(violations("src")).toEqual([]);
  });
  test("published/ has no network, MCP SDK, capsules/ or bridge/ imports", () => {
    expect(violations("published")).toEqual([]);
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

  test("JSON is tokenized in one place: src/json/tokenizer.ts (issue 14 item 2)", () => {
    // What a JSON scanner of its own would hold: the whitespace test, a scan for the closing quote, a number lexer.
    const scannerSigns = [
      /0x20\s*\|\|[^\n]*0x0a[^\n]*0x0d/,
      /indexOf\(\s*0x22/,
      /\[eE\]\[-\+\]\?|\[eE\]\[\+-\]\?/,
    ];
    const found: string[] = [];
    for (const root of LAYERS) {
      for (const file of sourceFiles(join(repoRoot, root))) {
        const rel = relative(repoRoot, file);
        if (rel === "src/json/tokenizer.ts") continue;
        const code = readFileSync(file, "utf8");
        for (const sign of scannerSigns) if (sign.test(code)) found.push(`${rel}: ${sign}`);
      }
    }
    expect(found).toEqual([]);
    // The signs are seen where they are (so the check can fail).
    const tokenizer = readFileSync(join(repoRoot, "src/json/tokenizer.ts"), "utf8");
    expect(scannerSigns.filter((sign) => sign.test(tokenizer))).toHaveLength(scannerSigns.length);
  });
});
