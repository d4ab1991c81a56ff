/**
 * Serving MCP on the process's stdio (product.md §5, §6): banner on a terminal, the session (./bridge-session.ts)
 * on a {@link LineTransport}, start-up discovery, and a clean end: when stdin ends or the client goes away,
 * requests already read get their answers for a short grace period, writes in progress complete, and this
 * resolves. Diagnostics are single `evidence-bridge: …` lines on stderr; stdout carries only JSON-RPC.
 */
import type { Readable, Writable } from "node:stream";
import type { Config } from "../../src/config.js";
import { terminalSafe, terminalSafeLines } from "../terminal-text.js";
import { bannerText } from "./banner.js";
import { packageVersion } from "../package-info.js";
import { BridgeSession, type BridgeSessionOptions } from "./bridge-session.js";
import { LineTransport, type LineTransportOptions } from "./stdio-transport.js";
import { WireTable } from "./wire-table.js";

export interface StdioStreams {
  stdin: Readable & { isTTY?: boolean };
  stdout: Writable;
  stderr: Writable;
}

export interface ServeOptions extends Partial<Omit<BridgeSessionOptions, "diagnostics">>, Omit<LineTransportOptions, "diagnostic"> {}

/** Serves until the input ends; resolves with the exit status (0). */
export async function serveStdio(config: Config, io: StdioStreams, opts: ServeOptions = {}): Promise<number> {
  const version = opts.version ?? packageVersion();
  const diagnostics = (line: string) => void io.stderr.write(`evidence-bridge: ${terminalSafe(line)}\n`);
  if (io.stdin.isTTY === true) io.stderr.write(terminalSafeLines(bannerText(config, version)));
  const transport = new LineTransport(io.stdin, io.stdout, new WireTable(), { ...opts, diagnostic: diagnostics });
  const session = new BridgeSession(config, transport, { ...opts, version, diagnostics });
  await session.start();
  await transport.finished;
  await session.close();
  return 0;
}
