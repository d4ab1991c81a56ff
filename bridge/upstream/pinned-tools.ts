/**
 * The seven public tools of the hosted tool server and their pinned input schemas (product.md §9).
 *
 * Six schemas are the ones the reference 1.9.0 server serves in tools/list (hosted-tool-server.md §3.6–§3.11);
 * research_catalog's comes from the interface specification (§9: `offset` integer 0–1000, `limit` integer 1–25
 * and optional, so `offset` is pinned as required). The bridge lists these tools even when the upstream is
 * unreachable, and never exposes a wider schema than the one pinned here. Descriptions are our own neutral
 * summaries (no host names compiled in); they are what clients see, whatever the upstream declares (issue 11).
 */

export const PUBLIC_TOOL_NAMES = [
  "research_catalog",
  "list_signals",
  "get_signal",
  "get_newsroom",
  "query_economic_observations",
  "whats_happening",
  "gfw_reading",
] as const;

export type PublicToolName = (typeof PUBLIC_TOOL_NAMES)[number];

export function isPublicToolName(name: unknown): name is PublicToolName {
  return typeof name === "string" && (PUBLIC_TOOL_NAMES as readonly string[]).includes(name);
}

export interface PinnedTool {
  readonly name: PublicToolName;
  readonly title: string;
  readonly description: string;
  readonly inputSchema: Readonly<Record<string, unknown>>;
}

const NO_ARGUMENTS = { type: "object", properties: {}, additionalProperties: false };

const dimension = (what: string) => ({ type: "string", minLength: 1, maxLength: 256, description: `exact ${what} filter` });

const PINNED: Record<PublicToolName, PinnedTool> = {
  research_catalog: {
    name: "research_catalog",
    title: "Research catalog",
    description:
      "Pages the complete editorial registry: dataset availability and source clocks, with each dataset's cadence, coverage limits and reuse terms.",
    inputSchema: {
      type: "object",
      properties: {
        offset: { type: "integer", minimum: 0, maximum: 1000 },
        limit: { type: "integer", minimum: 1, maximum: 25 },
      },
      required: ["offset"],
      additionalProperties: false,
    },
  },
  list_signals: {
    name: "list_signals",
    title: "List published signals",
    description:
      "Lists every published signal with its scope, current source URL and independent status. Takes no arguments; call it first, then get_signal.",
    inputSchema: NO_ARGUMENTS,
  },
  get_signal: {
    name: "get_signal",
    title: "One signal's full reading",
    description:
      "Returns one signal's full latest reading with its timestamp, provenance, row caps and labelled untrusted third-party text.",
    inputSchema: {
      type: "object",
      properties: {
        name: {
          type: "string",
          description:
            "signal name from list_signals, e.g. 'ooni-gfw', 'eval-registry', 'eval-assurance', 'eval-journal', 'eval-findings', 'gfi-transcripts' or 'refusal-drift'",
        },
        max_rows: {
          type: "integer",
          minimum: 1,
          maximum: 500,
          default: 25,
          description:
            "cap on long row arrays (dataset, ranked, samples). Default 25 keeps a call small enough not to stall a tool loop; the generative-firewall-index dataset is 132 rows. Any cap applied is reported in the response with the true total, never silently.",
        },
      },
      required: ["name"],
      additionalProperties: false,
    },
  },
  get_newsroom: {
    name: "get_newsroom",
    title: "Evidence and reporting desks",
    description:
      "Reads the newsroom, wire, economic pulse, machine analysis and abstentions, investigations, editorial gates or interconnection view; publication state and citations stay attached.",
    inputSchema: {
      type: "object",
      properties: {
        view: {
          type: "string",
          enum: ["newsroom", "wire", "economy", "machine-analysis", "investigations", "editorial-readiness", "interconnection"],
          default: "newsroom",
        },
        limit: { type: "integer", minimum: 1, maximum: 50, default: 10 },
        status: { type: "string", description: "optional exact status filter for story/case views" },
        priority: { type: "string", description: "optional exact priority filter for the newsroom view" },
      },
      additionalProperties: false,
    },
  },
  query_economic_observations: {
    name: "query_economic_observations",
    title: "Query China economic observations",
    description:
      "Filters the fixed aggregate China economic ledger point-in-time after checking its bytes, SHA-256 and record count against the fixed manifest; scope and limitations stay attached.",
    inputSchema: {
      type: "object",
      properties: {
        series_id: dimension("series_id"),
        source_id: dimension("source_id"),
        geography: dimension("geography"),
        sector: dimension("sector"),
        firm_size: dimension("firm_size"),
        ownership: dimension("ownership"),
        as_of: {
          type: "string",
          format: "date-time",
          description: "point-in-time cutoff applied to BOTH released_at and collected_at; omitted means the full published ledger",
        },
        period_start: { type: "string", format: "date", description: "inclusive lower bound on observation period_start" },
        period_end: { type: "string", format: "date", description: "inclusive upper bound on observation period_end" },
        released_from: { type: "string", format: "date-time", description: "inclusive lower bound on released_at" },
        released_to: { type: "string", format: "date-time", description: "inclusive upper bound on released_at" },
        revision_view: {
          type: "string",
          enum: ["all", "latest-as-of"],
          default: "latest-as-of",
          description: "all visible vintages, or the newest knowable revision per source/series/slice/period",
        },
        limit: { type: "integer", minimum: 1, maximum: 100, default: 25 },
        cursor: { type: "string", minLength: 1, maxLength: 1024, description: "opaque next_cursor from the preceding page" },
      },
      additionalProperties: false,
    },
  },
  whats_happening: {
    name: "whats_happening",
    title: "Cross-signal board verdict",
    description:
      "Returns the board's multiplicity-aware verdict across the censorship signals, with coverage failures separated from findings. Takes no arguments.",
    inputSchema: NO_ARGUMENTS,
  },
  gfw_reading: {
    name: "gfw_reading",
    title: "Great Firewall: both layers",
    description: "Returns network-level blocking beside model-layer censorship, without merging the two. Takes no arguments.",
    inputSchema: NO_ARGUMENTS,
  },
};

function deepFreeze<T>(v: T): T {
  if (v && typeof v === "object") {
    for (const x of Object.values(v as Record<string, unknown>)) deepFreeze(x);
    Object.freeze(v);
  }
  return v;
}

/** Pinned definitions, frozen. */
export const PINNED_TOOLS: Readonly<Record<PublicToolName, PinnedTool>> = deepFreeze(PINNED);

/** A deep, mutable copy of a pinned input schema (for callers that hand schemas to libraries that mutate). */
export function pinnedSchemaCopy(name: PublicToolName): Record<string, unknown> {
  return structuredClone(PINNED_TOOLS[name].inputSchema) as Record<string, unknown>;
}
