/**
 * Property (product.md §2, §8 rule 6): for 10,000 generated assessments with canaries planted in every free-text
 * field the schema allows, wrapped in capsules by the project's adapter (consistency check bypassed, see
 * canary-assessments.ts), no canary appears in any emitted candidate or in any reason, in either feed mode.
 */
import fc from "fast-check";
import { expect, it } from "vitest";
import { canonicalBytes } from "../../../src/json/canonical.js";
import type { JsonObject } from "../../../src/json/value.js";
import { sha256Hex } from "../../../src/hash.js";
import { loadPack } from "../../../published/pack/load.js";
import { assessmentContent, REFERENCE_PRODUCER } from "../../../capsules/assessment/adapter.js";
import type { Assessment } from "../../../capsules/assessment/types.js";
import { candidateView, deriveCapsule } from "../../../capsules/pipeline/derive.js";
import { parseStrictJson } from "../../../src/json/parse.js";
import { describeShared, readShared, validExampleNames } from "../../helpers/shared.js";
import { assessmentBytes, exampleValue } from "./build-helpers.js";
import { canaryCase } from "./canary-assessments.js";

const NAMES = validExampleNames();

const RUNS = 10_000;

describeShared("canaries never leave through a candidate", () => {
  const pack = loadPack(readShared("data/intelligence-pack/intelligence-pack-v1.json"));
  const templates: JsonObject[] = NAMES.map((n) => exampleValue("valid", n));

  it(`holds for ${RUNS} generated assessments`, { timeout: 300_000 }, () => {
    const stats = { emitted: 0, excluded: 0, withheld: 0, hypothesesShown: 0, hypothesesWithheld: 0, canaries: 0 };
    const withheldReasons = new Set<string>();
    const knobs = fc.record({
      template: fc.nat({ max: NAMES.length - 1 }),
      seed: fc.integer(),
      surface: fc.nat({ max: 4 }),
      twist: fc.nat({ max: 99 }),
      extraObservation: fc.boolean(),
      includeTypologyMatches: fc.boolean(),
      includeClean: fc.boolean(),
    });
    fc.assert(
      fc.property(knobs, (k) => {
        const { doc, canaries } = canaryCase(templates, k);
        const bytes = assessmentBytes(doc);
        const plain = JSON.parse(new TextDecoder().decode(bytes)) as Assessment;
        // The adapter's content, hashed directly (cheap); derivation validates it through its own rebuild.
        const content = assessmentContent(bytes, plain, REFERENCE_PRODUCER);
        const c = { attestations: [], content, content_sha256: sha256Hex(canonicalBytes(content)) };
        // Three cases in four derive from the loaded value (the store's opened capsule, digest already recomputed),
        // one in four from the bytes, which are parsed and whose content is canonicalised and hashed again.
        const file = canonicalBytes({ attestations: c.attestations, content: c.content, content_sha256: c.content_sha256 }, "capsule");
        const input = (k.seed & 3) === 0 ? file : { bytes: file, envelope: parseStrictJson(file) as JsonObject };
        const result = candidateView(deriveCapsule(input, pack), { includeTypologyMatches: k.includeTypologyMatches, includeClean: k.includeClean });
        stats[result.status]++;
        stats.canaries += canaries.length;
        let outward: string;
        if (result.status === "emitted") {
          outward = new TextDecoder().decode(result.bytes).toLowerCase();
          stats.hypothesesShown += result.candidate.hypotheses.length;
          if (result.candidate.hypotheses_withheld !== undefined) stats.hypothesesWithheld++;
          expect(result.candidate.created_at).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:00:00Z$/);
        } else {
          outward = result.reason.toLowerCase();
          if (result.status === "withheld") withheldReasons.add(result.reason);
        }
        for (const canary of canaries) {
          if (outward.includes(canary)) throw new Error(`canary planted in the assessment reached the ${result.status} output`);
        }
      }),
      { numRuns: RUNS },
    );
    expect(stats.emitted + stats.excluded + stats.withheld).toBe(RUNS);
    // The generator makes schema-valid assessments: nothing is withheld, so the property covers emitted candidates.
    expect([...withheldReasons]).toEqual([]);
    expect(stats.emitted).toBeGreaterThan(RUNS * 0.8);
    expect(stats.hypothesesShown).toBeGreaterThan(0);
    expect(stats.hypothesesWithheld).toBeGreaterThan(0);
    expect(stats.canaries).toBeGreaterThan(RUNS * 20);
  });
});
