/**
 * docs/assess.md lists the judgement's closed vocabularies for readers (a new user cannot read assessment-v1, which
 * is not in the repository); the lists must be the code's, in the code's order.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { expect, test } from "vitest";
import { AUTHORIZATIONS, SURFACES } from "../../../capsules/assessment/types.js";
import { FINDING_TIERS, THREAT_EVIDENCE_CLASSES } from "../../../capsules/assessment/vocabulary.js";
import { IOC_KINDS, KNOWN_DETECTOR_SIGNALS, THREAT_RULE_IDS } from "../../../published/pack/vocabulary.js";
import { repoRoot } from "../../helpers/shared.js";
import { PHONE_REGIONS } from "../../../capsules/assess/phone-regions.js";

const doc = readFileSync(join(repoRoot, "docs", "assess.md"), "utf8");

function listed(name: string): string[] {
  const m = new RegExp(`<!-- vocab:${name} -->([^<]*)<!-- /vocab -->`).exec(doc);
  if (m === null) throw new Error(`docs/assess.md has no vocab:${name} list`);
  return m[1].split(",").map((w) => w.trim());
}

test.each([
  ["signals", KNOWN_DETECTOR_SIGNALS],
  ["rules", THREAT_RULE_IDS],
  ["tiers", FINDING_TIERS],
  ["classes", THREAT_EVIDENCE_CLASSES],
  ["surfaces", SURFACES],
  ["authorizations", AUTHORIZATIONS],
  ["iocs", IOC_KINDS],
  ["regions", PHONE_REGIONS],
] as [string, readonly string[]][])("the %s list of docs/assess.md is the code's", (name, code) => {
  expect(listed(name)).toEqual([...code]);
});
