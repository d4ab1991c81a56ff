/**
 * Schema drift (product.md §9): the input schemas the hosted server announces are compared with the pinned ones.
 * The bridge keeps exposing the pinned schema whatever upstream says; drift is only reported (doctor, stderr).
 */
import { isPublicToolName, PINNED_TOOLS, PUBLIC_TOOL_NAMES, type PublicToolName } from "./pinned-tools.js";
import { isRecord as isPlainObject } from "../../src/json/value.js";
import { upstreamName } from "./upstream-words.js";

/** `annotation` differences (descriptions, titles, examples) do not change what a call may carry. */
export type DifferenceKind = "constraint" | "annotation";

export interface SchemaDifference {
  /** JSON path inside the tool entry, e.g. `inputSchema.properties.max_rows.maximum`. */
  path: string;
  kind: DifferenceKind;
  /** Compact JSON of the pinned value, or undefined when the pinned schema has no such member. */
  pinned: string | undefined;
  /** Compact JSON of the upstream value, or undefined when upstream has no such member. */
  upstream: string | undefined;
}

export type ToolDriftStatus = "changed" | "missing" | "not-read-only";

export interface ToolDrift {
  tool: PublicToolName;
  status: ToolDriftStatus;
  differences: SchemaDifference[];
}

export interface DriftReport {
  /** True when some public tool is missing, not read-only, or has a constraint difference. */
  drifted: boolean;
  tools: ToolDrift[];
}

const ANNOTATION_KEYS = new Set(["description", "title", "examples", "$comment"]);
/** Arrays whose order carries no meaning. */
const SET_KEYS = new Set(["required"]);
const MAX_RENDER = 200;

function render(v: unknown): string {
  const s = JSON.stringify(v) ?? String(v);
  return s.length > MAX_RENDER ? `${s.slice(0, MAX_RENDER - 3)}...` : s;
}

function kindOf(path: string): DifferenceKind {
  const last = path.slice(path.lastIndexOf(".") + 1);
  return ANNOTATION_KEYS.has(last) ? "annotation" : "constraint";
}

/** Structural differences between two JSON schemas (object member order ignored). */
export function compareSchemas(pinned: unknown, upstream: unknown, path = "inputSchema"): SchemaDifference[] {
  const out: SchemaDifference[] = [];
  const walk = (a: unknown, b: unknown, p: string, key: string): void => {
    if (isPlainObject(a) && isPlainObject(b)) {
      const keys = new Set([...Object.keys(a), ...Object.keys(b)]);
      for (const k of [...keys].sort()) {
        const sub = `${p}.${upstreamName(k)}`; // an upstream key is bounded and cleaned before it is shown
        if (!(k in b)) out.push({ path: sub, kind: kindOf(sub), pinned: render(a[k]), upstream: undefined });
        else if (!(k in a)) out.push({ path: sub, kind: kindOf(sub), pinned: undefined, upstream: render(b[k]) });
        else walk(a[k], b[k], sub, k);
      }
      return;
    }
    if (Array.isArray(a) && Array.isArray(b)) {
      if (SET_KEYS.has(key)) {
        const sa = [...a].map((x) => JSON.stringify(x)).sort();
        const sb = [...b].map((x) => JSON.stringify(x)).sort();
        if (sa.join("\u0000") !== sb.join("\u0000")) out.push({ path: p, kind: kindOf(p), pinned: render(a), upstream: render(b) });
        return;
      }
      if (a.length !== b.length) {
        out.push({ path: p, kind: kindOf(p), pinned: render(a), upstream: render(b) });
        return;
      }
      a.forEach((x, k) => walk(x, b[k], `${p}[${k}]`, key));
      return;
    }
    if (!Object.is(a, b) && JSON.stringify(a) !== JSON.stringify(b)) {
      out.push({ path: p, kind: kindOf(p), pinned: render(a), upstream: render(b) });
    }
  };
  walk(pinned, upstream, path, "");
  return out;
}

/** A tools/list entry is read-only only when `annotations.readOnlyHint` is exactly `true`. */
export function isReadOnly(tool: unknown): boolean {
  if (!isPlainObject(tool)) return false;
  const ann = tool.annotations;
  return isPlainObject(ann) && ann.readOnlyHint === true;
}

/** Compares upstream tools/list entries with the pinned seven. Tools outside the allow-list are not reported here. */
export function detectDrift(upstreamTools: readonly unknown[]): DriftReport {
  const byName = new Map<string, unknown>();
  for (const t of upstreamTools) {
    if (isPlainObject(t) && isPublicToolName(t.name) && !byName.has(t.name)) byName.set(t.name, t);
  }
  const tools: ToolDrift[] = [];
  for (const name of PUBLIC_TOOL_NAMES) {
    const t = byName.get(name);
    if (t === undefined) {
      tools.push({ tool: name, status: "missing", differences: [] });
      continue;
    }
    const differences = compareSchemas(PINNED_TOOLS[name].inputSchema, (t as Record<string, unknown>).inputSchema);
    if (!isReadOnly(t)) tools.push({ tool: name, status: "not-read-only", differences });
    else if (differences.length > 0) tools.push({ tool: name, status: "changed", differences });
  }
  const drifted = tools.some((t) => t.status !== "changed" || t.differences.some((d) => d.kind === "constraint"));
  return { drifted, tools };
}

/** One line per finding, for stderr and `doctor`. */
export function formatDrift(report: DriftReport): string[] {
  const lines: string[] = [];
  for (const t of report.tools) {
    if (t.status === "missing") lines.push(`schema drift: ${t.tool}: not offered by the hosted server`);
    else if (t.status === "not-read-only") lines.push(`schema drift: ${t.tool}: offered without annotations.readOnlyHint true; not exposed`);
    for (const d of t.differences) {
      const was = d.pinned === undefined ? "absent" : d.pinned;
      const now = d.upstream === undefined ? "absent" : d.upstream;
      lines.push(`schema drift: ${t.tool}.${d.path}: pinned ${was}, upstream ${now}${d.kind === "annotation" ? " (annotation only)" : ""}`);
    }
  }
  return lines;
}
