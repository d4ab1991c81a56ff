/**
 * Minimized rows and the sealed row index (capsules/store/rows.ts, row-index.ts). Expected rows are computed
 * independently from the example assessments next to the example capsules.
 */
import { readdirSync, readFileSync, rmSync, statSync, unlinkSync, utimesSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, test } from "vitest";
import { rowFacts } from "../../../capsules/store/rows.js";
import { openOrCreateStore } from "../../../capsules/store/store.js";
import { loadCapsuleBytes } from "../../../capsules/capsule/load.js";
import { describeShared, readShared, sharedPath } from "../../helpers/shared.js";
import { CANARY, syntheticCapsule, tempHome } from "./synthetic.js";
import { storable } from "../../helpers/storable.js";

const homes: string[] = [];
afterAll(() => {
  for (const h of homes) rmSync(h, { recursive: true, force: true });
});
function home(tag: string): string {
  const h = tempHome(tag);
  homes.push(h);
  return h;
}

const RANK = ["CLEAN", "WATCH", "LIKELY_SCAM", "CONFIRMED_PATTERN"];
const KINDS = ["handles", "phones", "channels", "wallets", "emails", "urls"];

/** Every string value found anywhere in a parsed JSON document. */
function strings(v: unknown, out: string[] = []): string[] {
  if (typeof v === "string") out.push(v);
  else if (Array.isArray(v)) v.forEach((x) => strings(x, out));
  else if (v && typeof v === "object") Object.values(v).forEach((x) => strings(x, out));
  return out;
}

describeShared("rows of the example assessment capsules", () => {
  const dir = sharedPath("data/bridge-examples/valid");
  const names = readdirSync(dir).filter((n) => n.endsWith(".capsule.json"));

  test("tiers, families and IOC counts match the assessments; no private value appears in any row", async () => {
    expect(names.length).toBeGreaterThanOrEqual(10);
    const store = await openOrCreateStore({ home: home("examples"), passphrase: undefined });
    const forbidden: string[] = [];
    const expected = new Map<string, unknown>();
    for (const name of names) {
      const bytes = readShared("data/bridge-examples/valid", name);
      const id = JSON.parse(bytes.toString("utf8")).content_sha256 as string;
      store.putCapsule(storable(bytes, id));
      const a = JSON.parse(readShared("data/bridge-examples/valid", name.replace(".capsule.json", ".json")).toString("utf8"));
      const detector = a.detector.tier as string;
      const threat = (a.threat_assessment?.tier ?? null) as string | null;
      const overall = threat !== null && RANK.indexOf(threat) > RANK.indexOf(detector) ? threat : detector;
      expected.set(id, {
        id,
        created_at: a.created_at,
        kind: "assessment",
        tiers: { detector, threat, overall },
        families: [...new Set([...a.detector.families, ...(a.threat_assessment?.families ?? [])])].sort(),
        ioc_counts: Object.fromEntries(KINDS.map((k) => [k, (a.detector.iocs[k] ?? []).length])),
        review_status: "HUMAN_REVIEW_REQUIRED",
      });
      forbidden.push(
        a.message_sha256,
        a.assessment_id,
        ...(a.collection.source_pseudonym ? [a.collection.source_pseudonym] : []),
        ...strings(a.detector.iocs),
        ...strings(a.threat_assessment?.findings ?? []).filter((s) => s.length > 12),
        ...strings(a.hypotheses).filter((s) => s.length > 24),
      );
    }
    const rows = store.rows();
    expect(rows.length).toBe(names.length);
    for (const row of rows) expect(row).toEqual(expected.get(row.id));
    // Newest first.
    const times = rows.map((r) => Date.parse(r.created_at!));
    expect([...times].sort((x, y) => y - x)).toEqual(times);
    const text = JSON.stringify(rows);
    for (const value of forbidden) expect(text.includes(value), `row text contains ${value.slice(0, 12)}…`).toBe(false);
  });

  test("a capsule that is not an assessment gets a row of kind 'other' with only id and created_at", async () => {
    const bytes = readShared("data/capsule-v1/test-vectors/nemesis-ddti-v1.json");
    const id = JSON.parse(bytes.toString("utf8")).content_sha256 as string;
    expect(rowFacts(id, loadCapsuleBytes(bytes))).toEqual({
      id,
      created_at: JSON.parse(bytes.toString("utf8")).content.created_at,
      kind: "other",
      tiers: { detector: null, threat: null, overall: null },
      families: [],
      ioc_counts: null,
    });
  });
});

describe("closed vocabularies only", () => {
  test("unknown families are dropped, counts count distinct values, review status comes from the caller", async () => {
    const store = await openOrCreateStore({ home: home("vocab"), passphrase: undefined });
    const c = syntheticCapsule(1, "CONFIRMED_PATTERN");
    store.putCapsule(storable(c.bytes, c.id));
    const [row] = store.rows({ reviewStatus: (id) => (id === c.id ? "APPROVED_FOR_RELEASE" : undefined) });
    expect(row.families).toEqual(["ACCOUNT", "FRAUD"]);
    expect(row.tiers).toEqual({ detector: "CONFIRMED_PATTERN", threat: "WATCH", overall: "CONFIRMED_PATTERN" });
    expect(row.ioc_counts).toEqual({ handles: 1, phones: 0, channels: 0, wallets: 1, emails: 2, urls: 0 });
    expect(row.review_status).toBe("APPROVED_FOR_RELEASE");
    expect(JSON.stringify(row)).not.toContain(CANARY.handle);
    expect(JSON.stringify(row)).not.toContain(c.messageSha256);
  });
});

describe("sealed row index", () => {
  test("is written sealed, used on the next listing, and refreshed for new, changed or removed capsules", async () => {
    const store = await openOrCreateStore({ home: home("index"), passphrase: undefined });
    const [a, b, c] = [1, 2, 3].map((i) => syntheticCapsule(i));
    store.putCapsules([a, b].map((x) => storable(x.bytes, x.id)));
    const aPath = join(store.layout.capsules, `${a.id}.sealed`);
    const T = Math.floor(Date.now() / 1000) - 60; // whole seconds, so utimes can restore the time exactly
    utimesSync(aPath, T, T);
    expect(store.rows().map((r) => r.id).sort()).toEqual([a.id, b.id].sort());
    const indexPath = join(store.layout.root, "rows.sealed");
    expect(statSync(indexPath).mode & 0o777).toBe(0o600);
    expect(readFileSync(indexPath).includes(Buffer.from(a.id))).toBe(false);

    // Proof that the index is used: damage a sealed capsule but keep its size and mtime; listing still works
    // from the index, while opening the capsule fails.
    const damaged = readFileSync(aPath);
    damaged[damaged.length - 1] ^= 1;
    writeFileSync(aPath, damaged);
    utimesSync(aPath, T, T);
    expect(store.rows().length).toBe(2);
    expect(() => store.getCapsule(a.id)).toThrow(`sealed file failed authentication: store/capsules/${a.id}.sealed`);

    // A changed mtime makes the entry stale: the capsule is reopened, and its damage is reported.
    utimesSync(aPath, T, T + 5);
    expect(() => store.rows()).toThrow(`sealed file failed authentication: store/capsules/${a.id}.sealed`);
    unlinkSync(aPath);

    store.putCapsule(storable(c.bytes, c.id));
    expect(store.rows().map((r) => r.id).sort()).toEqual([b.id, c.id].sort());

    // A missing or damaged index is rebuilt silently.
    unlinkSync(indexPath);
    expect(store.rows().length).toBe(2);
    writeFileSync(indexPath, "garbage");
    expect(store.rows().length).toBe(2);
    expect(readFileSync(indexPath).subarray(0, 4).toString("latin1")).toBe("\x89EBS");
    // What a crash can leave of the unsynced index (docs/store.md "Writes"): a torn or empty file, rebuilt.
    const whole = readFileSync(indexPath);
    for (const torn of [whole.subarray(0, whole.length >> 1), Buffer.alloc(0)]) {
      writeFileSync(indexPath, torn);
      expect(store.rows().map((r) => r.id).sort()).toEqual([b.id, c.id].sort());
      expect(readFileSync(indexPath).equals(whole)).toBe(false); // rewritten (a fresh nonce), not kept
      expect(readFileSync(indexPath).length).toBe(whole.length);
    }
  });

  test("hundreds of capsules list completely and identically twice (10,000 and speed: bench/store.bench.ts)", async () => {
    const store = await openOrCreateStore({ home: home("many"), passphrase: undefined });
    const template = syntheticCapsule(0);
    const text = Buffer.from(template.bytes).toString("utf8");
    // Cheap variants: vary the subject id, recompute the id with the canonical hash (as the store checks it).
    const { canonicalBytes } = await import("../../../src/json/canonical.js");
    const { sha256Hex } = await import("../../../src/hash.js");
    const parsed = JSON.parse(text);
    const items = [];
    for (let i = 0; i < 300; i++) {
      parsed.content.subject.id = `synthetic:bulk:${i}`;
      const id = sha256Hex(canonicalBytes(parsed.content));
      parsed.content_sha256 = id;
      items.push(storable(Buffer.concat([Buffer.from(canonicalBytes(parsed, "capsule")), Buffer.from("\n")]), id));
    }
    for (let i = 0; i < items.length; i += 100) store.putCapsules(items.slice(i, i + 100));
    const rows = store.rows();
    expect(rows.length).toBe(300);
    expect(new Set(rows.map((r) => r.id)).size).toBe(300);
    expect(rows.every((r) => r.kind === "assessment" && r.ioc_counts?.emails === 2)).toBe(true);
    expect(store.rows()).toEqual(rows);
  });
});
