/**
 * Assessment → Evidence Capsule v1 content (assessment-v1 §6): one inline artifact holding the exact input bytes, the
 * claims, derivations and intents of the reference bridge. The pipeline's build stage (capsules/pipeline/build.ts)
 * builds it (capsule-v1 §11.1) and self-verifies it (C1) before anything is emitted. With the reference producer
 * block the output is byte-identical to the reference bridge.
 */
import { sha256Hex } from "../../src/hash.js";
import type { Assessment } from "./types.js";

export interface Producer {
  name: string;
  software: string;
}

/** The reference producer block (byte parity with the reference bridge, §6.2). */
export const REFERENCE_PRODUCER: Readonly<Producer> = Object.freeze({ name: "Palimpsest", software: "evidence.scamshield/v1" });

/**
 * The producer block of capsules built by `assess` (a raw message plus the client's judgement): their claims add
 * `judgement-origin`, which says the signals and findings came from the client, not from a detector.
 */
export const ASSESS_PRODUCER: Readonly<Producer> = Object.freeze({ name: "evidence-bridge", software: "evidence-bridge/assess" });

const JUDGEMENT_ORIGIN_STATEMENT =
  "The detector signals, threat findings, surface and authorization in the attached assessment were stated by the analyst's client (a person or a language model), not produced by a detector; evidence-bridge derived every other field deterministically from the message and that judgement.";
const JUDGEMENT_ORIGIN_LIMITATIONS = [
  "The client's judgement is an opinion about the message; scores and tiers computed from it are only as sound as that judgement.",
];

/** The default producer block: this project, at its package version. */
export function projectProducer(version: string): Producer {
  return { name: "evidence-bridge", software: `evidence-bridge/${version}` };
}

const ARTIFACT = "assessment";
const MEDIA_TYPE = "application/vnd.scamshield.provenance+json";

const IDENTITY_LIMITATIONS = [
  "The original Telegram message is not embedded, so this capsule cannot rerun the detector.",
  "The message hash binds an external message only if a reviewer possesses the exact original bytes.",
  "Capsule verification checks bytes and declared references, not detector correctness or natural-language truth.",
];

const INTENTS = [
  { type: "human-review", summary: "Review the exact assessment, cited typology sources, and every stated limitation.", advisory: true },
  {
    type: "preserve",
    summary: "Preserve the original message separately if policy and consent permit; its SHA-256 is recorded here.",
    advisory: true,
  },
];

function claim(id: string, type: string, statement: string, derivationRefs: string[], limitations: readonly string[]) {
  return {
    id,
    type,
    statement,
    artifact_refs: [ARTIFACT],
    derivation_refs: derivationRefs,
    binding_refs: [],
    evidence_level: "derived",
    limitations: [...limitations],
  };
}

function extraction(id: string, description: string, claimId: string, pointer: string, expected: unknown) {
  return {
    id,
    type: "extraction",
    description,
    input_artifact_refs: [ARTIFACT],
    supports_claim_refs: [claimId],
    proof: { type: "json-pointer-equals-v1", artifact_ref: ARTIFACT, pointer, expected },
  };
}

function read(pointer: string, what = "the attached assessment"): string {
  return `Read ${pointer} from ${what}.`;
}

/** The capsule content for an assessment whose exact input bytes are `bytes` (§6.2–§6.6), as plain JS. */
export function assessmentContent(bytes: Uint8Array, a: Assessment, producer: Producer): Record<string, unknown> {
  const id = a.assessment_id;
  const claims = [
    claim(
      "assessment-identity",
      "provenance",
      `The attached ScamShield assessment identifies itself as ${id}, binds message SHA-256 ${a.message_sha256}, and records money-flow detector tier ${a.detector.tier} with score ${a.detector.score}.`,
      ["extract-assessment-id", "extract-message-hash", "extract-detector-tier"],
      IDENTITY_LIMITATIONS,
    ),
  ];
  const derivations = [
    extraction("extract-assessment-id", read("/assessment_id"), "assessment-identity", "/assessment_id", id),
    extraction("extract-message-hash", read("/message_sha256"), "assessment-identity", "/message_sha256", a.message_sha256),
    extraction("extract-detector-tier", read("/detector/tier"), "assessment-identity", "/detector/tier", a.detector.tier),
  ];

  const t = a.threat_assessment;
  const families = t.families.length > 0 ? t.families.join(", ") : "none";
  claims.push(
    claim(
      "threat-assessment",
      "analytical-lead",
      `The ScamShield assessment records threat-pattern tier ${t.tier} with score ${t.score} and family/families ${families}.`,
      ["extract-threat-tier", "extract-threat-score", "extract-threat-families"],
      [...t.limitations, ...a.limitations],
    ),
  );
  derivations.push(
    extraction("extract-threat-tier", read("/threat_assessment/tier"), "threat-assessment", "/threat_assessment/tier", t.tier),
    extraction("extract-threat-score", read("/threat_assessment/score"), "threat-assessment", "/threat_assessment/score", t.score),
    extraction(
      "extract-threat-families",
      read("/threat_assessment/families"),
      "threat-assessment",
      "/threat_assessment/families",
      [...t.families],
    ),
  );

  a.hypotheses.forEach((h, i) => {
    claims.push(
      claim(
        `hypothesis-${i}`,
        "analytical-lead",
        `The ScamShield assessment records ${h.label} (${h.dimension}) at support level ${h.support_level}, with ${h.independent_backers} independent backer(s).`,
        [`extract-hypothesis-${i}`],
        [...h.limitations, ...a.limitations],
      ),
    );
    derivations.push(
      extraction(
        `extract-hypothesis-${i}`,
        read(`/hypotheses/${i}/support_level`, "the assessment"),
        `hypothesis-${i}`,
        `/hypotheses/${i}/support_level`,
        h.support_level,
      ),
    );
  });
  if (producer.name === ASSESS_PRODUCER.name && producer.software === ASSESS_PRODUCER.software) {
    claims.push(
      claim("judgement-origin", "provenance", JUDGEMENT_ORIGIN_STATEMENT, ["extract-detector-signals"], JUDGEMENT_ORIGIN_LIMITATIONS),
    );
    derivations.push(
      extraction(
        "extract-detector-signals",
        read("/detector/signals"),
        "judgement-origin",
        "/detector/signals",
        a.detector.signals.map((s) => ({ name: s.name, family: s.family, weight: s.weight })),
      ),
    );
  }
  if (a.hypotheses.length === 0) {
    claims.push(
      claim(
        "provenance-abstention",
        "analytical-lead",
        "The ScamShield assessment records no qualifying provenance hypothesis.",
        ["extract-empty-hypotheses"],
        a.limitations,
      ),
    );
    derivations.push(
      extraction("extract-empty-hypotheses", "Verify that /hypotheses is the empty array.", "provenance-abstention", "/hypotheses", []),
    );
  }

  return {
    spec_version: "palimpsest-evidence-capsule/v1",
    canonicalization: "palimpsest-json-sorted-utf8-v1",
    created_at: a.created_at,
    producer: { name: producer.name, software: producer.software },
    subject: { type: "analytical-lead", id: `scamshield:${id}`, title: `ScamShield provenance assessment ${id}` },
    artifacts: [
      {
        id: ARTIFACT,
        sha256: sha256Hex(bytes),
        size: bytes.length,
        media_type: MEDIA_TYPE,
        source: { uri: `urn:scamshield:assessment:${id}`, captured_at: a.created_at, collector: "ScamShield provenance/v1" },
        untrusted: true,
        location: { type: "inline", encoding: "base64", data: Buffer.from(bytes.buffer, bytes.byteOffset, bytes.length).toString("base64") },
      },
    ],
    claims,
    derivations,
    intents: INTENTS.map((x) => ({ ...x })),
    bindings: [],
  };
}
