/**
 * The result a public tool call returns when the hosted server cannot answer it (product.md §9): an isError
 * CallToolResult with `structuredContent: {status: "unavailable", reason, retryable}` and a text that always
 * carries the service's rule that missing data is not evidence of calm.
 */

export const CALM_SENTENCE = "A missing or stale measurement is not evidence of calm.";

export interface UnavailableContent {
  status: "unavailable";
  reason: string;
  retryable: boolean;
}

export interface UnavailableResult {
  isError: true;
  content: [{ type: "text"; text: string }];
  structuredContent: UnavailableContent;
}

/** Builds the unavailable result. `reason` must not contain private values (callers pass transport facts only). */
export function unavailableResult(reason: string, retryable: boolean): UnavailableResult {
  const advice = retryable ? "Trying again later may succeed." : "Trying again unchanged will not help.";
  return {
    isError: true,
    content: [{ type: "text", text: `The hosted tool server is unavailable: ${reason}. ${advice} ${CALM_SENTENCE}` }],
    structuredContent: { status: "unavailable", reason, retryable },
  };
}

/** The result of a public tool call when the bridge is offline (product.md §4): nothing was sent. */
export function offlineResult(): UnavailableResult {
  return unavailableResult(
    "offline: EVIDENCE_BRIDGE_OFFLINE (the bundle's \"Offline\" setting) or --offline is on, so nothing is sent to the hosted tool server",
    false,
  );
}

/** True for a value built by {@link unavailableResult} (or the same shape received from elsewhere). */
export function isUnavailableResult(v: unknown): v is UnavailableResult {
  if (typeof v !== "object" || v === null) return false;
  const r = v as Record<string, unknown>;
  const sc = r.structuredContent as Record<string, unknown> | undefined;
  return r.isError === true && typeof sc === "object" && sc !== null && sc.status === "unavailable" && typeof sc.reason === "string" && typeof sc.retryable === "boolean";
}
