/**
 * Stores built from the synthetic example (examples/synthetic/, written by this project): assessments of new
 * messages carrying chosen IOCs, made consistent with the synthetic pack the way examples/synthetic/generate.ts
 * makes the shipped one, built and sealed through the CLI, and approved by a reviewer.
 */
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { computeAssessmentId } from "../../../capsules/assessment/assessment-id.js";
import { legacyCanonicalBytes } from "../../../src/json/legacy.js";
import { parseStrictJson } from "../../../src/json/parse.js";
import type { JsonObject } from "../../../src/json/value.js";
import { messageSha256 } from "../../../src/message-hash.js";
import { loadPack } from "../../../published/pack/load.js";
import { assessProvenance } from "../../../published/pack/provenance.js";
import type { IntelligencePack } from "../../../published/pack/types.js";
import { runCli, type RunResult } from "../../helpers/cli.js";

export const SYNTHETIC_DIR = join(dirname(fileURLToPath(import.meta.url)), "../../../examples/synthetic");
export const SYNTHETIC_PACK_FILE = join(SYNTHETIC_DIR, "intelligence-pack.json");

export function syntheticPack(): IntelligencePack {
  return loadPack(readFileSync(SYNTHETIC_PACK_FILE));
}

export type Iocs = { handles: string[]; phones: string[]; channels: string[]; wallets: string[]; emails: string[]; urls: string[] };

export function iocs(part: Partial<Iocs>): Iocs {
  return { handles: [], phones: [], channels: [], wallets: [], emails: [], urls: [], ...part };
}

/** The shipped synthetic assessment, re-made for `message` with `found` as its detector IOCs. */
export function syntheticAssessment(message: string, found: Iocs): Uint8Array {
  const base = JSON.parse(readFileSync(join(SYNTHETIC_DIR, "assessment.json"), "utf8")) as Record<string, any>;
  const pack = syntheticPack();
  const signals = (base.detector.signals as { name: string }[]).map((s) => s.name);
  const provenance = assessProvenance(pack, { text: message, signals, observations: [], iocs: found });
  base.message_sha256 = messageSha256(message);
  base.detector.iocs = found;
  base.hypotheses = provenance.hypotheses;
  base.origin_answer = provenance.origin_answer;
  base.abstentions = provenance.abstentions;
  base.assessment_id = "";
  const value = parseStrictJson(legacyCanonicalBytes(JSON.parse(JSON.stringify(base)))) as JsonObject;
  base.assessment_id = computeAssessmentId(value);
  return legacyCanonicalBytes(JSON.parse(JSON.stringify(base)));
}

const homes: string[] = [];

export function tempHome(tag: string): string {
  const home = mkdtempSync(join(tmpdir(), `eb-${tag}-`));
  homes.push(home);
  return home;
}

export function removeHomes(): void {
  for (const h of homes.splice(0)) rmSync(h, { recursive: true, force: true });
}

export async function cli(home: string, args: string[], stdin?: Uint8Array): Promise<RunResult> {
  return runCli(["--home", home, "--pack", SYNTHETIC_PACK_FILE, ...args], { stdin: stdin === undefined ? undefined : Buffer.from(stdin) });
}

async function ok(home: string, args: string[], stdin?: Uint8Array): Promise<RunResult> {
  const r = await cli(home, args, stdin);
  if (r.code !== 0) throw new Error(`${args.join(" ")} failed: ${r.stderr}`);
  return r;
}

/** Builds and seals a capsule of `message` with `found`; returns its id. */
export async function buildCapsule(home: string, message: string, found: Iocs): Promise<string> {
  const r = await ok(home, ["capsule", "build"], syntheticAssessment(message, found));
  return (JSON.parse(r.stdout) as { content_sha256: string }).content_sha256;
}

/** Creates reviewer `alice` (once) and approves the capsule's default-view candidate. */
export async function approve(home: string, id: string, note = "checked against the pack's cited sources", typologyView = true): Promise<void> {
  await cli(home, ["keys", "init", "--reviewer", "alice"]);
  await ok(home, ["review", "approve", id, "--reason", "corroborated", "--public-note", note, ...(typologyView ? ["--include-typology-matches"] : [])]);
}

export const MESSAGE_A =
  "Earn daily from home! Rent your bank account to our team, commission per transfer paid every evening. " +
  "Message @synthetic_recruiter_demo or pay the fee to 0x52908400098527886E0F7030069857D2E4169EE7 today.";
export const MESSAGE_B =
  "Rent your bank account to us, commission per transfer. Fee to 0x52908400098527886e0f7030069857d2e4169ee7, " +
  "questions to @another_synthetic_broker or +44 20 7946 0958.";
export const MESSAGE_C = "Rent your bank account now, commission per transfer. Contact @third_synthetic_desk.";
