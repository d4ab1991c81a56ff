/**
 * The SDK answers a request whose params fail its request schema with -32603 and the raw zod issue list (a
 * multi-line JSON array) as the message. That is an invalid-params error: this rewrites it to -32602 with one
 * line per issue, `Invalid params: params.name: expected string, received undefined`, before it is written.
 */
import { RpcErrorCode as ErrorCode } from "./jsonrpc-message.js";

interface Issue {
  path?: unknown;
  message?: unknown;
}

function pathText(path: unknown): string {
  if (!Array.isArray(path)) return "params";
  let out = "";
  for (const seg of path) out += typeof seg === "number" ? `[${seg}]` : out === "" ? String(seg) : `.${String(seg)}`;
  return out === "" ? "request" : out;
}

/** The precise error for an SDK request-schema failure, or undefined when `error` is something else. */
export function preciseParamsError(error: { code: number; message: string }): { code: number; message: string } | undefined {
  if (error.code !== ErrorCode.InternalError || !error.message.trimStart().startsWith("[")) return undefined;
  let issues: unknown;
  try {
    issues = JSON.parse(error.message);
  } catch {
    return undefined;
  }
  if (!Array.isArray(issues) || issues.length === 0 || !issues.every((i) => typeof i === "object" && i !== null && typeof (i as Issue).message === "string")) return undefined;
  const parts = (issues as Issue[]).slice(0, 5).map((i) => `${pathText(i.path)}: ${String(i.message).replace(/^Invalid input: /, "")}`);
  return { code: ErrorCode.InvalidParams, message: `Invalid params: ${parts.join("; ")}` };
}
