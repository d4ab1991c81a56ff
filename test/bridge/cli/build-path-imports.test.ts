/**
 * `capsule build` is a one-shot process with a cold-start budget (product.md §11): its module graph must not reach
 * zod (≈ 76 modules, tens of milliseconds to load) or the MCP SDK. The graph is computed from the sources: every
 * static import and re-export that survives compilation (whole-statement `import type` / `export type`, and imports
 * whose named specifiers are all `type`, are erased by TypeScript), followed through relative paths; bare
 * specifiers are the packages the graph reaches. The lazily imported store and outbox modules are followed too:
 * a default build (with the store) must stay light as well.
 */
import { describe, expect, test } from "vitest";
import { graphOf, loadedSpecifiers, type Graph } from "../../helpers/module-graph.js";

const isZod = (spec: string) => spec === "zod" || spec.startsWith("zod/");
const isMcpSdk = (spec: string) => spec.startsWith("@modelcontextprotocol/");

function heavy(graph: Graph): string[] {
  return [...graph.packages].filter((p) => isZod(p) || isMcpSdk(p)).sort();
}

const BUILD_ENTRIES = ["bridge/cli/bin.ts", "bridge/cli/commands/capsule-build.ts"];

describe("capsule build module graph", () => {
  test("the static graph of bin.ts and the build command reaches neither zod nor the MCP SDK", () => {
    const graph = graphOf(BUILD_ENTRIES, { dynamic: false });
    expect(heavy(graph)).toEqual([]);
    // The scan really followed the build path (so the check above can fail).
    for (const f of ["bridge/cli/main.ts", "capsules/assessment/parse-assessment.ts", "published/pack/load.ts", "src/json/shape-check.ts"]) {
      expect(graph.files.has(f), f).toBe(true);
    }
    expect(graph.packages.has("node:crypto")).toBe(true);
    // Hashing on the build path is native (node:crypto); the pure-JS hashes are test cross-checks only.
    expect([...graph.packages].filter((p) => /^@noble\/hashes\/(sha2|hmac|scrypt)/.test(p))).toEqual([]);
  });

  test("neither do the lazily loaded store and outbox modules", () => {
    const graph = graphOf(BUILD_ENTRIES, { dynamic: true });
    expect(graph.files.has("capsules/store/store.ts")).toBe(true);
    expect(graph.files.has("capsules/assessment/outbox.ts")).toBe(true);
    expect(heavy(graph)).toEqual([]);
  });

  test("the zod schemas and the MCP server are seen as heavy (the scanner can fail)", () => {
    expect(heavy(graphOf(["published/pack/schema.ts"], { dynamic: false }))).toEqual(["zod"]);
    expect(heavy(graphOf(["capsules/assessment/schema.ts"], { dynamic: false }))).toEqual(["zod"]);
    expect(heavy(graphOf(["bridge/mcp/server.ts"], { dynamic: false })).some(isMcpSdk)).toBe(true);
  });

  test("erased type-only imports are not followed; value imports, re-exports and side-effect imports are", () => {
    const code = [
      'import type { A } from "./a.js";',
      'import { type B, type C } from "./b.js";',
      'export type { D } from "./d.js";',
      'import { e, type E } from "./e.js";',
      'export { f } from "./f.js";',
      'import "./g.js";',
      "import * as h from './h.js';",
      'const i = await import("./i.js");',
      '// import { j } from "./j.js";',
      '/* import { k } from "./k.js"; */',
    ].join("\n");
    expect(loadedSpecifiers(code, { dynamic: false }).sort()).toEqual(["./e.js", "./f.js", "./g.js", "./h.js"]);
    expect(loadedSpecifiers(code, { dynamic: true }).sort()).toEqual(["./e.js", "./f.js", "./g.js", "./h.js", "./i.js"]);
  });
});
