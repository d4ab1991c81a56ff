/**
 * Egress guard (product.md §2 and §9): a public tool call whose arguments contain a private value (an exact IOC
 * value or a message hash from the private store) is refused before anything is sent upstream.
 *
 * Matching is a case-insensitive substring test over every string, object key and number text in the arguments.
 * Invisible format characters (general category Cf, e.g. zero-width spaces) are ignored on both sides, so they
 * cannot be used to split a value. The refusal reason never contains the value, the matching text or the key.
 */

export type EgressVerdict = { ok: true } | { ok: false; reason: string };

export interface EgressSecrets {
  values: string[];
}

const FORMAT_CHARS = /\p{Cf}/gu;

function fold(s: string): string {
  return s.replace(FORMAT_CHARS, "").toLowerCase();
}

/** Collects every string, key and number text of a JSON-like value (iteratively; cycles are visited once). */
function texts(root: unknown): string[] {
  const out: string[] = [];
  const stack: unknown[] = [root];
  const seen = new Set<object>();
  while (stack.length > 0) {
    const v = stack.pop();
    if (typeof v === "string") out.push(v);
    else if (typeof v === "number" || typeof v === "bigint") out.push(String(v));
    else if (v instanceof Map) {
      if (seen.has(v)) continue;
      seen.add(v);
      for (const [k, x] of v) {
        stack.push(k, x);
      }
    } else if (typeof v === "object" && v !== null) {
      if (seen.has(v)) continue;
      seen.add(v);
      if (Array.isArray(v)) stack.push(...v);
      else
        for (const [k, x] of Object.entries(v)) {
          out.push(k);
          stack.push(x);
        }
    }
  }
  return out;
}

/**
 * Refuses arguments that contain any of the private values. Empty (or format-character-only) private values are
 * ignored: they would match everything.
 */
export function checkEgress(args: unknown, secrets: EgressSecrets): EgressVerdict {
  const needles = secrets.values.map(fold).filter((s) => s.trim() !== "");
  if (needles.length === 0) return { ok: true };
  const haystacks = texts(args).map(fold);
  for (const h of haystacks) {
    for (const n of needles) {
      if (h.includes(n)) {
        return {
          ok: false,
          reason:
            "refused: the tool arguments contain a value from the private evidence store (an indicator or message hash); nothing was sent to the hosted server",
        };
      }
    }
  }
  return { ok: true };
}
