/**
 * capsule-v1 §14 items 65–71: the OpenTimestamps detached envelope walk (§9). Each case replaces P's
 * `anchor-proof`, fixes its sha256/size and rehashes, then reads the anchor item.
 */
import { describe, expect, test } from "vitest";
import { sha256Bytes } from "../../../src/hash.js";
import { verifyOtsEnvelope } from "../../../capsules/capsule/ots.js";
import type { AnchorItem } from "../../../capsules/capsule/report.js";
import { describeShared } from "../../helpers/shared.js";
import { inlineBytes, rehash, replaceInline, vector, verify } from "./helpers.js";

const MAGIC = Buffer.from("004f70656e54696d657374616d7073000050726f6f6600bf89e2e884e89294", "hex");
const PENDING = Buffer.from("83dfe30d2ef90c8e", "hex");
const BITCOIN = Buffer.from("0588960d73d71901", "hex");
const LITECOIN = Buffer.from("06869a0d73d71b45", "hex");
const UNKNOWN = Buffer.from("0102030405060708", "hex");

function varuint(n: number): Buffer {
  const out: number[] = [];
  do {
    let b = n % 128;
    n = Math.floor(n / 128);
    if (n > 0) b |= 0x80;
    out.push(b);
  } while (n > 0);
  return Buffer.from(out);
}
const varbytes = (b: Buffer) => Buffer.concat([varuint(b.length), b]);
const cat = (...parts: (Buffer | number[])[]) => Buffer.concat(parts.map((p) => (Buffer.isBuffer(p) ? p : Buffer.from(p))));
const leaf = (tag: Buffer, payload: Buffer) => cat([0x00], tag, varbytes(payload));
const UNKNOWN_LEAF = leaf(UNKNOWN, Buffer.alloc(0));
const append = (n: number) => cat([0xf0], varbytes(Buffer.alloc(n, 0x61)));

const anchorInput = () => inlineBytes(vector("P"), 1);
const goldenProof = () => inlineBytes(vector("P"), 2);
/** magic ‖ 01 ‖ 08 ‖ sha256(anchor input). */
const H = () => cat(MAGIC, [0x01, 0x08], Buffer.from(sha256Bytes(anchorInput())));

function anchorWith(proof: Buffer): AnchorItem {
  const cap = vector("P");
  replaceInline(cap, 2, proof);
  const r = verify(rehash(cap));
  expect(r.artifacts.status).toBe("verified");
  expect(r.ledger.status).toBe("entry_membership_verified");
  return r.anchor.items[0];
}

const outcome = (item: AnchorItem) => (item.status === "envelope_bound" ? item.structure : item.problems[0]);

describeShared("§14.65–67 envelope framing", () => {
  test("the golden proof: 31 nodes, 3 attestations, 543 bytes", () => {
    expect(goldenProof().length).toBe(543);
    expect(verifyOtsEnvelope(goldenProof(), anchorInput())).toEqual({ nodes: 31, attestations: 3 });
  });

  test("§14.65 one bit of the subject flipped", () => {
    const p = goldenProof();
    p[40] ^= 0x01;
    expect(outcome(anchorWith(p))).toBe("detached OpenTimestamps envelope commits to a different anchor input");
  });

  test("§14.66 H alone, version 02, hash op 02", () => {
    const notOts = "detached envelope is not a complete OpenTimestamps v1 SHA-256 serialization";
    const item = anchorWith(H());
    expect(item).toEqual({ id: "reading-membership", index: 0, status: "failed", problems: [notOts], cryptographic_timestamp: "not_verified" });
    const v2 = goldenProof();
    v2[31] = 0x02;
    expect(outcome(anchorWith(v2))).toBe(notOts);
    const op2 = goldenProof();
    op2[32] = 0x02;
    expect(outcome(anchorWith(op2))).toBe(notOts);
    const magic = goldenProof();
    magic[1] = 0x6f;
    expect(outcome(anchorWith(magic))).toBe(notOts);
  });

  test("§14.67 trailing bytes and truncation", () => {
    expect(outcome(anchorWith(cat(goldenProof(), [0x00])))).toBe("detached OpenTimestamps envelope has trailing bytes");
    expect(outcome(anchorWith(goldenProof().subarray(0, 542)))).toBe("detached OpenTimestamps envelope is truncated");
    expect(outcome(anchorWith(cat(H(), [0x08])))).toBe("detached OpenTimestamps envelope is truncated");
  });

  test("a tree without any leaf is truncated (every complete tree ends in attestations)", () => {
    expect(outcome(anchorWith(cat(H(), [0xf2])))).toBe("detached OpenTimestamps envelope is truncated");
  });
});

describeShared("§14.68–69 operations, forks, limits", () => {
  test("§14.68 append 2016 then hexlify of 2048 bytes", () => {
    expect(outcome(anchorWith(cat(H(), append(2016), [0xf3], UNKNOWN_LEAF)))).toEqual({ nodes: 3, attestations: 1 });
  });
  test("§14.68 append 4065 → result exceeds 4096", () => {
    expect(outcome(anchorWith(cat(H(), append(4065), UNKNOWN_LEAF)))).toBe("OpenTimestamps operation result exceeds 4096 bytes");
  });
  test("§14.68 append 2017 then hexlify", () => {
    expect(outcome(anchorWith(cat(H(), append(2017), [0xf3], UNKNOWN_LEAF)))).toBe("OpenTimestamps hexlify input exceeds 2048 bytes");
  });
  test("§14.68 append of length 0 / 4097", () => {
    expect(outcome(anchorWith(cat(H(), [0xf0, 0x00], UNKNOWN_LEAF)))).toBe("OpenTimestamps byte string is shorter than allowed");
    expect(outcome(anchorWith(cat(H(), append(4097), UNKNOWN_LEAF)))).toBe("OpenTimestamps length exceeds the v1 limit");
  });
  test("§14.68 unknown operation tags", () => {
    expect(outcome(anchorWith(cat(H(), [0x04], UNKNOWN_LEAF)))).toBe("unknown OpenTimestamps operation tag 0x04");
    expect(outcome(anchorWith(cat(H(), [0xff, 0xff], UNKNOWN_LEAF)))).toBe("unknown OpenTimestamps operation tag 0xff");
  });
  test("the other operations: prepend, sha1, ripemd160, keccak256, reverse", () => {
    const ops = cat([0xf1], varbytes(Buffer.from("x")), [0x02], [0x03], [0x67], [0xf2], [0x08]);
    expect(outcome(anchorWith(cat(H(), ops, UNKNOWN_LEAF)))).toEqual({ nodes: 7, attestations: 1 });
  });
  test("§14.69 a fork: each branch sees the same message length", () => {
    const ok = cat(H(), [0xff], append(2016), [0xf3], UNKNOWN_LEAF, [0xf3], UNKNOWN_LEAF);
    expect(outcome(anchorWith(ok))).toEqual({ nodes: 5, attestations: 2 });
    const bad = cat(H(), [0xff], append(2017), [0xf3], UNKNOWN_LEAF, [0xf3], UNKNOWN_LEAF);
    expect(outcome(anchorWith(bad))).toBe("OpenTimestamps hexlify input exceeds 2048 bytes");
  });
  test("§14.69 depth: 64 nested operations pass, 65 do not; forks add no depth", () => {
    const ops = (n: number) => Buffer.alloc(n, 0x08);
    expect(outcome(anchorWith(cat(H(), [0xff], ops(64), UNKNOWN_LEAF, UNKNOWN_LEAF)))).toEqual({ nodes: 66, attestations: 2 });
    expect(outcome(anchorWith(cat(H(), [0xff], ops(65), UNKNOWN_LEAF, UNKNOWN_LEAF)))).toBe(
      "OpenTimestamps tree exceeds the v1 depth limit",
    );
    const manyForks = cat(H(), ...Array.from({ length: 100 }, () => cat([0xff], UNKNOWN_LEAF)), UNKNOWN_LEAF);
    expect(outcome(anchorWith(manyForks))).toEqual({ nodes: 101, attestations: 101 });
  });
  test("§14.69 more than 2,048 nodes", () => {
    const forks = (n: number) => cat(H(), ...Array.from({ length: n }, () => cat([0xff], UNKNOWN_LEAF)), UNKNOWN_LEAF);
    expect(outcome(anchorWith(forks(2047)))).toEqual({ nodes: 2048, attestations: 2048 });
    expect(outcome(anchorWith(forks(2048)))).toBe("OpenTimestamps tree exceeds the v1 node limit");
  });
});

describeShared("§14.70–71 attestations", () => {
  const withLeaf = (l: Buffer) => outcome(anchorWith(cat(H(), l)));
  const one = { nodes: 1, attestations: 1 };

  test("§14.70 pending, Bitcoin and Litecoin leaves", () => {
    expect(withLeaf(leaf(PENDING, varbytes(Buffer.from("https://calendar.example"))))).toEqual(one);
    expect(withLeaf(leaf(BITCOIN, varuint(900000)))).toEqual(one);
    expect(withLeaf(leaf(LITECOIN, varuint(3000000)))).toEqual(one);
    expect(withLeaf(leaf(PENDING, varbytes(Buffer.alloc(0))))).toEqual(one);
  });
  test("§14.70 trailing bytes inside known payloads", () => {
    expect(withLeaf(leaf(PENDING, cat(varbytes(Buffer.from("https://calendar.example")), [0x00])))).toBe(
      "OpenTimestamps pending attestation payload has trailing bytes",
    );
    expect(withLeaf(leaf(BITCOIN, cat(varuint(900000), [0x00])))).toBe("OpenTimestamps Bitcoin attestation payload has trailing bytes");
    expect(withLeaf(leaf(LITECOIN, cat(varuint(3000000), [0x00])))).toBe("OpenTimestamps Litecoin attestation payload has trailing bytes");
  });
  test("§14.70 pending URIs", () => {
    expect(withLeaf(leaf(PENDING, varbytes(Buffer.from("https://calendar.example/?query"))))).toBe(
      "OpenTimestamps pending attestation URI is invalid",
    );
    expect(withLeaf(leaf(PENDING, varbytes(Buffer.from("https://calendär.example"))))).toBe(
      "OpenTimestamps pending attestation URI is invalid",
    );
    expect(withLeaf(leaf(PENDING, varbytes(Buffer.alloc(1001, 0x61))))).toBe("OpenTimestamps length exceeds the v1 limit");
    expect(withLeaf(leaf(PENDING, varbytes(Buffer.alloc(1000, 0x61))))).toEqual(one);
  });
  test("§14.70 varuints", () => {
    expect(withLeaf(leaf(BITCOIN, Buffer.from([0x81, 0x00])))).toBe("OpenTimestamps varuint is not minimally encoded");
    expect(withLeaf(leaf(LITECOIN, Buffer.alloc(0)))).toBe("detached OpenTimestamps envelope is truncated");
    expect(withLeaf(leaf(BITCOIN, cat(Buffer.alloc(10, 0xff), [0x01])))).toBe("OpenTimestamps varuint exceeds the v1 limit");
    expect(withLeaf(leaf(BITCOIN, cat(Buffer.alloc(9, 0xff), [0x7f])))).toEqual(one);
    expect(withLeaf(leaf(BITCOIN, Buffer.from([0x00])))).toEqual(one);
  });
  test("§14.70 a non-minimal length prefix", () => {
    expect(withLeaf(cat([0x00], UNKNOWN, [0x80, 0x00]))).toBe("OpenTimestamps varuint is not minimally encoded");
  });
  test("§14.71 unknown attestation kinds are opaque", () => {
    expect(withLeaf(leaf(UNKNOWN, cat([0x80], Buffer.from("not-a-known-payload"))))).toEqual(one);
    expect(withLeaf(leaf(UNKNOWN, Buffer.alloc(8192)))).toEqual(one);
    expect(withLeaf(leaf(UNKNOWN, Buffer.alloc(8193)))).toBe("OpenTimestamps length exceeds the v1 limit");
  });
  test("§14.71 a proof over 1 MiB", () => {
    const big = cat(H(), leaf(UNKNOWN, Buffer.alloc(10)), Buffer.alloc(1_048_576));
    expect(outcome(anchorWith(big))).toBe("detached OpenTimestamps envelope exceeds the v1 byte limit");
  });
});

describe("verifyOtsEnvelope units", () => {
  test("the subject is the exact anchor input", () => {
    const subject = Buffer.from("anything\n");
    const h = cat(MAGIC, [0x01, 0x08], Buffer.from(sha256Bytes(subject)));
    expect(verifyOtsEnvelope(cat(h, UNKNOWN_LEAF), subject)).toEqual({ nodes: 1, attestations: 1 });
    expect(() => verifyOtsEnvelope(cat(h, UNKNOWN_LEAF), Buffer.from("anything"))).toThrow(
      "detached OpenTimestamps envelope commits to a different anchor input",
    );
  });
});
