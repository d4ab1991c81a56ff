/**
 * Two processes appending to one review log at the same moment: the lock serialises them, so the chain neither
 * forks nor interleaves partial lines, every append lands exactly once, and when both decide the same candidates
 * exactly one decision per candidate is recorded (the other is refused as a double decision).
 */
import { spawn } from "node:child_process";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, test } from "vitest";
import { verifyReviewLog } from "../../../capsules/review/log.js";
import { scriptArgs } from "../../helpers/node-script.js";
import { repoRoot } from "../../helpers/shared.js";
import { removeHomes, tempHome } from "../feed/store-fixtures.js";
import { draft, reviewer } from "./review-fixtures.js";

const APPENDER = join(repoRoot, "test/capsules/review/fixtures/appender.ts");

afterAll(removeHomes);

interface Child {
  ready: Promise<void>;
  done: Promise<string[]>;
}

function appender(home: string, name: string, from: number, to: number): Child {
  const child = spawn(process.execPath, [...scriptArgs(APPENDER), home, name, String(from), String(to)], {
    cwd: repoRoot,
    stdio: ["ignore", "pipe", "pipe"],
  });
  let out = "";
  let err = "";
  let signalReady: () => void = () => undefined;
  const ready = new Promise<void>((resolve) => (signalReady = resolve));
  child.stdout.on("data", (c: Buffer) => {
    out += c.toString("utf8");
    if (out.startsWith("ready\n")) signalReady();
  });
  child.stderr.on("data", (c: Buffer) => (err += c.toString("utf8")));
  const done = new Promise<string[]>((resolve, reject) =>
    child.on("exit", (code) => {
      if (code === 0 && out.endsWith("done\n")) resolve(out.split("\n").slice(1, -2));
      else reject(new Error(`appender ${name} exited ${code}: ${err.slice(0, 2000)}`));
    }),
  );
  return { ready: Promise.race([ready, done.then(() => undefined)]), done };
}

async function race(home: string, a: [number, number], b: [number, number]): Promise<[string[], string[]]> {
  reviewer(home, "p1");
  reviewer(home, "p2");
  const one = appender(home, "p1", ...a);
  const two = appender(home, "p2", ...b);
  await Promise.all([one.ready, two.ready]);
  writeFileSync(join(home, "go"), "");
  return Promise.all([one.done, two.done]);
}

describe("concurrent reviewers", () => {
  test("two processes appending different decisions at once: one intact chain holding every decision once", { timeout: 60_000 }, async () => {
    const home = tempHome("race");
    const [a, b] = await race(home, [1, 40], [41, 80]);
    expect(a.every((l) => l.startsWith("ok "))).toBe(true);
    expect(b.every((l) => l.startsWith("ok "))).toBe(true);
    const v = verifyReviewLog(home);
    expect(v.error).toBeUndefined();
    expect(v.ok).toBe(true);
    expect(v.records.map((e) => e.record.seq)).toEqual(Array.from({ length: 80 }, (_, i) => i + 1));
    const digests = v.records.map((e) => e.record.candidate_sha256).sort();
    expect(digests).toEqual(Array.from({ length: 80 }, (_, i) => draft(i + 1).candidate_sha256).sort());
    const seqs = [...a, ...b].map((l) => Number(l.split("#")[1])).sort((x, y) => x - y);
    expect(seqs).toEqual(Array.from({ length: 80 }, (_, i) => i + 1));
  });

  test("two processes deciding the same candidates at once: exactly one decision per candidate", { timeout: 60_000 }, async () => {
    const home = tempHome("race");
    const [a, b] = await race(home, [1, 40], [1, 40]);
    const v = verifyReviewLog(home);
    expect(v.ok).toBe(true);
    expect(v.records).toHaveLength(40);
    expect(new Set(v.records.map((e) => e.record.candidate_sha256)).size).toBe(40);
    for (let i = 1; i <= 40; i++) {
      const outcomes = [a[i - 1], b[i - 1]].map((l) => l.split(" ")[0]).sort();
      expect(outcomes).toEqual(["ok", "refused"]);
    }
  });
});

const STALE_RACER = join(repoRoot, "test/capsules/review/fixtures/stale-racer.ts");
/** A pid above Linux's maximum pid_max (2^22): no process has it. */
const DEAD_PID = 4_194_400;

describe("deciding processes racing against a stale lock", () => {
  test("four processes, twenty rounds, each starting from a stale lock: one chain holding every acknowledged decision", { timeout: 180_000 }, async () => {
    const home = tempHome("stale-race");
    const names = ["s1", "s2", "s3", "s4"];
    const ROUNDS = 20;
    const PER = 2;
    for (const n of names) reviewer(home, n);
    const { mkdirSync, existsSync } = await import("node:fs");
    const { hostname } = await import("node:os");
    const { reviewLayout } = await import("../../../capsules/review/layout.js");
    const layout = reviewLayout(home);
    mkdirSync(layout.dir, { recursive: true, mode: 0o700 });
    const children = names.map((n, k) => {
      const child = spawn(process.execPath, [...scriptArgs(STALE_RACER), home, n, String(1000 * (k + 1)), String(ROUNDS), String(PER)], {
        cwd: repoRoot,
        stdio: ["ignore", "pipe", "pipe"],
      });
      let out = "";
      let err = "";
      child.stdout.on("data", (c: Buffer) => (out += c.toString("utf8")));
      child.stderr.on("data", (c: Buffer) => (err += c.toString("utf8")));
      const done = new Promise<string[]>((resolve, reject) =>
        child.on("exit", (code) => (code === 0 ? resolve(out.split("\n").filter((l) => l.startsWith("ok "))) : reject(new Error(`${n} exited ${code}: ${err.slice(0, 2000)}`)))),
      );
      return { done, ready: () => out.startsWith("ready\n") };
    });
    const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
    while (!children.every((c) => c.ready())) await sleep(20);
    for (let r = 1; r <= ROUNDS; r++) {
      // A lock left by a process killed while holding it: every racer must break it, and only one may win.
      writeFileSync(layout.lock, JSON.stringify({ pid: DEAD_PID, host: hostname(), token: `dead-${r}`, created: Date.now() }));
      writeFileSync(join(home, `round-${r}`), "");
      while (!names.every((n) => existsSync(join(home, `done-${r}-${n}`)))) await sleep(10);
    }
    const acknowledged = (await Promise.all(children.map((c) => c.done))).flat();
    expect(acknowledged).toHaveLength(names.length * ROUNDS * PER);
    const v = verifyReviewLog(home);
    expect(v.error).toBeUndefined();
    expect(v.ok).toBe(true);
    expect(v.records).toHaveLength(acknowledged.length);
    const bySeq = new Map(v.records.map((e) => [e.record.seq, e.record.candidate_sha256]));
    for (const line of acknowledged) {
      const [, i, seq] = /^ok (\d+) #(\d+)$/.exec(line)!;
      expect(bySeq.get(Number(seq))).toBe(draft(Number(i)).candidate_sha256);
    }
  });
});
