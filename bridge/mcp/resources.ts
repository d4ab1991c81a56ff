/**
 * MCP resources (product.md §6): the five JSON readings fetched from `{base_url}/readings/…` on read (short TTL
 * cache, size cap; bridge/upstream/published-files.ts), the verified intelligence pack, and the JSON Schemas of
 * our formats. Every content item carries its facts under `_meta`: a reading its source URL, fetch time and
 * `generated_at`; the pack its digest. A reading that cannot be fetched is an error that says a missing
 * measurement is not evidence of calm.
 */
import type { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { ErrorCode, McpError, type ReadResourceResult } from "@modelcontextprotocol/sdk/types.js";
import type { PublishedFiles } from "../upstream/published-files.js";
import { CALM_SENTENCE } from "../upstream/unavailable.js";
import { FORMATS, formatJsonSchema, schemaFileText } from "./format-schemas.js";
import type { PrivateState } from "./private-state.js";

export const READINGS = [
  "board-alarm-latest.json",
  "eval-assurance-latest.json",
  "gfi-transcripts-latest.json",
  "eval-journal-latest.json",
  "eval-articles-latest.json",
] as const;

export const READING_META_KEY = "evidence-bridge/reading";
export const PACK_META_KEY = "evidence-bridge/pack";

export const readingUri = (file: string) => `evidence-bridge://readings/${file}`;
export const PACK_URI = "evidence-bridge://pack/intelligence-pack-v1.json";
export const schemaUri = (file: string) => `evidence-bridge://schemas/${file}`;

const utf8 = new TextDecoder("utf-8", { fatal: true });

export interface ResourceDeps {
  /** The published-files fetcher, or undefined when the bridge is offline. */
  published: (() => Promise<PublishedFiles>) | undefined;
  state: PrivateState;
}

async function readReading(file: string, uri: URL, signal: AbortSignal, deps: ResourceDeps): Promise<ReadResourceResult> {
  if (!deps.published) {
    throw new McpError(ErrorCode.InternalError, `reading ${file} is unavailable: offline (EVIDENCE_BRIDGE_OFFLINE, the bundle's "Offline" setting, is on), so nothing is fetched. ${CALM_SENTENCE}`);
  }
  const out = await (await deps.published()).fetch(`readings/${file}`, signal);
  if (!out.ok) {
    throw new McpError(ErrorCode.InternalError, `reading ${file} is unavailable: ${out.reason}${out.retryable ? " (trying again later may succeed)" : ""}. ${CALM_SENTENCE}`);
  }
  let text: string;
  try {
    text = utf8.decode(out.bytes);
  } catch {
    throw new McpError(ErrorCode.InternalError, `reading ${file} is unavailable: the published file is not UTF-8. ${CALM_SENTENCE}`);
  }
  return {
    contents: [
      {
        uri: uri.href,
        mimeType: "application/json",
        text,
        _meta: {
          [READING_META_KEY]: {
            source_url: out.url,
            fetched_at: out.fetchedAt,
            generated_at: out.generatedAt ?? null,
            from_cache: out.fromCache,
            bytes: out.bytes.length,
          },
        },
      },
    ],
  };
}

async function readPack(uri: URL, state: PrivateState): Promise<ReadResourceResult> {
  const { readPackBytes } = await import("../../published/pack/file.js");
  const { loadPack } = await import("../../published/pack/load.js");
  const { PackError } = await import("../../published/pack/errors.js");
  let text: string;
  let pack;
  try {
    const { file } = await state.loadPack();
    const bytes = readPackBytes(file);
    pack = loadPack(bytes); // the bytes served are the bytes verified
    text = utf8.decode(bytes);
  } catch (e) {
    if (e instanceof PackError) throw new McpError(ErrorCode.InternalError, `intelligence pack: ${e.message}`);
    throw e;
  }
  return {
    contents: [
      {
        uri: uri.href,
        mimeType: "application/json",
        text,
        _meta: { [PACK_META_KEY]: { sha256: pack.sha256, version: pack.version, generated_at: pack.generated_at, verified: true, warnings: [...pack.warnings] } },
      },
    ],
  };
}

export function registerResources(server: McpServer, deps: ResourceDeps): void {
  for (const file of READINGS) {
    server.registerResource(
      `reading ${file.replace(/\.json$/, "")}`,
      readingUri(file),
      {
        title: `Published reading ${file}`,
        description: `The latest ${file} from {base_url}/readings/, fetched on read (cached briefly); source URL, fetch time and generated_at are under _meta.`,
        mimeType: "application/json",
      },
      (uri, extra) => readReading(file, uri, extra.signal, deps),
    );
  }
  server.registerResource(
    "intelligence pack",
    PACK_URI,
    {
      title: "Verified intelligence pack",
      description: "The local intelligence pack (scamshield-intelligence-pack/v1), checked fail-closed; its SHA-256 is under _meta.",
      mimeType: "application/json",
    },
    (uri) => readPack(uri, deps.state),
  );
  for (const f of FORMATS) {
    server.registerResource(
      `schema ${f.file.replace(/\.schema\.json$/, "")}`,
      schemaUri(f.file),
      { title: `JSON Schema: ${f.title}`, description: f.description, mimeType: "application/schema+json" },
      async (uri) => ({ contents: [{ uri: uri.href, mimeType: "application/schema+json", text: schemaFileText(await formatJsonSchema(f.file)) }] }),
    );
  }
}
