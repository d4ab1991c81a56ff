/** The ten valid bridge examples (read in place) and the matcher inputs recorded in their assessments. */
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { hasShared, sharedPath } from "../../helpers/shared.js";

export const VALID_DIR = sharedPath("data", "bridge-examples", "valid");
export const LENIENT_DIR = sharedPath("data", "bridge-examples", "lenient");

export interface Example {
  name: string;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  assessment: any;
  text: string | undefined;
}

function load(dir: string, file: string): Example {
  const txt = `${dir}/${file.replace(/\.json$/, ".txt")}`;
  return {
    name: file.replace(/\.json$/, ""),
    assessment: JSON.parse(readFileSync(`${dir}/${file}`, "utf8")),
    text: existsSync(txt) ? readFileSync(txt, "utf8") : undefined,
  };
}

function list(dir: string): Example[] {
  if (!hasShared) return [];
  return readdirSync(dir)
    .filter((f) => /^\d\d-[a-z0-9-]+\.json$/.test(f))
    .sort()
    .map((f) => load(dir, f));
}

export const validExamples = (): Example[] => list(VALID_DIR);
export const lenientExamples = (): Example[] => list(LENIENT_DIR);

/** `S` of assessment-v1 §4: detector signal names ∪ threat finding rule ids. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export function signalsOf(a: any): string[] {
  return [...a.detector.signals.map((s: { name: string }) => s.name), ...a.threat_assessment.findings.map((f: { rule_id: string }) => f.rule_id)];
}

/** `O` of §4: the concatenation of every hypothesis' external observations. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export function observationsOf(a: any): unknown[] {
  return a.hypotheses.flatMap((h: { external_observations: unknown[] }) => h.external_observations);
}
