/**
 * `deriveValues` (capsules/pipeline/derive.ts): the private values of a capsule read without rendering its
 * candidates must be exactly the values its full derivation gives, for capsules that derive, capsules whose
 * assessment does not parse or whose id does not recompute, and bytes that are no capsule at all (the guard over a
 * store reads them this way when the cache has no row: a value missing here would be a value the guard misses).
 * And `StoredDerivations` reads only values when only values are asked for, derives in full the capsules named as
 * candidates to read, and the values row it saves is read back by the next command.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, test } from "vitest";
import { assessmentContent, REFERENCE_PRODUCER } from "../../../capsules/assessment/adapter.js";
import type { Assessment } from "../../../capsules/assessment/types.js";
import { buildCapsule } from "../../../capsules/capsule/build.js";
import { deriveCapsule, deriveValues, type CapsuleInput } from "../../../capsules/pipeline/derive.js";
import { openCapsuleBytes } from "../../../capsules/pipeline/open.js";
import { StoredDerivations } from "../../../capsules/pipeline/stored.js";
import { openOrCreateStore } from "../../../capsules/store/store.js";
import { loadPackFile } from "../../../published/pack/file.js";
import { canonicalText } from "../../../src/json/canonical.js";
import { repoRoot } from "../../helpers/shared.js";
import { removeHomes, tempHome } from "../feed/store-fixtures.js";

const EXAMPLE = join(repoRoot, "examples/synthetic");
const pack = loadPackFile(join(EXAMPLE, "intelligence-pack.json"));
const assessmentBytes = readFileSync(join(EXAMPLE, "assessment.json"));
const assessment = JSON.parse(assessmentBytes.toString("utf8")) as Assessment;

/** A capsule around any artifact bytes (the builder does not check them: a capsule a hostile producer could write). */
function capsuleAround(bytes: Uint8Array): Uint8Array {
  const c = buildCapsule(assessmentContent(bytes, assessment, REFERENCE_PRODUCER));
  return Buffer.from(`${canonicalText({ attestations: c.attestations, content: c.content, content_sha256: c.content_sha256 }, "capsule")}\n`);
}

const otherId = Buffer.from(assessmentBytes.toString("utf8").replace(assessment.assessment_id, "0".repeat(assessment.assessment_id.length)));
const cases: [string, CapsuleInput, string][] = [
  ["a capsule that derives", capsuleAround(assessmentBytes), "derived"],
  ["an assessment whose id does not recompute", capsuleAround(otherId), "withheld"],
  ["an artifact that is not JSON", capsuleAround(Buffer.from("not json at all")), "withheld"],
  ["bytes that are no capsule", Buffer.from("{}"), "withheld"],
];

afterAll(removeHomes);

describe("deriveValues", () => {
  for (const [name, input, status] of cases) {
    test(`${name}: the same own and store values as the full derivation`, () => {
      const full = deriveCapsule(input, pack);
      expect(full.outcome.status).toBe(status);
      expect(deriveValues(input, pack)).toEqual({ privateValues: full.privateValues, storeValues: full.storeValues });
    });
  }

  test("the values of a capsule that derives include its message hash and its IOC values", () => {
    const v = deriveValues(capsuleAround(assessmentBytes), pack);
    expect(v.privateValues?.some((x) => x.kind === "message_sha256" && x.value === assessment.message_sha256)).toBe(true);
    expect(v.storeValues.some((x) => x.kind === "ioc_value")).toBe(true);
  });
});

describe("StoredDerivations reads values alone", () => {
  test("values only on a miss; full derivations for the candidates a command reads; the values row is saved", async () => {
    const home = tempHome("values-only");
    const store = await openOrCreateStore({ home, passphrase: undefined });
    const bytes = [capsuleAround(assessmentBytes), capsuleAround(otherId)];
    const ids = bytes.map((b) => (JSON.parse(Buffer.from(b).toString("utf8")) as { content_sha256: string }).content_sha256);
    store.putCapsules(bytes.map((b, i) => openCapsuleBytes(b, "test capsule", ids[i])));

    const first = new StoredDerivations(store, pack, { candidatesOf: new Set([ids[1]]) });
    const values = ids.map((id) => first.values(id));
    expect(first.valuesRead).toBe(1);
    expect(first.derived).toBe(1);
    expect(values[0]).toEqual(deriveValues(bytes[0], pack));
    // The capsule named as a candidate to read was derived once, and its outcome is not derived again.
    expect(first.outcome(ids[1]).outcome.status).toBe("withheld");
    expect(first.derived).toBe(1);
    first.save();

    const next = new StoredDerivations(store, pack);
    expect(next.values(ids[0])).toEqual(values[0]);
    expect(next.valuesRead + next.derived).toBe(0);
    // A values row has no outcome: the first command that needs the candidate derives it.
    expect(next.outcome(ids[0]).outcome.status).toBe("derived");
    expect(next.derived).toBe(1);
  });
});
