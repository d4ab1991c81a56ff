/**
 * The content digest hashed in a helper thread: the same digest as in this thread for every shape of input (empty,
 * one chunk, many times the ring, pieces larger than a chunk, multi-byte text); the validating thread takes the
 * work back when the thread's module cannot load; an unfinished digest lets the thread end; and validation reports
 * are identical with and without the thread.
 */
import { once } from "node:events";
import { pathToFileURL } from "node:url";
import { join } from "node:path";
import { describe, expect, test } from "vitest";
import { sha256Hex } from "../../../src/hash.js";
import { CanonicalDigest } from "../../../published/regional/canonical-digest.js";
import { CHUNK_BUFFER_BYTES, CHUNK_BYTES } from "../../../published/regional/chunk-hash.js";
import { SLOT_BYTES, SLOTS } from "../../../published/regional/hash-ring.js";
import { startHashThread, type ThreadHasher } from "../../../published/regional/hash-thread.js";
import { buildSyntheticIndex } from "../../../published/regional/synthetic.js";
import { validateRegionalIndex } from "../../../published/regional/validate.js";
import { bytes, fixture, fixturesDir } from "./helpers.js";

/** Writes `pieces` through a digest over `hasher` and returns its hex. */
function digestOf(pieces: string[], hasher: ThreadHasher | undefined): string | undefined {
  const d = new CanonicalDigest(hasher);
  for (const p of pieces) d.raw(p);
  return d.hex();
}

function thread(moduleUrl?: string): ThreadHasher {
  const h = startHashThread(moduleUrl);
  expect(h).toBeDefined();
  return h!;
}

/** What the ring holds at most: SLOTS chunks of about CHUNK_BYTES. */
const ringBytes = SLOTS * CHUNK_BYTES;

const cases: [string, string[]][] = [
  ["nothing", []],
  ["one short piece", ['{"a":1}']],
  ["exactly one chunk", ["x".repeat(SLOT_BYTES / 2)]],
  ["many small pieces, several times the ring", Array.from({ length: 70_000 }, (_, i) => `{"event":${i},"text":"é漢😀${"y".repeat(i % 200)}"},`)],
  ["pieces larger than a chunk buffer", ["[", "z".repeat(3 * SLOT_BYTES + 7), ",", "漢".repeat(SLOT_BYTES), "]"]],
];

describe("hashing in a helper thread", () => {
  test("the ring is smaller than what the tests write", () => {
    expect(new TextEncoder().encode(cases[3][1].join("")).length).toBeGreaterThan(3 * ringBytes);
    expect(SLOT_BYTES).toBe(CHUNK_BUFFER_BYTES);
  });

  test.each(cases)("%s: the same digest as sha256 of the UTF-8 text", (_name, pieces) => {
    const expected = sha256Hex(pieces.join(""));
    expect(digestOf(pieces, undefined)).toBe(expected);
    const h = thread();
    expect(digestOf(pieces, h)).toBe(expected);
    expect(h.tookOver).toBe(false);
  });

  test("a thread whose module cannot load: the validating thread hashes everything itself", () => {
    const missing = pathToFileURL(join(fixturesDir, "no-such-hash-worker.js")).href;
    for (const [, pieces] of cases) {
      const h = thread(missing);
      expect(digestOf(pieces, h)).toBe(sha256Hex(pieces.join("")));
      expect(h.tookOver).toBe(true);
    }
  });

  test("a finished digest and an abandoned one both let the thread end", async () => {
    const finished = thread();
    const exitFinished = once(finished.worker, "exit");
    digestOf(cases[3][1], finished);
    await exitFinished;

    const abandoned = thread();
    const exitAbandoned = once(abandoned.worker, "exit");
    const d = new CanonicalDigest(abandoned);
    for (const p of cases[3][1].slice(0, 5000)) d.raw(p);
    d.close();
    await exitAbandoned;
  });

  test("a float leaves the digest undefined and releases the thread at once", async () => {
    const h = thread();
    const exit = once(h.worker, "exit");
    const d = new CanonicalDigest(h);
    d.raw("[1,");
    d.float();
    d.raw("2]");
    expect(d.hex()).toBeUndefined();
    await exit;
  });
});

describe("validation reports do not depend on where the hash runs", () => {
  const inputs: [string, Uint8Array | string][] = [
    ["a valid fixture", fixture("valid/gwadar.json")],
    ["a broken fixture", fixture("broken/event-topics-duplicate.json")],
    ["an index of 3,000 events", bytes(buildSyntheticIndex({ region: "bri", events: 3000 }))],
    ["a float in an event", JSON.stringify(buildSyntheticIndex({ region: "bri", events: 50 })).replace('"version_count":1', '"version_count":1.0')],
    ["a file cut inside an event", fixture("valid/bri.json").toString("utf8").slice(0, 3000)],
  ];

  test.each(inputs)("%s", (_name, input) => {
    const inline = validateRegionalIndex(input, { hashThread: false });
    expect(validateRegionalIndex(input, { hashThread: true })).toEqual(inline);
  });

  test("the large index is verified through the thread", () => {
    const report = validateRegionalIndex(inputs[2][1], { hashThread: true });
    expect(report.conforms).toBe(true);
    expect(report.content_sha256.status).toBe("verified");
  });
});
