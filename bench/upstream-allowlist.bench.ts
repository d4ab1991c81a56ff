/**
 * The upstream allowlist (bridge/upstream/published-vocabulary.ts; issue 28 "Done when": ≤ 0.1 ms added per
 * proxied call with 10,000 stored capsules): the admission of one proxied call (strict parse of the client's
 * argument text, each value looked up in the learned vocabularies, the arguments rebuilt) while the process holds
 * the outward guard over 10,000 capsules' private values, as the MCP process does. The vocabularies are learned
 * once, before timing (the real process learns each at most once a minute); the admission itself never reads the
 * store, so its cost does not grow with it.
 *
 * Run alone with `npm run bench -- allowlist`.
 */
import { randomBytes } from "node:crypto";
import { OutwardGuard } from "../capsules/guard/outward-guard.js";
import type { PrivateValue } from "../capsules/guard/private-values.js";
import type { Discovery, ToolCallOutcome } from "../bridge/upstream/hosted-client.js";
import type { PublicToolName } from "../bridge/upstream/pinned-tools.js";
import { PublishedVocabulary, type VocabularySource } from "../bridge/upstream/published-vocabulary.js";
import type { PublishedOutcome } from "../bridge/upstream/published-files.js";
import { atMost, measure, type BenchResult } from "./harness.js";

const CAPSULES = 10_000;
const SIGNALS = Array.from({ length: 41 }, (_, k) => `signal-${k}`);
const SERIES = Array.from({ length: 15 }, (_, k) => `cn.series.s${k}`);

function capsuleValues(i: number): PrivateValue[] {
  const hex = (n: number) => randomBytes(n).toString("hex");
  return [
    { kind: "message_sha256", value: hex(32) },
    { kind: "ioc_value", ioc: "handles", value: `@desk_${hex(5)}` },
    { kind: "ioc_value", ioc: "phones", value: `+91 9${String(1000 + (i % 9000)).padStart(4, "0")} ${String(10000 + ((i * 7919) % 90000))}` },
    { kind: "ioc_value", ioc: "wallets", value: `0x${hex(20)}` },
    { kind: "ioc_value", ioc: "urls", value: `https://${hex(4)}.example/${hex(4)}` },
  ];
}

const answer = (payload: unknown) => ({ content: [{ type: "text", text: "" }], structuredContent: payload, isError: false });

/** A source that has already answered: the vocabularies are learned from these answers before timing. */
function learnedSource(): VocabularySource {
  const discovery = {
    at: 0,
    protocolVersion: "2025-06-18",
    initializeResultText: "{}",
    initializeResult: { serverInfo: { name: "palimpsest", version: "1.9.3" } },
    upstreamTools: [],
    exposed: new Set(),
    ignored: [],
    drift: { drifted: false, tools: [] },
  } as unknown as Discovery;
  const out = (payload: unknown): ToolCallOutcome => ({ kind: "result", result: answer(payload), value: null, attempts: 1 });
  return {
    discovery,
    discover: async () => ({ ok: true, discovery }),
    callTool: async (name: string) =>
      name === "list_signals"
        ? out({ signals: SIGNALS.map((n) => ({ name: n })) })
        : out({ view: "newsroom", signal: "newsroom", data: { stories: [{ status: "live", priority: "lead" }] }, selection: { collection: "stories", returned: 1, total: 1 } }),
    fetchPublished: async (): Promise<PublishedOutcome> => ({ ok: false, url: undefined, reason: "no site", retryable: false }),
  };
}

export async function benchUpstreamAllowlist(): Promise<BenchResult[]> {
  const values: PrivateValue[] = [];
  for (let i = 0; i < CAPSULES; i++) values.push(...capsuleValues(i));
  const guard = new OutwardGuard(values);

  const vocabulary = new PublishedVocabulary(learnedSource());
  const rows = SERIES.map((series_id) => ({ series_id, source_id: "src", geography: "CN", sector: "all", firm_size: "all", ownership: "all", released_at: "2026-08-22T07:38:19+00:00", collected_at: "2026-08-22T07:38:19+00:00", period_start: "2026-08-21" }));
  vocabulary.observe("query_economic_observations", {}, answer({ observations: rows, next_cursor: "eyJvIjoyNSwicSI6ImEiLCJzIjoiYiIsInYiOjF9" }));
  await vocabulary.admit("get_signal", { name: SIGNALS[0] });
  await vocabulary.admit("get_newsroom", { status: "live" });
  await vocabulary.admit("query_economic_observations", { series_id: SERIES[0] });

  // The client's argument text and the SDK's parse of it (made before the tool handler runs, so not timed here).
  const calls: [PublicToolName, string, Record<string, unknown>][] = (
    [
      ["get_signal", '{"name":"signal-7","max_rows":25}'],
      ["get_newsroom", '{"view":"machine-analysis","limit":10,"status":"live","priority":"lead"}'],
      ["query_economic_observations", '{"series_id":"cn.series.s3","geography":"CN","as_of":"2026-11-01T00:00:00Z","limit":25}'],
      ["query_economic_observations", '{"series_id":"cn.series.s3","cursor":"eyJvIjoyNSwicSI6ImEiLCJzIjoiYiIsInYiOjF9"}'],
      ["research_catalog", '{"offset":0,"limit":25}'],
      ["list_signals", "{}"],
    ] as [PublicToolName, string][]
  ).map(([tool, text]) => [tool, text, JSON.parse(text) as Record<string, unknown>]);
  let n = 0;
  const batch = 500;
  const perBatch = await measure(
    async () => {
      for (let k = 0; k < batch; k++) {
        const [tool, text, args] = calls[n++ % calls.length];
        const a = await vocabulary.admit(tool, args, { argumentsText: text, clientMeta: n % 2 === 0 ? { progressToken: n } : undefined });
        if (a.kind !== "admitted") throw new Error(`bench allowlist: a published call was not admitted (${tool})`);
      }
    },
    { runs: 9, warmup: 3 },
  );
  if (guard.size !== values.length) throw new Error("bench allowlist: the guard lost values");
  return [atMost(`upstream allowlist per proxied call (${CAPSULES.toLocaleString("en")} capsules' private values held)`, perBatch / batch, 0.1, { calls: batch })];
}
