/**
 * Argument errors of the proxied tools as JSON-RPC errors (hosted-tool-server.md §5, §7: "a tool's argument
 * mistakes are JSON-RPC errors, not isError results"). Arguments are checked against the pinned schema
 * (pinned-zod.ts) before anything is sent; a failure is -32602 with one message naming the tool, each argument
 * and the pinned schema's rule (its JSON Schema keyword). Argument values, and the names of unknown arguments,
 * are never echoed: they may hold private values the egress guard would refuse, and the message goes to stdout.
 */
import type { z } from "zod";
import { PINNED_TOOLS, type PublicToolName } from "../upstream/pinned-tools.js";
import { zodFromPinned } from "./pinned-zod.js";

export const INVALID_PARAMS = -32602;

const validators = new Map<PublicToolName, z.ZodObject>();

function validator(tool: PublicToolName): z.ZodObject {
  let v = validators.get(tool);
  if (v === undefined) validators.set(tool, (v = zodFromPinned(PINNED_TOOLS[tool].inputSchema, `${tool}.inputSchema`)));
  return v;
}

type Issue = z.core.$ZodIssue;

/**
 * One issue as `argument: what is wrong (pinned schema rule: keyword)`. Names of unknown arguments are not echoed
 * either (a key can carry a private value as well as a value can): the message names the allowed ones instead.
 */
function describeIssue(tool: PublicToolName, issue: Issue, args: Record<string, unknown>): string[] {
  const name = issue.path.length > 0 ? String(issue.path[0]) : undefined;
  switch (issue.code) {
    case "unrecognized_keys": {
      const allowed = Object.keys((PINNED_TOOLS[tool].inputSchema.properties ?? {}) as object);
      const which = allowed.length === 0 ? "this tool takes no arguments" : `the arguments are ${allowed.join(", ")}`;
      return [`${issue.keys.length} argument(s) not in the pinned schema (pinned schema rule: additionalProperties false; ${which})`];
    }
    case "invalid_type":
      if (name !== undefined && !(name in args)) return [`${name}: required (pinned schema rule: required)`];
      return [`${name ?? "arguments"}: expected ${issue.expected === "number" ? "an integer" : `a ${issue.expected}`} (pinned schema rule: type)`];
    case "too_big":
      return [
        issue.origin === "string"
          ? `${name}: longer than ${String(issue.maximum)} characters (pinned schema rule: maxLength ${String(issue.maximum)})`
          : `${name}: above the maximum ${String(issue.maximum)} (pinned schema rule: maximum ${String(issue.maximum)})`,
      ];
    case "too_small":
      return [
        issue.origin === "string"
          ? `${name}: shorter than ${String(issue.minimum)} character(s) (pinned schema rule: minLength ${String(issue.minimum)})`
          : `${name}: below the minimum ${String(issue.minimum)} (pinned schema rule: minimum ${String(issue.minimum)})`,
      ];
    case "invalid_value":
      return [`${name}: not one of ${issue.values.map((v) => JSON.stringify(v)).join(", ")} (pinned schema rule: enum)`];
    default:
      return [`${name ?? "arguments"}: does not match the pinned schema (${issue.code})`];
  }
}

/** Builds every validator now, so an unsupported keyword in a pin fails at start-up (fail closed). */
export function compilePinnedValidators(tools: readonly PublicToolName[]): void {
  for (const t of tools) validator(t);
}

/** The -32602 error for arguments outside the pinned schema of `tool`, or undefined when they fit it. */
export function pinnedArgumentError(tool: PublicToolName, args: Record<string, unknown>): { code: number; message: string } | undefined {
  const r = validator(tool).safeParse(args);
  if (r.success) return undefined;
  const parts = r.error.issues.flatMap((i) => describeIssue(tool, i, args));
  const shown = parts.slice(0, 5).join("; ") + (parts.length > 5 ? `; and ${parts.length - 5} more` : "");
  return { code: INVALID_PARAMS, message: `Invalid params for ${tool}: ${shown}` };
}
