/** Fail-closed loading of intelligence-pack-v1.json (assessment-v1 §3.1, §3.2). */
import { readFileSync } from "node:fs";
import { describe, expect, test } from "vitest";
import { sha256Hex } from "../../../src/hash.js";
import { PackError } from "../../../published/pack/errors.js";
import { loadPack, MAX_PACK_BYTES, packDigest } from "../../../published/pack/load.js";
import { describeShared } from "../../helpers/shared.js";
import {
  bytesOf,
  hasPublishedPack,
  PACK_SHA256,
  PUBLISHED_PACK_PATH,
  realPack,
  realPackBytes,
  realPackObject,
} from "./helpers.js";

function loadError(bytes: Uint8Array): PackError {
  try {
    loadPack(bytes);
  } catch (e) {
    if (e instanceof PackError) return e;
    throw e;
  }
  throw new Error("expected the pack to be rejected");
}

/** Applies `mutate` to a fresh copy of the real pack and returns the load error. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
function mutated(mutate: (p: any) => void): PackError {
  const p = realPackObject();
  mutate(p);
  return loadError(bytesOf(p));
}

describeShared("the real pack", () => {
  test("loads with the documented digest, version, counts and publisher", () => {
    const bytes = realPackBytes();
    const pack = loadPack(bytes);
    expect(bytes.length).toBe(27_436);
    expect(pack.sha256).toBe(PACK_SHA256);
    expect(packDigest(bytes)).toBe(PACK_SHA256);
    expect(pack.size).toBe(27_436);
    expect(pack.schema).toBe("scamshield-intelligence-pack/v1");
    expect(pack.version).toBe("2026-08-08.2");
    expect(pack.generated_at).toBe("2026-08-08T00:00:00Z");
    expect(pack.publisher).toEqual({ name: "Palimpsest", project_url: "https://palimpsest.info" });
    expect(pack.sources).toHaveLength(18);
    expect(pack.typologies).toHaveLength(8);
    expect(new Set(pack.typologies.map((t) => t.dimension)).size).toBe(3);
    expect(pack.typologies.reduce((n, t) => n + t.indicators.length, 0)).toBe(31);
    expect(pack.typologies.map((t) => t.id)).toEqual([
      "china-underground-banking",
      "golden-triangle-scam-casino",
      "mexico-cartel-drug-proceeds",
      "illegal-wildlife-trade",
      "mule-crypto-cashout",
      "telegram-narcotics-market",
      "cyber-enabled-fraud-market",
      "scam-compound-forced-criminality",
    ]);
    expect(pack.method.support_levels).toEqual(["TYPOLOGY_MATCH", "CORROBORATED_LEAD", "DIRECT_LINK"]);
    expect(pack.method.principles).toHaveLength(4);
    expect(pack.sources.every((s) => s.url.startsWith("https://"))).toBe(true);
  });

  test("exposes typologies, sources and indicators in pack order with absent clauses as empty lists", () => {
    const pack = realPack();
    const mule = pack.typologyById.get("mule-crypto-cashout")!;
    expect(mule.minimum_indicators).toBe(2);
    expect(mule.minimum_specificity).toBe("medium");
    expect(mule.indicators.map((i) => i.id)).toEqual([
      "sourced-bank-account",
      "crypto-payment-bridge",
      "commission-or-fast-settlement",
      "prepaid-or-freeze-risk",
    ]);
    expect(mule.indicators[0].any_terms).toEqual([]);
    expect(mule.indicators[0].all_terms).toEqual([]);
    expect(mule.indicators[0].any_signals).toEqual(["account_rental_offer", "account_sourcing_demand", "account_use_solicitation"]);
    expect(pack.sourceById.get("hsi-cubs-2026")?.publisher).toBe("Homeland Security Investigations");
  });

  test("reports the two dead signal references as warnings, not errors (P4)", () => {
    expect(realPack().warnings).toEqual([
      "pack.typologies[1].indicators[4].all_signals[0]: signal 'gambling_insider_ad' is emitted by no known producer component (dead reference, P4)",
      "pack.typologies[2].indicators[3].any_signals[0]: signal 'cash_pickup_delivery' is emitted by no known producer component (dead reference, P4)",
    ]);
  });

  test("is deeply frozen", () => {
    const pack = realPack();
    expect(Object.isFrozen(pack)).toBe(true);
    expect(Object.isFrozen(pack.typologies[0].indicators[0].any_terms)).toBe(true);
    expect(() => (pack.typologies as unknown as unknown[]).push({})).toThrow();
  });

  test("the digest is over the raw bytes, never a re-serialisation (P5)", () => {
    const compact = new TextEncoder().encode(JSON.stringify(realPackObject()));
    const pack = loadPack(compact);
    expect(pack.sha256).toBe(sha256Hex(compact));
    expect(pack.sha256).not.toBe(PACK_SHA256);
    expect(pack.typologies).toHaveLength(8);
  });

  test.runIf(hasPublishedPack)("the published copy loads with the same digest", () => {
    expect(loadPack(readFileSync(PUBLISHED_PACK_PATH)).sha256).toBe(PACK_SHA256);
  });
});

describeShared("rejected mutations name the JSON path and the rule", () => {
  const cases: [string, (p: any) => void, string, string][] = [
    ["unknown top-level field", (p) => (p.regex = "^a.*$"), "pack.regex", "unknown-field"],
    ["unknown indicator field (no regex or code)", (p) => (p.typologies[0].indicators[1].pattern = "fei.*"), "pack.typologies[0].indicators[1].pattern", "unknown-field"],
    ["unknown publisher field", (p) => (p.publisher.email = "x@example.org"), "pack.publisher.email", "unknown-field"],
    ["missing typology label", (p) => delete p.typologies[2].label, "pack.typologies[2].label", "missing-field"],
    ["missing method", (p) => delete p.method, "pack.method", "missing-field"],
    ["http source URL", (p) => (p.sources[3].url = "http://example.org/x"), "pack.sources[3].url", "https-url"],
    ["http publisher URL", (p) => (p.publisher.project_url = "http://palimpsest.info"), "pack.publisher.project_url", "https-url"],
    ["javascript URL", (p) => (p.sources[0].url = "javascript:alert(1)"), "pack.sources[0].url", "https-url"],
    ["over-long label", (p) => (p.typologies[1].label = "x".repeat(513)), "pack.typologies[1].label", "max-length"],
    ["over-long version", (p) => (p.version = "v".repeat(65)), "pack.version", "max-length"],
    ["too many terms", (p) => (p.typologies[0].indicators[0].any_terms = Array.from({ length: 129 }, (_, i) => `term ${i}`)), "pack.typologies[0].indicators[0].any_terms", "max-items"],
    ["too many typologies", (p) => (p.typologies = Array.from({ length: 33 }, (_, i) => ({ ...p.typologies[0], id: `t${i}` }))), "pack.typologies", "max-items"],
    ["minimum_indicators above 16", (p) => (p.typologies[0].minimum_indicators = 17), "pack.typologies[0].minimum_indicators", "range"],
    ["minimum_indicators 0", (p) => (p.typologies[0].minimum_indicators = 0), "pack.typologies[0].minimum_indicators", "range"],
    ["minimum_indicators boolean", (p) => (p.typologies[0].minimum_indicators = true), "pack.typologies[0].minimum_indicators", "type"],
    ["minimum_indicators above the indicator count", (p) => (p.typologies[4].minimum_indicators = 5), "pack.typologies[4].minimum_indicators", "minimum-indicators"],
    ["no source_refs", (p) => (p.typologies[3].source_refs = []), "pack.typologies[3].source_refs", "min-items"],
    ["unknown source reference", (p) => (p.typologies[3].source_refs[1] = "no-such-source"), "pack.typologies[3].source_refs[1]", "unknown-source"],
    ["duplicate source id", (p) => (p.sources[5].id = p.sources[2].id), "pack.sources[5].id", "unique"],
    ["duplicate typology id", (p) => (p.typologies[6].id = p.typologies[1].id), "pack.typologies[6].id", "unique"],
    ["duplicate indicator id", (p) => (p.typologies[0].indicators[2].id = p.typologies[0].indicators[0].id), "pack.typologies[0].indicators[2].id", "unique"],
    ["duplicate term", (p) => p.typologies[0].indicators[0].any_terms.push("feiqian"), "pack.typologies[0].indicators[0].any_terms[12]", "unique"],
    ["duplicate limitation", (p) => p.typologies[0].limitations.push(p.typologies[0].limitations[0]), "pack.typologies[0].limitations[2]", "unique"],
    ["indicator without clauses", (p) => (p.typologies[5].indicators[0].any_terms = []), "pack.typologies[5].indicators[0]", "empty-indicator"],
    ["blank label", (p) => (p.typologies[0].indicators[0].label = " \u00a0\u3000"), "pack.typologies[0].indicators[0].label", "blank"],
    ["control character", (p) => (p.sources[1].title = "Title\u0007"), "pack.sources[1].title", "control-character"],
    ["C1 control character", (p) => (p.method.summary = "Summary\u0085x"), "pack.method.summary", "control-character"],
    ["uppercase identifier", (p) => (p.typologies[0].id = "China-Banking"), "pack.typologies[0].id", "identifier"],
    ["signal name not an identifier", (p) => (p.typologies[4].indicators[0].any_signals[0] = "Account Rental"), "pack.typologies[4].indicators[0].any_signals[0]", "identifier"],
    ["unknown dimension", (p) => (p.typologies[0].dimension = "predicate"), "pack.typologies[0].dimension", "enum"],
    ["unknown specificity", (p) => (p.typologies[0].indicators[0].specificity = "extreme"), "pack.typologies[0].indicators[0].specificity", "enum"],
    ["support levels not the three", (p) => (p.method.support_levels = ["TYPOLOGY_MATCH", "DIRECT_LINK"]), "pack.method.support_levels", "support-levels"],
    ["other schema", (p) => (p.schema = "scamshield-intelligence-pack/v2"), "pack.schema", "schema"],
    ["typologies not an array", (p) => (p.typologies = {}), "pack.typologies", "type"],
    ["label is a number", (p) => (p.typologies[0].label = 7), "pack.typologies[0].label", "type"],
  ];
  test.each(cases)("%s", (_name, mutate, path, rule) => {
    const e = mutated(mutate);
    expect({ path: e.path, rule: e.rule }).toEqual({ path, rule });
    expect(e.message.startsWith(`${path}: `)).toBe(true);
    expect(e.message.endsWith(`(${rule})`)).toBe(true);
  });

  test("more than 256 indicators across the pack", () => {
    const e = mutated((p) => {
      const big = p.typologies[0];
      big.indicators = Array.from({ length: 64 }, (_, i) => ({ ...big.indicators[0], id: `ind-${i}` }));
      p.typologies = Array.from({ length: 5 }, (_, i) => ({ ...big, id: `t-${i}` }));
    });
    expect({ path: e.path, rule: e.rule }).toEqual({ path: "pack.typologies[4].indicators", rule: "max-indicators" });
  });

  test("a duplicate key is rejected (the reference keeps the last one)", () => {
    const text = realPackBytes().toString("utf8").replace('"version": "2026-08-08.2"', '"version": "2026-08-08.2", "version": "9"');
    expect(text).toContain('"version": "9"');
    const e = loadError(new TextEncoder().encode(text));
    expect(e.rule).toBe("json:duplicate-key");
    expect(e.message).toContain("'version'");
  });

  test("a float where an integer is required is rejected", () => {
    const text = realPackBytes().toString("utf8").replace('"minimum_indicators": 2', '"minimum_indicators": 2.0');
    const e = loadError(new TextEncoder().encode(text));
    expect({ path: e.path, rule: e.rule }).toEqual({ path: "pack.typologies[0].minimum_indicators", rule: "type" });
  });

  test("more than 1 MiB is rejected before parsing; exactly 1 MiB is parsed", () => {
    const bytes = realPackBytes();
    const padded = (n: number) => Buffer.concat([bytes, Buffer.alloc(n - bytes.length, 0x20)]);
    const e = loadError(padded(MAX_PACK_BYTES + 1));
    expect({ path: e.path, rule: e.rule }).toEqual({ path: "pack", rule: "size" });
    expect(e.message).toContain("intelligence pack exceeds the 1 MiB limit");
    expect(loadPack(padded(MAX_PACK_BYTES)).typologies).toHaveLength(8);
  });

  test("invalid UTF-8, a BOM, NaN and trailing garbage are rejected", () => {
    const bytes = realPackBytes();
    expect(loadError(Buffer.concat([bytes.subarray(0, 100), Buffer.from([0xff]), bytes.subarray(100)])).rule).toBe("json:utf8");
    expect(loadError(Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), bytes])).rule).toBe("json:bom");
    expect(loadError(new TextEncoder().encode('{"schema": NaN}')).rule).toBe("json:non-finite");
    expect(loadError(Buffer.concat([bytes, Buffer.from("x")])).rule).toBe("json:syntax");
  });

  test("a root that is not an object is rejected", () => {
    expect(loadError(new TextEncoder().encode("[]")).rule).toBe("type");
  });
});

describe("pack digest", () => {
  test("is the SHA-256 of exactly the given bytes", () => {
    expect(packDigest(new TextEncoder().encode("abc"))).toBe("ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
  });
});
