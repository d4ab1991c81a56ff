/** Strict parsing and canonicalisation of a ~1 MiB content object. */
import { canonicalBytes } from "../src/json/canonical.js";
import { parseStrictJson } from "../src/json/parse.js";
import { measure, type BenchResult } from "./harness.js";

/** A synthetic content object of about `targetBytes` canonical bytes, within the v1 shape limits. */
export function syntheticContent(targetBytes: number): Record<string, unknown> {
  const rows: Record<string, unknown>[] = [];
  const content: Record<string, unknown> = { spec_version: "bench", rows };
  let size = 0;
  let i = 0;
  while (size < targetBytes && rows.length < 512) {
    const row = {
      id: `row-${i}`,
      label: `Synthetic label ${i} with some text, unicode café ✓ and a quote "q"`,
      values: Array.from({ length: 40 }, (_, k) => (i * 40 + k) % 9973),
      nested: { a: i, b: `b-${i}`, c: [true, false, null], d: "x".repeat(Math.max(0, Math.ceil(targetBytes / 512) - 420)) },
    };
    rows.push(row);
    size += JSON.stringify(row).length;
    i++;
  }
  return content;
}

export async function benchJson(): Promise<BenchResult[]> {
  const content = syntheticContent(1_048_576);
  const bytes = canonicalBytes(content);
  const mib = bytes.length / 1_048_576;
  const canonMs = await measure(() => canonicalBytes(content), { runs: 9 });
  const parseMs = await measure(() => parseStrictJson(bytes), { runs: 9 });
  const parsed = parseStrictJson(bytes);
  const reCanonMs = await measure(() => canonicalBytes(parsed), { runs: 9 });
  return [
    { name: `canonicalise ${mib.toFixed(2)} MiB content (plain JS)`, median_ms: canonMs, figures: { "MB/s": mib / (canonMs / 1000) } },
    { name: `strict-parse ${mib.toFixed(2)} MiB`, median_ms: parseMs, figures: { "MB/s": mib / (parseMs / 1000) } },
    { name: `canonicalise ${mib.toFixed(2)} MiB content (parsed value)`, median_ms: reCanonMs, figures: { "MB/s": mib / (reCanonMs / 1000) } },
  ];
}
