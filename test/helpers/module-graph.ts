/**
 * The static module graph of TypeScript sources, for the start-up tests (capsule build, the MCP server): every
 * static import and re-export that survives compilation (whole-statement `import type` / `export type`, and imports
 * whose named specifiers are all `type`, are erased by TypeScript), followed through relative paths; bare specifiers
 * are the packages the graph reaches. With `dynamic`, `import("…")` of a literal path is followed too.
 */
import { existsSync, readFileSync } from "node:fs";
import { dirname, join, relative } from "node:path";
import { repoRoot } from "./shared.js";

export interface Graph {
  /** Source files reached, relative to the repository root. */
  files: Set<string>;
  /** Bare specifiers reached (`zod`, `@noble/hashes/sha2.js`, `node:fs`). */
  packages: Set<string>;
}

/** Statement-level imports and re-exports that load a module at run time. */
export function loadedSpecifiers(code: string, opts: { dynamic: boolean }): string[] {
  const specs: string[] = [];
  const source = code.replace(/\/\*[\s\S]*?\*\//g, "").replace(/^\s*\/\/.*$/gm, "");
  const statement = /\b(import|export)\s+(type\s+)?([^'";]*?)\s*\bfrom\s*["']([^"']+)["']/g;
  for (const m of source.matchAll(statement)) {
    if (m[2]) continue; // import type / export type
    const clause = m[3].trim();
    const braces = /^\{([^}]*)\}$/.exec(clause);
    if (braces) {
      const names = braces[1].split(",").map((s) => s.trim()).filter((s) => s !== "");
      if (names.length > 0 && names.every((n) => n.startsWith("type "))) continue; // elided by TypeScript
    }
    specs.push(m[4]);
  }
  for (const m of source.matchAll(/\bimport\s*["']([^"']+)["']/g)) specs.push(m[1]);
  if (opts.dynamic) for (const m of source.matchAll(/\bimport\s*\(\s*["']([^"'`]+)["']\s*\)/g)) specs.push(m[1]);
  return specs;
}

/** The module graph from `entries` (repository-relative `.ts` files). */
export function graphOf(entries: readonly string[], opts: { dynamic: boolean }): Graph {
  const files = new Set<string>();
  const packages = new Set<string>();
  const queue = [...entries];
  while (queue.length > 0) {
    const file = queue.pop()!;
    if (files.has(file)) continue;
    files.add(file);
    for (const spec of loadedSpecifiers(readFileSync(join(repoRoot, file), "utf8"), opts)) {
      if (!spec.startsWith(".")) {
        packages.add(spec);
        continue;
      }
      const target = relative(repoRoot, join(repoRoot, dirname(file), spec)).replace(/\.js$/, ".ts");
      if (!existsSync(join(repoRoot, target))) throw new Error(`${file}: cannot resolve ${spec}`);
      queue.push(target);
    }
  }
  return { files, packages };
}
