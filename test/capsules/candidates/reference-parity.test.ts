/**
 * Our candidates versus the reference feed's records for the ten valid examples, in both feed modes
 * (assessment-v1 §7.1, §7.2, §9.1). Everything is equal field by field except the differences listed in
 * DIFFERENCES, each caused by one hardening rule of product.md §8.
 */
import { expect, it } from "vitest";
import { canonicalText } from "../../../src/json/canonical.js";
import { sha256Hex } from "../../../src/hash.js";
import { loadPack } from "../../../published/pack/load.js";
import { deriveCandidate } from "../../helpers/derive.js";
import { WITHHELD_ANSWER } from "../../../capsules/candidates/feed-policy.js";
import { describeShared, readShared } from "../../helpers/shared.js";

type Mode = "default" | "with-typology-matches";
const MODES: Mode[] = ["default", "with-typology-matches"];

/** A field whose value we deliberately change: `ours` is our value (ABSENT = member omitted). */
interface Difference {
  path: string;
  ours: unknown;
  modes: Mode[];
  why: string;
}

const ABSENT = Symbol("absent");
const BOTH = MODES;

function hour(value: string, why = "rule 8: created_at truncated to the hour (UTC)"): Difference {
  return { path: "created_at", ours: value, modes: BOTH, why };
}

const PSEUDONYM_DROPPED = (surface: string): Difference => ({
  path: "collection.source_pseudonym",
  ours: ABSENT,
  modes: BOTH,
  why: `rule 4: the pseudonym of a ${surface} surface is never outward (only public_channel + public)`,
});

/** Every expected difference per example. Examples not listed under a rule are equal for it. */
const DIFFERENCES: Record<string, Difference[]> = {
  "01-mule-account-rental-hinglish": [hour("2026-08-20T09:00:00Z"), PSEUDONYM_DROPPED("private_submission")],
  "03-usdt-inr-kitchen-sink-iocs": [hour("2026-08-20T09:00:00Z"), PSEUDONYM_DROPPED("guardian_group")],
  "05-feiqian-zh-simplified-plus-mule": [hour("2026-08-20T09:00:00Z")],
  "08-golden-triangle-casino-junket": [hour("2026-08-20T09:00:00Z", "rule 8: whole seconds are truncated to the hour too")],
  "11-scam-compound-recruitment-en": [hour("2026-08-20T10:00:00Z"), PSEUDONYM_DROPPED("private_submission")],
  "13-wildlife-ivory-en": [hour("2026-08-20T10:00:00Z")],
  "22-clean-mandi-prices": [hour("2026-08-20T11:00:00Z"), PSEUDONYM_DROPPED("guardian_group")],
  "32-ext-wildlife-corroborated-lead": [hour("2026-08-20T12:00:00Z")],
  "34-ext-direct-link-wallet": [
    hour("2026-08-20T12:00:00Z"),
    PSEUDONYM_DROPPED("private_submission"),
    {
      path: "origin_answer",
      ours: "An exact IOC has an authoritative public-record link to: Mexico-based cartel drug proceeds. Human review of the cited record is still required.",
      modes: ["default"],
      why: "rule 5 / W9: a DIRECT_LINK hypothesis is shown, so the withheld sentence does not replace the answer",
    },
  ],
  "36-ext-reported-reliability-no-upgrade": [hour("2026-08-20T13:00:00Z")],
};

/** Examples whose overall tier is CLEAN: excluded unless includeClean (rule 7). */
const CLEAN = new Set(["22-clean-mandi-prices"]);

type Obj = Record<string, unknown>;

function getPath(o: Obj, path: string): unknown {
  let v: unknown = o;
  for (const k of path.split(".")) v = v !== null && typeof v === "object" && k in (v as Obj) ? (v as Obj)[k] : ABSENT;
  return v;
}

function setPath(o: Obj, path: string, value: unknown): void {
  const keys = path.split(".");
  let v = o;
  for (const k of keys.slice(0, -1)) v = v[k] as Obj;
  const last = keys[keys.length - 1];
  if (value === ABSENT) delete v[last];
  else v[last] = value;
}

function reference(name: string, mode: Mode): { text: string; record: Obj } {
  const text = readShared("data/bridge-examples/valid", `${name}.candidate.${mode}.jsonl`).toString("utf8");
  return { text, record: JSON.parse(text) as Obj };
}

describeShared("candidates versus the reference feed (valid examples)", () => {
  const pack = loadPack(readShared("data/intelligence-pack/intelligence-pack-v1.json"));

  it("lists every valid example", () => {
    expect(Object.keys(DIFFERENCES)).toHaveLength(10);
  });

  for (const [name, differences] of Object.entries(DIFFERENCES)) {
    for (const mode of MODES) {
      it(`${name} (${mode})`, () => {
        const capsule = readShared("data/bridge-examples/valid", `${name}.capsule.json`);
        const ref = reference(name, mode);
        // The reference lines are canonical JSON + LF, like ours.
        expect(`${canonicalText(ref.record, "record")}\n`).toBe(ref.text);

        const includeTypologyMatches = mode === "with-typology-matches";
        const result = deriveCandidate(capsule, pack, { includeTypologyMatches, includeClean: true });
        expect(result.status).toBe("emitted");
        if (result.status !== "emitted") return;
        const ours = JSON.parse(JSON.stringify(result.candidate)) as Obj;

        // Each listed difference is real (the reference has another value) and ours is exactly the stated value.
        const expected = structuredClone(ref.record);
        for (const d of differences.filter((x) => x.modes.includes(mode))) {
          expect(getPath(ref.record, d.path), `${d.path}: ${d.why}`).not.toEqual(d.ours);
          expect(getPath(ours, d.path), `${d.path}: ${d.why}`).toEqual(d.ours);
          setPath(expected, d.path, d.ours);
        }
        // Everything else is equal, field by field.
        const keys = new Set([...Object.keys(expected), ...Object.keys(ours)]);
        for (const k of keys) expect(ours[k], k).toEqual(expected[k]);

        // Serialised canonically; digest over those bytes.
        expect(Buffer.from(result.bytes).toString("utf8")).toBe(canonicalText(ours, "candidate"));
        expect(result.digest).toBe(sha256Hex(result.bytes));

        if (CLEAN.has(name)) {
          expect(deriveCandidate(capsule, pack, { includeTypologyMatches, includeClean: false })).toEqual({
            status: "excluded",
            reason: "overall tier is CLEAN (use --include-clean)",
          });
        } else {
          const again = deriveCandidate(capsule, pack, { includeTypologyMatches, includeClean: false });
          expect(again.status === "emitted" && again.digest).toBe(result.digest);
        }
      });
    }
  }

  it("keeps the withheld sentence where no hypothesis remains in the default feed", () => {
    const capsule = readShared("data/bridge-examples/valid", "01-mule-account-rental-hinglish.capsule.json");
    const r = deriveCandidate(capsule, pack, { includeTypologyMatches: false, includeClean: false });
    expect(r.status === "emitted" && r.candidate.origin_answer).toBe(WITHHELD_ANSWER);
    expect(r.status === "emitted" && r.candidate.hypotheses).toEqual([]);
  });
});
