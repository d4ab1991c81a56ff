/** Starts an MCP server process as a client would and returns its initialize and tools/list answers. */
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { childEnv } from "../helpers/test-env.js";

export interface ProbeResult {
  server: { name: string; version: string } | undefined;
  tools: string[];
}

export async function probeServer(command: string, args: string[], env: Record<string, string>): Promise<ProbeResult> {
  const transport = new StdioClientTransport({ command, args, env: childEnv(env), stderr: "pipe" });
  const client = new Client({ name: "package-test", version: "1" });
  await client.connect(transport);
  try {
    return { server: client.getServerVersion(), tools: (await client.listTools()).tools.map((t) => t.name).sort() };
  } finally {
    await client.close();
  }
}
