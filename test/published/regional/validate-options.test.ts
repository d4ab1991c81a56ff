/**
 * `contentDigest: false` (for callers that need only conformance, such as export): the same findings, counts and
 * conformance as with the digest, and content_sha256 reported as not computed.
 */
import { readdirSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, test } from "vitest";
import { CONTENT_SHA256_RULE, DIGEST_SKIPPED, validateRegionalIndex } from "../../../published/regional/validate.js";
import { fixture, fixturesDir, index } from "./helpers.js";

function withoutDigest(input: Uint8Array | string) {
  const full = validateRegionalIndex(input);
  const skipped = validateRegionalIndex(input, { contentDigest: false });
  expect({ ...skipped, content_sha256: undefined }).toEqual({ ...full, content_sha256: undefined });
  return { full, skipped };
}

describe("contentDigest: false", () => {
  test("every fixture: the same report apart from content_sha256", () => {
    let files = 0;
    for (const dir of ["valid", "broken"]) {
      for (const file of readdirSync(join(fixturesDir, dir)).filter((f) => f.endsWith(".json") && f !== "expected.json")) {
        const { full, skipped } = withoutDigest(fixture(`${dir}/${file}`));
        files++;
        // Input that is not strict JSON, or not an object, stops before any digest, with its own reason, either way.
        if (["the input is not strict JSON", "the index is not a JSON object"].includes(full.content_sha256.reason ?? "")) {
          expect(skipped.content_sha256, file).toEqual(full.content_sha256);
        }
        else {
          const declared = full.content_sha256.declared;
          expect(skipped.content_sha256, file).toEqual({ status: "not_checked", declared, computed: null, reason: DIGEST_SKIPPED, rule: CONTENT_SHA256_RULE });
        }
      }
    }
    expect(files).toBeGreaterThan(140);
  });

  test("floats are still found, in the header and in events", () => {
    const text = JSON.stringify(index()).replace('"hours":48', '"hours":48.0').replace('"version_count":1', '"version_count":1.0');
    const { skipped } = withoutDigest(text);
    expect(skipped.errors.map((e) => [e.path, e.rule])).toEqual([
      ["index.inputs.newswire_window.hours", "integer"],
      ["index.events[0].version_count", "integer"],
    ]);
  });
});
