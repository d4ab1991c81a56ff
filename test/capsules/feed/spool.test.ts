/** The feed's all-or-nothing buffer: key order, ties in insertion order, spilling to a private file, cleanup. */
import { existsSync, readdirSync, statSync } from "node:fs";
import { join } from "node:path";
import { Writable } from "node:stream";
import { afterAll, describe, expect, test } from "vitest";
import { LineSpool } from "../../../capsules/feed/spool.js";
import { removeHomes, tempHome } from "./store-fixtures.js";

function sink(): { stream: Writable; text: () => string } {
  const chunks: Buffer[] = [];
  const stream = new Writable({
    highWaterMark: 16,
    write(chunk, _enc, cb) {
      chunks.push(Buffer.from(chunk));
      setImmediate(cb);
    },
  });
  return { stream, text: () => Buffer.concat(chunks).toString("utf8") };
}

const enc = (s: string) => new TextEncoder().encode(s);

afterAll(removeHomes);

describe("LineSpool", () => {
  test.each([
    ["in memory", 1 << 20],
    ["spilled to a file", 10],
  ])("%s: lines come out in key order, equal keys in insertion order", async (_label, memoryBytes) => {
    const root = tempHome("spool");
    const spool = new LineSpool({ memoryBytes, tempRoot: root });
    spool.add("b", enc("b1\n"));
    spool.add("a", enc("a1\n"));
    spool.add("c", enc("c1\n"));
    spool.add("a", enc("a2\n"));
    spool.add("b", enc("b2\n"));
    expect(spool.size).toBe(5);
    expect(spool.bytes).toBe(15);
    expect(spool.spilled).toBe(memoryBytes < 15);
    const out = sink();
    await spool.writeSorted(out.stream);
    expect(out.text()).toBe("a1\na2\nb1\nb2\nc1\n");
    spool.dispose();
    expect(readdirSync(root)).toEqual([]);
  });

  test("a spilled spool keeps its lines in one 0600 file inside a 0700 directory, removed by dispose", () => {
    const root = tempHome("spool");
    const spool = new LineSpool({ memoryBytes: 4, tempRoot: root });
    spool.add("k", enc("0123456789\n"));
    const [dir] = readdirSync(root);
    expect(dir).toMatch(/^evidence-bridge-feed-/);
    expect(statSync(join(root, dir)).mode & 0o777).toBe(0o700);
    expect(statSync(join(root, dir, "lines")).mode & 0o777).toBe(0o600);
    spool.dispose();
    spool.dispose();
    expect(existsSync(join(root, dir))).toBe(false);
    expect(() => spool.add("k", enc("x\n"))).toThrow(/disposed/);
  });

  test("large outputs are written in several chunks and arrive complete", async () => {
    const spool = new LineSpool({ memoryBytes: 1000, tempRoot: tempHome("spool") });
    const expected: string[] = [];
    for (let i = 0; i < 3000; i++) {
      const line = `${String(i).padStart(5, "0")} ${"x".repeat(200)}\n`;
      expected.push(line);
    }
    for (const line of [...expected].reverse()) spool.add(line.slice(0, 5), enc(line));
    const out = sink();
    await spool.writeSorted(out.stream);
    spool.dispose();
    expect(out.text()).toBe(expected.join(""));
  });
});
