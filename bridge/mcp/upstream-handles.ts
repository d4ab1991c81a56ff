/**
 * The MCP server's two ways out, each created on first use: the hosted tool server's client (`--mcp-url`) and the
 * published-files fetcher (`--base-url`). Their modules (HTTP, TLS, the upstream parsers) load only then, so
 * start-up does not wait for them (docs/startup.md).
 */
import type { Config } from "../../src/config.js";
import type { OutwardGuard } from "../../capsules/guard/outward-guard.js";
import type { HostedClient } from "../upstream/hosted-client.js";
import type { Agents } from "../upstream/http-transport.js";
import type { PublishedFiles } from "../upstream/published-files.js";
import { SERVER_NAME } from "./initialize-answer.js";

export interface UpstreamHandles {
  /** The upstream client (created on first use), or undefined without `mcpUrl`. */
  hosted: (() => Promise<HostedClient>) | undefined;
  /** The published-files fetcher (created on first use), or undefined without `baseUrl`. */
  published: (() => Promise<PublishedFiles>) | undefined;
  close(): Promise<void>;
}

export interface UpstreamOptions {
  version: string;
  diagnostics: (line: string) => void;
  /** Pause before the upstream client's single retry (tests shorten it). */
  retryDelayMs?: number;
  /** The outward guard over the private store, asked at every request with params the client sends. */
  guard: () => OutwardGuard;
}

export function upstreamHandles(config: Config, opts: UpstreamOptions): UpstreamHandles {
  let hostedPromise: Promise<HostedClient> | undefined;
  const hosted =
    config.mcpUrl === undefined
      ? undefined
      : () =>
          (hostedPromise ??= import("../upstream/hosted-client.js").then(
            ({ HostedClient }) =>
              new HostedClient({
                mcpUrl: config.mcpUrl!,
                baseUrl: config.baseUrl,
                timeoutMs: config.timeoutMs,
                retryDelayMs: opts.retryDelayMs,
                guard: opts.guard,
                diagnostics: opts.diagnostics,
                clientInfo: { name: SERVER_NAME, version: opts.version },
              }),
          ));

  let agents: Agents | undefined;
  let publishedPromise: Promise<PublishedFiles> | undefined;
  const published =
    config.baseUrl === undefined
      ? undefined
      : () =>
          (publishedPromise ??= Promise.all([import("../upstream/published-files.js"), import("../upstream/http-transport.js")]).then(([p, h]) => {
            agents = new h.Agents();
            return new p.PublishedFiles({ baseUrl: config.baseUrl, timeoutMs: config.timeoutMs, retryDelayMs: opts.retryDelayMs }, agents);
          }));

  return {
    hosted,
    published,
    async close() {
      if (hostedPromise) (await hostedPromise).close();
      agents?.destroy();
    },
  };
}
