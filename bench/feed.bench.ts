/**
 * `feed` over 1,000 stored capsules (product.md §11: ≤ 500 ms cold, ≤ 150 ms warm; the reference feed takes about
 * 6.7 s over as many plaintext capsules). Whole process: the published bin (the bundle when built), NODE_EXTRA_CA_CERTS
 * unset, output to /dev/null. "Cold": the store has no derivation cache (removed before every run, untimed), so every
 * capsule is opened, parsed and derived; "warm": the cache the previous run saved is read (issue 14 item 6: a read of
 * sealed rows). Issue 11: the outward guard's share of a cold feed in process (warm JIT), measured by timing the
 * guard's entry points (guard-share.ts). Synthetic but valid assessment capsules: example 03 of ../shared with varied
 * `created_at` (and so recomputed `assessment_id`s and distinct capsule ids) and distinct private values (message
 * hash, pseudonym, IOCs: {@link distinctValues}), built with the project's adapter and sealed into a temporary store. Skipped with a note when ../shared (or EVIDENCE_BRIDGE_PACK) is missing.
 *
 * The project machine is shared: next to the wall time, the one-process rows report the feed process's CPU time
 * (user + system, all its threads; Linux) and the 1-minute load average, so runs under different load compare.
 */
import { spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import { performance } from "node:perf_hooks";
import { dirname, join, resolve } from "node:path";
import { Readable, Writable } from "node:stream";
import { fileURLToPath } from "node:url";
import { assessmentContent, REFERENCE_PRODUCER } from "../capsules/assessment/adapter.js";
import { computeAssessmentId } from "../capsules/assessment/assessment-id.js";
import { pythonJsonText } from "../capsules/assessment/json-text.js";
import type { Assessment } from "../capsules/assessment/types.js";
import { buildCapsule } from "../capsules/capsule/build.js";
import { openOrCreateStore } from "../capsules/store/store.js";
import { main } from "../bridge/cli/main.js";
import { canonicalText } from "../src/json/canonical.js";
import { parseStrictJson } from "../src/json/parse.js";
import type { JsonObject, JsonValue } from "../src/json/value.js";
import { OUTCOMES_NAME, PENDING_DIR, VALUES_NAME } from "../capsules/store/derivation-cache.js";
import { forgetGuardCaches } from "../capsules/guard/outward-guard.js";
import { guardShareRow, installGuardMeter } from "./guard-share.js";
import { atMost, median, peakRssMb, userEnv, type BenchResult } from "./harness.js";
import { openCapsuleBytes } from "../capsules/pipeline/open.js";

const CAPSULES = 1000;
const TARGET_MS = 500;
const WARM_TARGET_MS = 150;
export const EXAMPLE = "03-usdt-inr-kitchen-sink-iocs.json";

function repoRoot(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  while (!existsSync(join(dir, "package.json")) && dirname(dir) !== dir) dir = dirname(dir);
  return dir;
}

export function sharedData(...parts: string[]): string {
  return resolve(repoRoot(), "..", "shared", "data", ...parts);
}

/** `2026-08-20T09:21:03.300009Z` plus `i` times 97 seconds, keeping the microsecond form of the producer. */
function createdAt(i: number): string {
  const t = new Date(Date.UTC(2026, 7, 20, 9, 21, 3) + i * 97_000).toISOString();
  return `${t.slice(0, 19)}.${String(300009 + i).padStart(6, "0").slice(-6)}Z`;
}

/** `value` with member `key` replaced (a copy; JSON objects are Maps). */
function withMember(value: JsonObject, key: string, member: JsonValue): JsonObject {
  const copy = new Map(value);
  copy.set(key, member);
  return copy;
}

/**
 * The private values of capsule `i`, distinct per capsule as in a real store (the outward guard folds each
 * distinct value once): the message hash, the source pseudonym, and the handle, phones, channel, e-mail, URL and
 * hex wallet, each changed in a way the format allows. The base58 and bech32 wallets keep their checksummed
 * values (the same wallets seen in many messages).
 */
function distinctValues(template: JsonObject, i: number): JsonObject {
  const h = createHash("sha256").update(`synthetic capsule ${i}`).digest("hex");
  const n = String(i).padStart(5, "0");
  const detector = template.get("detector") as JsonObject;
  const iocs = new Map([
    ["channels", [`t.me/usdt_inr_rates_${n}`]],
    ["emails", [`ops${n}@usdt-desk.example`]],
    ["handles", [`@usdt_kitchen_${n}`]],
    ["phones", [`+91 98765 ${n}`, `91234${n}`]],
    ["urls", [`https://usdt-inr-desk.example/rates/${n}`]],
    ["wallets", ((detector.get("iocs") as JsonObject).get("wallets") as string[]).map((w) => (w.startsWith("0x") ? `0x${h.slice(0, 40)}` : w))],
  ]) as JsonObject;
  const collection = withMember(template.get("collection") as JsonObject, "source_pseudonym", h.slice(40, 64));
  return withMember(withMember(withMember(template, "message_sha256", createHash("sha256").update(h).digest("hex")), "collection", collection), "detector", withMember(detector, "iocs", iocs));
}

/** The capsule file bytes (canonical envelope + LF) and id of synthetic capsule `i`. */
export function syntheticCapsule(template: JsonObject, i: number): { bytes: Uint8Array; id: string } {
  const doc = new Map(distinctValues(template, i));
  doc.set("created_at", createdAt(i));
  doc.set("assessment_id", computeAssessmentId(doc));
  const text = pythonJsonText(doc);
  const bytes = new TextEncoder().encode(text);
  const capsule = buildCapsule(assessmentContent(bytes, JSON.parse(text) as Assessment, REFERENCE_PRODUCER));
  const file = `${canonicalText({ attestations: capsule.attestations, content: capsule.content, content_sha256: capsule.content_sha256 }, "capsule")}\n`;
  return { bytes: new TextEncoder().encode(file), id: capsule.content_sha256 };
}

/** How to run the CLI: the published bundle, else the compiled bin.js, or bin.ts through tsx when run from sources. */
export function cliCommand(): string[] {
  const bundle = join(repoRoot(), "dist", "bundle", "bin.js");
  if (existsSync(bundle)) return [bundle];
  const fromSource = import.meta.url.endsWith(".ts");
  const bin = fileURLToPath(new URL(`../bridge/cli/bin.${fromSource ? "ts" : "js"}`, import.meta.url));
  return fromSource ? ["--import", "tsx", bin] : [bin];
}

/** CPU seconds (user + system) used so far by this process's waited-for children, or undefined off Linux. */
function childCpuSeconds(): number | undefined {
  try {
    const stat = readFileSync("/proc/self/stat", "utf8");
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    // Fields 16 and 17 of proc(5) (cutime, cstime), in clock ticks of 1/100 s on Linux.
    return (Number(fields[13]) + Number(fields[14])) / 100;
  } catch {
    return undefined;
  }
}

export function nullSink(): { stream: Writable; bytes: () => number; lines: () => number } {
  let bytes = 0;
  let lines = 0;
  const stream = new Writable({
    write(chunk: Buffer, _enc, cb) {
      bytes += chunk.length;
      for (const b of chunk) if (b === 0x0a) lines++;
      cb();
    },
  });
  return { stream, bytes: () => bytes, lines: () => lines };
}

export async function benchFeed(): Promise<BenchResult[]> {
  const packFile = process.env.EVIDENCE_BRIDGE_PACK ?? sharedData("intelligence-pack", "intelligence-pack-v1.json");
  const example = sharedData("bridge-examples", "valid", EXAMPLE);
  if (!existsSync(packFile) || !existsSync(example)) {
    process.stderr.write("bench feed: ../shared/data (pack and example assessment) not found; skipped\n");
    return [];
  }
  const template = parseStrictJson(readFileSync(example)) as JsonObject;
  const home = mkdtempSync(join(tmpdir(), "eb-bench-feed-"));
  try {
    const store = await openOrCreateStore({ home, passphrase: undefined });
    for (let start = 0; start < CAPSULES; start += 500) {
      const batch = [];
      for (let i = start; i < Math.min(CAPSULES, start + 500); i++) {
        const c = syntheticCapsule(template, i);
        batch.push(openCapsuleBytes(c.bytes, "bench capsule", c.id));
      }
      store.putCapsules(batch);
    }
    const dropCache = () => {
      for (const n of [OUTCOMES_NAME, VALUES_NAME, PENDING_DIR]) rmSync(join(store.layout.root, n), { recursive: true, force: true });
    };
    let last = { code: -1, bytes: 0, lines: 0, stderr: "" };
    const runFeed = async () => {
      const out = nullSink();
      const err: Buffer[] = [];
      const stderr = new Writable({
        write(c, _e, cb) {
          err.push(Buffer.from(c));
          cb();
        },
      });
      const code = await main(["--home", home, "--pack", packFile, "feed"], { stdin: Readable.from([]), stdout: out.stream, stderr, env: {} });
      last = { code, bytes: out.bytes(), lines: out.lines(), stderr: Buffer.concat(err).toString("utf8") };
    };
    // In process, cold derivations (cache dropped before each run) with warm JIT, and the guard's caches emptied as a
    // fresh process has them: the guard's share.
    const meter = installGuardMeter();
    const inProcess: number[] = [];
    const guard: number[] = [];
    try {
      for (let i = -1; i < 5; i++) {
        dropCache();
        // As in a fresh process: no value's forms and no outward text are known yet.
        forgetGuardCaches();
        meter.reset();
        const t0 = performance.now();
        await runFeed();
        if (i >= 0) {
          inProcess.push(performance.now() - t0);
          guard.push(meter.ms());
        }
      }
    } finally {
      meter.uninstall();
    }
    if (last.code !== 0 || last.lines !== CAPSULES) {
      throw new Error(`bench feed: expected ${CAPSULES} lines and exit 0, got ${last.lines} lines, exit ${last.code}: ${last.stderr.slice(0, 500)}`);
    }
    const cli = cliCommand();
    const oneProcess = (cold: boolean) => {
      const wall: number[] = [];
      const cpu: number[] = [];
      const load = loadavg()[0];
      for (let i = -1; i < 5; i++) {
        if (cold) dropCache();
        const before = childCpuSeconds();
        const t0 = performance.now();
        const r = spawnSync(process.execPath, [...cli, "--home", home, "--pack", packFile, "feed"], { stdio: ["ignore", "ignore", "pipe"], env: userEnv() });
        const t = performance.now() - t0;
        if (r.status !== 0) throw new Error(`bench feed: the feed process exited ${r.status}: ${r.stderr.toString("utf8").slice(0, 500)}`);
        const after = childCpuSeconds();
        if (i < 0) continue; // warm-up (and, warm, the run that saves the cache)
        wall.push(t);
        if (before !== undefined && after !== undefined) cpu.push(after - before);
      }
      const figures: BenchResult["figures"] = { "capsules/s": Math.round(CAPSULES / (median(wall) / 1000)) };
      if (cpu.length > 0) figures["CPU s"] = Math.round(median(cpu) * 100) / 100;
      figures["load 1m"] = Math.round(((load + loadavg()[0]) / 2) * 10) / 10;
      return { ms: median(wall), figures };
    };
    const cold = oneProcess(true);
    const warm = oneProcess(false);
    return [
      atMost(`feed over ${CAPSULES} stored capsules, one process (cold, no cache)`, cold.ms, TARGET_MS, cold.figures),
      atMost(`feed over ${CAPSULES} stored capsules, one process (warm, sealed derivation cache)`, warm.ms, WARM_TARGET_MS, warm.figures),
      guardShareRow(`feed over ${CAPSULES} stored capsules, in process (cold derivations, warm JIT): outward guard`, median(guard), median(inProcess), 10, {
        "output MB": Math.round((last.bytes / 1_048_576) * 10) / 10,
        "peak RSS MB": peakRssMb(),
      }),
    ];
  } finally {
    rmSync(home, { recursive: true, force: true });
  }
}
