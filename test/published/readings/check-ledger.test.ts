/**
 * readings check-ledger (hosted-tool-server.md §4.3–§4.5): the published manifest and ledger pass; tampered
 * copies made here fail at the right stage with the server's message. The byte receipt is checked before any
 * row is parsed; row rules are reached only with a manifest that matches the tampered bytes.
 */
import { describe, expect, test } from "vitest";
import { sha256Hex } from "../../../src/hash.js";
import { parseStrictJson } from "../../../src/json/parse.js";
import type { JsonObject } from "../../../src/json/value.js";
import { checkEconomicLedger, type LedgerCheckResult } from "../../../published/readings/check-ledger.js";
import { observationId } from "../../../published/readings/economic-ledger.js";
import { parseEconTimestamp } from "../../../published/readings/iso-time.js";
import { pythonAsciiJson } from "../../../published/readings/python-json.js";
import { describeShared, readShared } from "../../helpers/shared.js";

const enc = new TextEncoder();
const dec = new TextDecoder();

function published() {
  return {
    manifest: readShared("data", "published", "readings", "china-econ-observations-latest.json"),
    ledger: readShared("data", "published", "readings", "china-econ-observations.jsonl"),
  };
}

/** The published manifest with `edit` applied (JSON.parse is safe: the manifest holds no floats). */
function manifestWith(edit: (m: Record<string, any>) => void): Uint8Array {
  const m = JSON.parse(dec.decode(published().manifest));
  edit(m);
  return enc.encode(JSON.stringify(m, null, 1));
}

/** A manifest whose receipt matches `ledger` exactly, so the row rules are what is tested. */
function manifestFor(ledger: Uint8Array): Uint8Array {
  let records = 0;
  for (const b of ledger) if (b === 0x0a) records++;
  return manifestWith((m) => {
    Object.assign(m.artifact, { bytes: ledger.length, sha256: sha256Hex(ledger), records: Math.max(records, 1) });
    m.n_observations = Math.max(records, 1);
  });
}

function lines(): string[] {
  return dec.decode(published().ledger).split("\n").slice(0, -1);
}

function row(line: string): JsonObject {
  return parseStrictJson(line) as JsonObject;
}

/** Serialises a row with a freshly computed observation_id (ids are proven against the 1,958 published ones). */
function withId(r: JsonObject): string {
  r.set("observation_id", observationId(r, parseEconTimestamp(r.get("released_at"))!, parseEconTimestamp(r.get("collected_at"))!));
  return pythonAsciiJson(r);
}

function ledgerOf(ls: string[]): Uint8Array {
  return enc.encode(ls.map((l) => `${l}\n`).join(""));
}

function failure(result: LedgerCheckResult): [string, string] {
  expect(result.ok).toBe(false);
  if (result.ok) throw new Error("unreachable");
  expect(result).toMatchObject({ checksum_integrity: "failed", no_partial_rows: true, error: { type: "economic_checksum_integrity_failed" } });
  return [result.error.stage, result.error.message];
}

function rows(ls: string[]): [string, string] | "ok" {
  const ledger = ledgerOf(ls);
  const result = checkEconomicLedger(manifestFor(ledger), ledger);
  return result.ok ? "ok" : failure(result);
}

describeShared("the published manifest and ledger", () => {
  test("verify: every row, every observation id, the receipt and the count", () => {
    const { manifest, ledger } = published();
    const result = checkEconomicLedger(manifest, ledger);
    expect(result).toMatchObject({
      ok: true,
      source: { bytes: 1_719_467, rows: 1958, sha256: expect.stringMatching(/^507c98e3.*f9b8$/), checksum_integrity: "verified_against_fixed_manifest" },
      manifest: { retrieved_sha256: expect.stringMatching(/^832cc955.*140b$/), generated_at: "2026-08-22T07:38:19.988058Z" },
      pinned_base_source: "manifest",
    });
    if (!result.ok) throw new Error("unreachable");
    expect(result.manifest.limitations.length).toBe(3);
    // Pinning to the base the manifest names gives the same answer; any other base is refused (x1 sample).
    expect(checkEconomicLedger(manifest, ledger, { pinnedBase: result.pinned_base }).ok).toBe(true);
    expect(failure(checkEconomicLedger(manifest, ledger, { pinnedBase: "http://127.0.0.1:8080" }))).toEqual([
      "manifest",
      "observation manifest pins an unexpected artifact URL",
    ]);
  });

  describe("the byte receipt comes before any row is parsed", () => {
    test("one changed byte: SHA-256", () => {
      const { manifest, ledger } = published();
      const tampered = Uint8Array.from(ledger);
      const at = dec.decode(ledger).indexOf('"value": 1.37') + 10;
      tampered[at] = "9".charCodeAt(0);
      expect(failure(checkEconomicLedger(manifest, tampered))).toEqual(["receipt", "observation ledger SHA-256 does not match the fixed manifest"]);
    });

    test("garbage of the right length is refused by the digest, not by the JSON parser", () => {
      const { manifest, ledger } = published();
      const garbage = new Uint8Array(ledger.length).fill(0x7b);
      expect(failure(checkEconomicLedger(manifest, garbage))).toEqual(["receipt", "observation ledger SHA-256 does not match the fixed manifest"]);
    });

    test("an appended row: byte count", () => {
      const { manifest, ledger } = published();
      const longer = new Uint8Array([...ledger, ...enc.encode(`${lines()[0]}\n`)]);
      expect(failure(checkEconomicLedger(manifest, longer))).toEqual(["receipt", "observation ledger byte count does not match the fixed manifest"]);
    });

    test("a manifest that miscounts the records", () => {
      const { ledger } = published();
      const manifest = manifestWith((m) => {
        m.artifact.records = 1957;
        m.n_observations = 1957;
      });
      expect(failure(checkEconomicLedger(manifest, ledger))).toEqual(["receipt", "observation ledger record count does not match the fixed manifest"]);
    });

    test("a ledger over the server's 8 MiB cap", () => {
      expect(failure(checkEconomicLedger(published().manifest, new Uint8Array(8_388_609)))).toEqual(["receipt", "published observation ledger exceeds 8388608 bytes"]);
    });
  });

  describe("row rules (with a manifest that matches the tampered bytes)", () => {
    const L = lines();
    const edit = (i: number, change: (r: JsonObject) => void, recompute = false) => {
      const r = row(L[i]);
      change(r);
      const copy = [...L];
      copy[i] = recompute ? withId(r) : pythonAsciiJson(r);
      return rows(copy);
    };

    test("an edited value without a new observation_id", () => {
      expect(edit(4, (r) => r.set("value", 9.99))).toEqual(["rows", "line 5.observation_id does not match the record contents"]);
    });

    test("re-serialising a row (sorted keys, ASCII escapes) keeps its id valid", () => {
      expect(edit(4, () => undefined)).toBe("ok");
    });

    test.each<[string, (r: JsonObject) => void, string]>([
      ["unknown field", (r) => r.set("note", "x"), "line 1 has unknown fields: note"],
      ["missing fields", (r) => (r.delete("unit"), r.delete("sector")), "line 1 is missing required fields: sector, unit"],
      ["blank string", (r) => r.set("geography", " \u3000"), "line 1.geography must be a non-empty string"],
      ["not a date", (r) => r.set("period_start", "2026-7-06"), "line 1.period_start must be an ISO-8601 date"],
      ["basic date form", (r) => r.set("period_start", "20260706"), "line 1.period_start must use YYYY-MM-DD form"],
      ["week date form", (r) => r.set("period_end", "2026-W28-1"), "line 1.period_end must use YYYY-MM-DD form"],
      ["period order", (r) => r.set("period_end", "2026-07-05"), "line 1.period_end precedes period_start"],
      ["naive timestamp", (r) => r.set("released_at", "2026-08-04T10:19:26"), "line 1.released_at must be a timezone-aware ISO-8601 timestamp"],
      ["seven fraction digits", (r) => r.set("collected_at", "2026-08-04T10:19:26.9668840+00:00"), "line 1.collected_at must be a timezone-aware ISO-8601 timestamp"],
      ["collected before released", (r) => r.set("collected_at", "2026-08-04T10:19:26.966883+00:00"), "line 1.collected_at precedes released_at"],
      ["float revision", (r) => r.set("revision", parseStrictJson("0.0")), "line 1.revision must be a non-negative integer"],
      ["boolean value", (r) => r.set("value", true), "line 1.value must be a finite number"],
      ["quality above 1", (r) => r.set("quality", parseStrictJson("1.5")), "line 1.quality must lie in [0, 1]"],
      ["frequency", (r) => r.set("frequency", "daily"), "line 1.frequency is not recognized"],
      ["status", (r) => r.set("status", "rumour"), "line 1.status is not recognized"],
      ["metadata not an object", (r) => r.set("metadata", "x"), "line 1.metadata must be an object"],
      ["metadata key", (r) => (r.get("metadata") as JsonObject).set("respondent_id", "r-1"), "line 1.metadata key 'respondent_id' is not allowlisted"],
      ["nested metadata key", (r) => (r.get("metadata") as JsonObject).set("provenance", parseStrictJson('{"parser_version":3,"device_id":"p"}')), "line 1.metadata.provenance key 'device_id' is not allowlisted"],
      ["not http(s)", (r) => r.set("evidence_url", "ftp://files.example/x"), "line 1.evidence_url must be an absolute http(s) URL"],
      ["no host", (r) => r.set("evidence_url", "https:///path"), "line 1.evidence_url must be an absolute http(s) URL"],
      ["credentials", (r) => r.set("evidence_url", "https://user:pw@data.example/x"), "line 1.evidence_url must not contain URL credentials"],
      ["bad brackets", (r) => r.set("evidence_url", "https://[::1/x"), "line 1.evidence_url is invalid"],
      ["raw digest", (r) => r.set("raw_sha256", "A".repeat(64)), "line 1.raw_sha256 must be null or lowercase SHA-256"],
      ["id format", (r) => r.set("observation_id", "0".repeat(63)), "line 1.observation_id must be lowercase SHA-256"],
    ])("%s", (_name, change, message) => {
      expect(edit(0, change)).toEqual(["rows", message]);
    });

    test("allowed metadata keys nest, and null raw_sha256 is fine, when the id matches", () => {
      expect(
        edit(0, (r) => {
          (r.get("metadata") as JsonObject).set("provenance", parseStrictJson('{"parser_version":3,"coverage":[true,null,1.5]}'));
          r.set("raw_sha256", null);
        }, true),
      ).toBe("ok");
    });

    test("JSON-level problems in a line", () => {
      const copy = [...L];
      copy[2] = copy[2].replace('"unit": "%"', '"unit": "%", "unit": "%"');
      expect(rows(copy)).toEqual(["rows", "duplicate JSON key 'unit'"]);
      copy[2] = L[2].replace(/"quality": [0-9.]+/, '"quality": NaN');
      expect(rows(copy)).toEqual(["rows", "non-finite JSON number 'NaN'"]);
      copy[2] = L[2].slice(0, -1);
      expect(rows(copy)).toEqual(["rows", "line 3 is not valid JSON"]);
      copy[2] = "[1]";
      expect(rows(copy)).toEqual(["rows", "line 3 must be a JSON object"]);
    });

    test("file-level rules", () => {
      const noNewline = enc.encode(L.slice(0, 2).join("\n"));
      expect(failure(checkEconomicLedger(manifestFor(noNewline), noNewline))).toEqual(["rows", "published observation ledger does not end at a JSONL record boundary"]);
      expect(rows([L[0], "  ", L[1]])).toEqual(["rows", "line 2 is blank"]);
      const notUtf8 = new Uint8Array([...enc.encode(L[0]), 0xff, 0x0a]);
      expect(failure(checkEconomicLedger(manifestFor(notUtf8), notUtf8))).toEqual(["rows", "published observation ledger is not UTF-8"]);
      // Python's splitlines also breaks at U+2028: the server then sees two broken lines.
      expect(rows([L[0].replace('"family": "', '"family": "\u2028')])).toEqual(["rows", "line 1 is not valid JSON"]);
    });

    test("across rows: duplicates and append order", () => {
      expect(rows([L[0], L[1], L[0]])).toEqual(["rows", `line 3 duplicates observation_id ${row(L[0]).get("observation_id")}`]);
      const last = L[L.length - 1];
      expect(rows([last, L[0]])).toEqual(["rows", "line 2.collected_at moves backwards in append order"]);
    });

    describe("vintages", () => {
      const first = row(L[0]);
      const later = (change: (r: JsonObject) => void) => {
        const r = row(L[0]);
        r.set("collected_at", "2026-08-05T00:00:00+00:00");
        r.set("released_at", "2026-08-05T00:00:00+00:00");
        change(r);
        return withId(r);
      };
      test("a value revision must bump revision; a same-value provenance row must not", () => {
        expect(rows([L[0], later((r) => (r.set("value", parseStrictJson("1.5")), r.set("revision", 1)))])).toBe("ok");
        expect(rows([L[0], later((r) => r.set("value", parseStrictJson("1.5")))])).toEqual(["rows", "line 2 value-changing vintage must use revision 1, got 0"]);
        expect(rows([L[0], later((r) => r.set("revision", 1))])).toEqual(["rows", "line 2 same-value provenance vintage must use revision 0, got 1"]);
        // 1.37 and 1.370 are the same value to the server (numeric comparison).
        expect(rows([L[0], later((r) => r.set("value", parseStrictJson("1.370")))])).toBe("ok");
      });

      test("first vintage, release clock, status order and unit drift", () => {
        expect(rows([withId(((r) => (r.set("revision", 2), r))(row(L[0])))])).toEqual(["rows", "line 1 first vintage must use revision 0, got 2"]);
        const released = later(() => undefined).replace('"released_at":"2026-08-05T00:00:00+00:00"', '"released_at":"2026-08-04T00:00:00+00:00"');
        expect(rows([L[0], withId(row(released))])).toEqual(["rows", "line 2.released_at moves backwards within a source vintage"]);
        const estimate = row(L[0]);
        estimate.set("status", "estimate");
        expect(rows([L[0], later((r) => r.set("status", "estimate"))])).toEqual(["rows", "line 2 status moves backwards from observed to estimate"]);
        expect(rows([withId(estimate), later(() => undefined)])).toBe("ok");
        expect(rows([L[0], later((r) => (r.set("unit", "bp"), r.set("period_start", "2026-07-07"), r.set("period_end", "2026-07-07")))])).toEqual([
          "rows",
          "line 2 has unit/frequency drift for a source series slice",
        ]);
        expect(first.get("status")).toBe("observed");
      });
    });

    test("the final count cannot differ once the receipt holds, except where Python splits lines itself", () => {
      // A vertical tab inside a string is a line break to str.splitlines(): 2 newline-terminated records, 3 lines.
      const copy = [L[0].replace('"family": "', '"family": "\u000b'), L[1]];
      expect(rows(copy)).toEqual(["rows", "line 1 is not valid JSON"]);
    });
  });

  describe("manifest rules", () => {
    const check = (edit: (m: Record<string, any>) => void) => failure(checkEconomicLedger(manifestWith(edit), published().ledger));
    test.each<[string, (m: Record<string, any>) => void, string]>([
      ["fields", (m) => (delete m.scope, (m.extra = 1)), "observation manifest fields do not match the v1 contract: missing scope; unknown extra"],
      ["schema version", (m) => (m.schema_version = "x.v2"), "observation manifest schema_version is not supported"],
      ["generated_at offset", (m) => (m.generated_at = "2026-08-22T07:38:19.988058+00:00"), "observation manifest generated_at must be normalized to UTC Z"],
      ["as_of naive", (m) => (m.as_of = "2026-08-22T07:38:19"), "observation manifest as_of must be a timezone-aware ISO-8601 timestamp"],
      ["blank method", (m) => (m.method = "  "), "observation manifest method must be non-empty bounded text"],
      ["long scope", (m) => (m.scope = "x".repeat(8193)), "observation manifest scope must be non-empty bounded text"],
      ["artifact members", (m) => (m.artifact.extra = 1), "observation manifest artifact does not match the v1 contract"],
      ["artifact path", (m) => (m.artifact.path = "readings/other.jsonl"), "observation manifest pins an unexpected artifact path"],
      ["artifact url", (m) => (m.artifact.url = "https://mirror.example/other/china-econ-observations.jsonl"), "observation manifest pins an unexpected artifact URL"],
      ["media type", (m) => (m.artifact.media_type = "application/json"), "observation manifest pins an unexpected media type"],
      ["bytes bound", (m) => (m.artifact.bytes = 8_388_609), "observation manifest artifact.bytes is outside the server bound"],
      ["records bound", (m) => (m.artifact.records = 0), "observation manifest artifact.records is outside the server bound"],
      ["sha256 case", (m) => (m.artifact.sha256 = m.artifact.sha256.toUpperCase()), "observation manifest artifact.sha256 is not lowercase SHA-256"],
      ["n_observations", (m) => (m.n_observations = 1), "observation manifest n_observations does not match artifact.records"],
      ["contract members", (m) => delete m.contract.bitemporal, "observation manifest contract is malformed"],
      ["schema url base", (m) => (m.contract.observation_schema.url = "https://mirror.example/protocol/economic-observation-v1.schema.json"), "observation manifest contract.observation_schema is not the fixed schema"],
      ["aggregate only", (m) => (m.contract.aggregate_only = false), "observation manifest must declare aggregate-only bitemporal rows"],
      ["coverage", (m) => (m.coverage = []), "observation manifest coverage must be an object"],
      ["integrity members", (m) => delete m.integrity.status, "observation manifest integrity receipt is malformed"],
      ["integrity values", (m) => (m.integrity.unique_observation_ids = false), "observation manifest integrity receipt is not verified"],
      ["limitations count", (m) => (m.limitations = m.limitations.slice(0, 2)), "observation manifest limitations are malformed"],
      ["limitations unique", (m) => (m.limitations[2] = m.limitations[0]), "observation manifest limitations are malformed"],
    ])("%s", (_name, edit, message) => {
      expect(check(edit)).toEqual(["manifest", message]);
    });

    test("not JSON, duplicate keys, not UTF-8, empty, too large", () => {
      const { ledger, manifest } = published();
      const text = dec.decode(manifest);
      const run = (m: Uint8Array) => failure(checkEconomicLedger(m, ledger));
      expect(run(enc.encode(text.replace('"as_of":', '"as_of": "x", "as_of":')))).toEqual(["manifest", "duplicate JSON key 'as_of'"]);
      expect(run(enc.encode(text.slice(0, 100)))).toEqual(["manifest", "published observation manifest is not valid JSON"]);
      expect(run(enc.encode("[]"))).toEqual(["manifest", "published observation manifest must be an object"]);
      expect(run(new Uint8Array([0x7b, 0xff, 0x7d]))).toEqual(["manifest", "published observation manifest is not UTF-8"]);
      expect(run(new Uint8Array(0))).toEqual(["manifest", "published observation manifest is empty"]);
      expect(run(new Uint8Array(262_145).fill(0x20))).toEqual(["manifest", "published observation manifest exceeds 262144 bytes"]);
    });
  });
});
