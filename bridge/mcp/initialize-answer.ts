/**
 * The `initialize` answer of the bridge without the SDK (start-up loads neither the SDK nor zod; docs/startup.md):
 * the server's name and instructions, the protocol versions of @modelcontextprotocol/sdk 1.32 and its negotiation
 * (the client's version when supported, else the latest), and the capabilities the SDK's `McpServer` declares for
 * tools, resources and prompts. test/bridge/mcp/startup.test.ts checks every answer against the SDK's own.
 *
 * Only params inside a plain subset are answered here ({@link fastProtocolVersion}); any other initialize goes to
 * the SDK, which answers it (or refuses it) as before.
 */
import { isPlainObject } from "./jsonrpc-message.js";

export const SERVER_NAME = "evidence-bridge";

export const INSTRUCTIONS = `evidence-bridge keeps investigative evidence on this machine.
Private tools (local only): assess_message records a raw message from its text and your judgement in closed vocabularies (the prompt triage_message walks through it); record_assessment seals a producer's assessment JSON into the private store and previews its outward candidate; verify_capsule, list_capsules, get_candidates, match_typologies and check_regional_index read or check local data. Results never contain IOC values, message text or message hashes beyond what you sent in that call.
Public tools (research_catalog, list_signals, get_signal, get_newsroom, query_economic_observations, whats_happening, gfw_reading) are passed through to the configured hosted tool server; their arguments must be values the service itself published (signal names from list_signals, statuses and priorities from get_newsroom answers, economic values from its ledger or answers, cursors it returned), anything else is refused with -32602, and so is a value from the private store. A missing or stale measurement is not evidence of calm.
Review decisions and exports are made by a human at the command line, not through MCP.`;

/** The SDK's `LATEST_PROTOCOL_VERSION` and `SUPPORTED_PROTOCOL_VERSIONS` (checked by a test). */
export const LATEST_PROTOCOL_VERSION = "2025-11-25";
export const SUPPORTED_PROTOCOL_VERSIONS: readonly string[] = [LATEST_PROTOCOL_VERSION, "2025-06-18", "2025-03-26", "2024-11-05", "2024-10-07"];

/** What the SDK's `McpServer` declares once tools, resources and prompts are registered. */
export const SERVER_CAPABILITIES = { tools: { listChanged: true }, resources: { listChanged: true }, prompts: { listChanged: true } } as const;

const isObjectLike = (v: unknown) => typeof v === "object" && v !== null;
const optional = (v: unknown, ok: (x: unknown) => boolean) => v === undefined || ok(v);
const isString = (v: unknown) => typeof v === "string";

/** `capabilities` that the SDK's `ClientCapabilitiesSchema` surely accepts (anything else: the SDK decides). */
function plainCapabilities(c: unknown): boolean {
  if (!isPlainObject(c)) return false;
  const record = (v: unknown) => isPlainObject(v) && Object.values(v).every(isObjectLike);
  return (
    optional(c.roots, (r) => isPlainObject(r) && optional(r.listChanged, (x) => typeof x === "boolean")) &&
    optional(c.sampling, (s) => isPlainObject(s) && optional(s.context, isObjectLike) && optional(s.tools, isObjectLike)) &&
    optional(c.elicitation, (e) => isPlainObject(e) && Object.keys(e).length === 0) &&
    optional(c.experimental, record) &&
    optional(c.extensions, record) &&
    c.tasks === undefined
  );
}

/** `clientInfo` that the SDK's `ImplementationSchema` surely accepts. */
function plainClientInfo(i: unknown): boolean {
  return (
    isPlainObject(i) &&
    isString(i.name) &&
    isString(i.version) &&
    optional(i.title, isString) &&
    optional(i.websiteUrl, isString) &&
    optional(i.description, isString) &&
    i.icons === undefined
  );
}

/**
 * The protocol version the client asked for, when the params are a plain initialize the SDK surely accepts
 * (`_meta` was checked with the message); undefined sends the request to the SDK.
 */
export function fastProtocolVersion(params: unknown): string | undefined {
  if (!isPlainObject(params) || params.task !== undefined || !isString(params.protocolVersion)) return undefined;
  if (!plainCapabilities(params.capabilities) || !plainClientInfo(params.clientInfo)) return undefined;
  return params.protocolVersion as string;
}

/** The `initialize` result, as the SDK's `Server` builds it (same members, same order). */
export function initializeResult(requestedVersion: string, version: string): Record<string, unknown> {
  return {
    protocolVersion: SUPPORTED_PROTOCOL_VERSIONS.includes(requestedVersion) ? requestedVersion : LATEST_PROTOCOL_VERSION,
    capabilities: { tools: { ...SERVER_CAPABILITIES.tools }, resources: { ...SERVER_CAPABILITIES.resources }, prompts: { ...SERVER_CAPABILITIES.prompts } },
    serverInfo: { name: SERVER_NAME, version },
    instructions: INSTRUCTIONS,
  };
}
