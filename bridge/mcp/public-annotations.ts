/** Annotations of every proxied tool: read-only (the allow-list admits nothing else), talks to the outside world. */
export const PUBLIC_ANNOTATIONS = { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: true } as const;
