/**
 * The outward guard (issue 11, product.md §11): what it adds to one proxied call when the store holds 10,000
 * capsules' private values (target ≤ 0.5 ms), what building that index costs once, its memory, and what the
 * guard costs per derived candidate (the feed runs it once per capsule).
 *
 * The calls vary (names, views, limits, a cursor) so no call is answered from the guard's cache of prepared texts
 * more than a real client's repeated argument names would be.
 */
import { randomBytes } from "node:crypto";
import { OutwardGuard } from "../capsules/guard/outward-guard.js";
import type { PrivateValue } from "../capsules/guard/private-values.js";
import { atMost, measure, type BenchResult } from "./harness.js";

const CAPSULES = 10_000;

/** The private values of one synthetic capsule, shaped like the producer's (docs/guard.md lists the kinds). */
function capsuleValues(i: number): PrivateValue[] {
  const hex = (n: number) => randomBytes(n).toString("hex");
  const word = () => randomBytes(6).toString("base64url").replace(/[-_]/g, "x").toLowerCase();
  const phone = `+91 9${String(1000 + (i % 9000)).padStart(4, "0")} ${String(10000 + ((i * 7919) % 90000))}`;
  return [
    { kind: "message_sha256", value: hex(32) },
    { kind: "source_pseudonym", value: hex(12) },
    { kind: "ioc_value", ioc: "handles", value: `@${word()}_desk` },
    { kind: "ioc_value", ioc: "phones", value: phone },
    { kind: "ioc_value", ioc: "wallets", value: `T${randomBytes(25).toString("base64").replace(/[+/=]/g, "A").slice(0, 33)}` },
    { kind: "ioc_value", ioc: "wallets", value: `0x${hex(20)}` },
    { kind: "ioc_value", ioc: "emails", value: `${word()}@${word()}.example` },
    { kind: "ioc_value", ioc: "urls", value: `https://${word()}.example/${word()}` },
    { kind: "ioc_value", ioc: "channels", value: `t.me/${word()}_${word()}` },
    { kind: "matched_term", value: `${word()} ${word()} for sale` },
    { kind: "term_hit", value: "usdt" },
    { kind: "signal_name", value: "account_rental_offer" },
    { kind: "observation_summary", value: `The exact wallet appears in case ${word()}.` },
    { kind: "observation_uri", value: `https://example.org/fixture/${word()}` },
    { kind: "observation_source", value: `analytics-${word()}` },
    { kind: "monetary_value", value: "91.97" },
  ];
}

export const CALLS: [Record<string, unknown>, Record<string, unknown> | undefined][] = [
  [{ name: "ooni-gfw", max_rows: 25 }, { progressToken: 1 }],
  [{ name: "eval-assurance", max_rows: 10 }, undefined],
  [{ view: "machine-analysis", limit: 10 }, { progressToken: "p-2" }],
  [{ view: "editorial-readiness", limit: 20, status: "published" }, undefined],
  [{ series_id: "cn-pmi-manufacturing", as_of: "2026-11-01T00:00:00Z", limit: 25 }, undefined],
  [{ offset: 0, limit: 25 }, undefined],
  [{ cursor: "eyJvZmZzZXQiOjI1LCJzZXJpZXMiOiJjbi1wbWkifQ", limit: 25 }, undefined],
  [{}, undefined],
];

export async function benchGuard(): Promise<BenchResult[]> {
  const values: PrivateValue[] = [];
  for (let i = 0; i < CAPSULES; i++) values.push(...capsuleValues(i));
  // Heap the index keeps, measured after full collections (`npm run bench` runs node with --expose-gc; RSS after
  // the earlier groups says nothing about this one).
  const gc = (globalThis as { gc?: () => void }).gc;
  gc?.();
  const heapBefore = process.memoryUsage().heapUsed;
  const t0 = performance.now();
  const guard = new OutwardGuard(values);
  const buildMs = performance.now() - t0;
  gc?.();
  const heapMb = (process.memoryUsage().heapUsed - heapBefore) / 2 ** 20;

  let n = 0;
  const batch = 200;
  const perCall = await measure(
    () => {
      for (let k = 0; k < batch; k++) {
        const [args, meta] = CALLS[n++ % CALLS.length];
        // A different number each time: the argument text is new, as in real use.
        const a = { ...args, ...(args.limit !== undefined ? { limit: 1 + (n % 25) } : {}) };
        const v = guard.checkCall(a, meta, JSON.stringify(a));
        if (!v.ok) throw new Error("bench guard: a legitimate call was refused");
      }
    },
    { runs: 9, warmup: 3 },
  );

  // Per derived candidate: a guard over one capsule's values, built and checked on a candidate-shaped object.
  const candidate = {
    schema_version: "palimpsest-scamshield-public-record/v1",
    capsule_sha256: randomBytes(32).toString("hex"),
    assessment_id: randomBytes(12).toString("hex"),
    created_at: "2026-08-20T09:00:00Z",
    detector: { tier: "CONFIRMED_PATTERN", score: 70, families: ["ACCOUNT", "RATE"] },
    hypotheses: [{ typology_id: "mule-crypto-cashout", label: "Money-mule and crypto cash-out infrastructure", support_level: "TYPOLOGY_MATCH", independent_backers: 1 }],
    origin_answer: "No source attribution can be made from this message alone.",
    limitations: ["This is an analytical lead, not a finding of criminal origin or guilt."],
  };
  let c = 0;
  const perCandidate = await measure(
    () => {
      for (let k = 0; k < batch; k++) {
        const g = new OutwardGuard(capsuleValues(c++));
        if (!g.check(candidate, "candidate").ok) throw new Error("bench guard: a clean candidate was withheld");
      }
    },
    { runs: 7, warmup: 2 },
  );

  return [
    atMost(`outward guard per proxied call (${CAPSULES.toLocaleString("en")} capsules' private values)`, perCall / batch, 0.5, {
      values: values.length,
    }),
    { name: `outward guard: index ${CAPSULES.toLocaleString("en")} capsules' private values (once per process)`, median_ms: buildMs, figures: gc ? { "heap MB kept": Math.round(heapMb) } : {} },
    { name: "outward guard per derived candidate (build over one capsule + check)", median_ms: perCandidate / batch },
  ];
}
