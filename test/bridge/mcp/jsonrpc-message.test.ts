/**
 * The transport's JSON-RPC message check (bridge/mcp/jsonrpc-message.ts) accepts exactly what the SDK's
 * `JSONRPCMessageSchema` accepts: the same verdict on hand-picked edge cases and on generated messages.
 */
import fc from "fast-check";
import { describe, expect, test } from "vitest";
import { ErrorCode, JSONRPCMessageSchema } from "@modelcontextprotocol/sdk/types.js";
import { asJsonRpcMessage, RpcErrorCode } from "../../../bridge/mcp/jsonrpc-message.js";

const CASES: unknown[] = [
  { jsonrpc: "2.0", id: 1, method: "initialize", params: {} },
  { jsonrpc: "2.0", id: "a", method: "x" },
  { jsonrpc: "2.0", id: 1.5, method: "x" },
  { jsonrpc: "2.0", id: 2 ** 53, method: "x" },
  { jsonrpc: "2.0", id: -0, method: "x" },
  { jsonrpc: "2.0", id: null, method: "x" },
  { jsonrpc: "2.0", id: 1, method: 5 },
  { jsonrpc: "2.0", id: 1, method: "x", params: [] },
  { jsonrpc: "2.0", id: 1, method: "x", params: null },
  { jsonrpc: "2.0", id: 1, method: "x", params: "p" },
  { jsonrpc: "2.0", id: 1, method: "x", params: { _meta: { progressToken: "t", other: 1 }, extra: [1] } },
  { jsonrpc: "2.0", id: 1, method: "x", params: { _meta: { progressToken: 1.5 } } },
  { jsonrpc: "2.0", id: 1, method: "x", params: { _meta: { progressToken: null } } },
  { jsonrpc: "2.0", id: 1, method: "x", params: { _meta: [] } },
  { jsonrpc: "2.0", id: 1, method: "x", params: { _meta: null } },
  { jsonrpc: "2.0", id: 1, method: "x", params: { _meta: { "io.modelcontextprotocol/related-task": { taskId: "t", more: 1 } } } },
  { jsonrpc: "2.0", id: 1, method: "x", params: { _meta: { "io.modelcontextprotocol/related-task": { taskId: 1 } } } },
  { jsonrpc: "2.0", id: 1, method: "x", params: { _meta: { "io.modelcontextprotocol/related-task": "t" } } },
  { jsonrpc: "2.0", id: 1, method: "x", extra: 1 },
  { jsonrpc: "1.0", id: 1, method: "x" },
  { id: 1, method: "x" },
  { jsonrpc: "2.0", method: "notifications/initialized" },
  { jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId: 1 } },
  { jsonrpc: "2.0", method: "n", params: 1 },
  { jsonrpc: "2.0", id: 1, result: {} },
  { jsonrpc: "2.0", id: 1, result: { _meta: { progressToken: [] } } },
  { jsonrpc: "2.0", id: 1, result: [] },
  { jsonrpc: "2.0", id: 1, result: null },
  { jsonrpc: "2.0", result: {} },
  { jsonrpc: "2.0", id: 1, result: {}, error: { code: 1, message: "m" } },
  { jsonrpc: "2.0", id: 1, error: { code: -32600, message: "m", data: null, more: 1 } },
  { jsonrpc: "2.0", error: { code: -32600, message: "m" } },
  { jsonrpc: "2.0", id: 1, error: { code: 1.5, message: "m" } },
  { jsonrpc: "2.0", id: 1, error: { code: 1 } },
  { jsonrpc: "2.0", id: 1, error: "e" },
  { jsonrpc: "2.0", id: 1, error: { code: 1, message: "m" }, method: "x" },
  null,
  [],
  "x",
  1,
  {},
];

function sdkAccepts(v: unknown): boolean {
  return JSONRPCMessageSchema.safeParse(v).success;
}

describe("JSON-RPC message check", () => {
  test("the same verdict as the SDK on every edge case, and the value itself is returned", () => {
    for (const c of CASES) {
      const ours = asJsonRpcMessage(c);
      expect(ours !== undefined, JSON.stringify(c)).toBe(sdkAccepts(c));
      if (ours !== undefined) expect(ours).toBe(c);
    }
  });

  test("the same verdict as the SDK on generated messages", () => {
    const scalar = fc.oneof(fc.string({ maxLength: 3 }), fc.integer(), fc.double({ noNaN: true, noDefaultInfinity: true }), fc.constant(null), fc.boolean(), fc.constant(2 ** 53));
    const meta = fc.oneof(
      scalar,
      fc.record({ progressToken: scalar, "io.modelcontextprotocol/related-task": fc.oneof(scalar, fc.record({ taskId: scalar }, { requiredKeys: [] })), x: scalar }, { requiredKeys: [] }),
    );
    const params = fc.oneof(scalar, fc.constant([]), fc.record({ _meta: meta, a: scalar }, { requiredKeys: [] }));
    const error = fc.oneof(scalar, fc.record({ code: scalar, message: scalar, data: scalar }, { requiredKeys: [] }));
    const message = fc.record(
      {
        jsonrpc: fc.oneof(fc.constant("2.0"), fc.constant("2.0"), scalar),
        id: scalar,
        method: fc.oneof(fc.string({ maxLength: 4 }), scalar),
        params,
        result: fc.oneof(scalar, fc.record({ _meta: meta }, { requiredKeys: [] })),
        error,
        other: scalar,
      },
      { requiredKeys: [] },
    );
    fc.assert(
      fc.property(message, (m) => (asJsonRpcMessage(m) !== undefined) === sdkAccepts(m)),
      { numRuns: 1000 },
    );
  });

  test("the error codes are the SDK's", () => {
    for (const [name, code] of Object.entries(RpcErrorCode)) expect(code, name).toBe(ErrorCode[name as keyof typeof ErrorCode]);
  });
});
