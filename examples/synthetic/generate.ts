/**
 * Writes the synthetic example that ships with evidence-bridge (used by `evidence-bridge demo`, the README and
 * tests): a small intelligence pack, a message and a `scamshield-provenance/v1` assessment of it. Everything here
 * is invented by this project: the typologies, sources (example.org), message, handle and wallet are fictitious.
 *
 * The assessment's hypotheses, answer, abstentions and id are computed with the project's own matcher, so the
 * files are consistent by construction. Run: npx tsx examples/synthetic/generate.ts
 */
import { writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { computeAssessmentId } from "../../capsules/assessment/assessment-id.js";
import { legacyCanonicalBytes } from "../../src/json/legacy.js";
import { parseStrictJson } from "../../src/json/parse.js";
import type { JsonObject } from "../../src/json/value.js";
import { messageSha256, pseudonym } from "../../src/message-hash.js";
import { loadPack, packDigest } from "../../published/pack/load.js";
import { assessProvenance } from "../../published/pack/provenance.js";
import { ASSESSMENT_LIMITATIONS } from "../../published/pack/templates.js";

const here = dirname(fileURLToPath(import.meta.url));

export const SYNTHETIC_PACK = {
  schema: "scamshield-intelligence-pack/v1",
  version: "synthetic-2026-11.1",
  generated_at: "2026-11-01T00:00:00Z",
  publisher: { name: "evidence-bridge synthetic example", project_url: "https://example.org/evidence-bridge" },
  method: {
    summary: "Synthetic typologies for demonstrating evidence-bridge; they describe no real case or source.",
    support_levels: ["TYPOLOGY_MATCH", "CORROBORATED_LEAD", "DIRECT_LINK"],
    principles: [
      "A synthetic typology match is a demonstration, never an allegation.",
      "Message text alone cannot establish the origin of specific funds.",
    ],
  },
  sources: [
    {
      id: "synthetic-mule-guide",
      publisher: "Example Research Desk",
      title: "Synthetic guide to bank-account rental offers (demonstration only)",
      published_at: "2026-10-01",
      url: "https://example.org/research/synthetic-mule-guide",
    },
    {
      id: "synthetic-cashout-note",
      publisher: "Example Research Desk",
      title: "Synthetic note on stablecoin cash-out brokers (demonstration only)",
      published_at: "2026-10-15",
      url: "https://example.org/research/synthetic-cashout-note",
    },
  ],
  typologies: [
    {
      id: "synthetic-account-rental",
      dimension: "laundering_mechanism",
      label: "Synthetic bank-account rental for payment routing",
      description: "Offers to rent out personal bank accounts so that third-party payments can be routed through them.",
      minimum_indicators: 2,
      minimum_specificity: "high",
      source_refs: ["synthetic-mule-guide"],
      limitations: ["Account-rental language can also appear in warnings and news about such offers."],
      indicators: [
        {
          id: "rental-offer-language",
          label: "explicit offer to rent out a bank account",
          evidence_class: "recruitment",
          specificity: "high",
          any_terms: ["rent your bank account", "account on rent", "rent out your account"],
        },
        {
          id: "per-transfer-commission",
          label: "commission paid per routed transfer",
          evidence_class: "payment",
          specificity: "medium",
          any_terms: ["commission per transfer", "per transaction commission"],
          any_signals: ["commission_share_terms"],
        },
      ],
    },
    {
      id: "synthetic-stablecoin-cashout",
      dimension: "operating_ecosystem",
      label: "Synthetic stablecoin-to-cash broker network",
      description: "Brokers that convert stablecoins to local cash through couriers, outside regulated exchanges.",
      minimum_indicators: 2,
      minimum_specificity: "medium",
      source_refs: ["synthetic-cashout-note"],
      limitations: ["Stablecoin trading is legal in many places; a broker advertisement alone proves nothing."],
      indicators: [
        {
          id: "stablecoin-cash-conversion",
          label: "stablecoin converted to cash",
          evidence_class: "settlement",
          specificity: "medium",
          any_terms: ["usdt to cash", "usdt for cash"],
        },
        {
          id: "courier-delivery",
          label: "cash delivered by courier",
          evidence_class: "fulfilment",
          specificity: "medium",
          any_terms: ["cash courier", "doorstep cash"],
        },
      ],
    },
  ],
};

export const SYNTHETIC_MESSAGE =
  "Earn daily from home! Rent your bank account to our team, commission per transfer paid every evening. " +
  "Savings or current accounts both fine. Message @synthetic_recruiter_demo today.";

function main(): void {
  const packBytes = Buffer.from(JSON.stringify(SYNTHETIC_PACK, null, 2) + "\n", "utf8");
  const pack = loadPack(packBytes);
  const signals = ["account_rental_offer", "commission_share_terms"];
  const iocs = { handles: ["@synthetic_recruiter_demo"], phones: [], channels: [], wallets: [], emails: [], urls: [] };
  const provenance = assessProvenance(pack, { text: SYNTHETIC_MESSAGE, signals, observations: [], iocs });

  const assessment: Record<string, unknown> = {
    schema_version: "scamshield-provenance/v1",
    assessment_id: "",
    created_at: "2026-11-20T09:41:07.250000Z",
    message_sha256: messageSha256(SYNTHETIC_MESSAGE),
    detector: {
      tier: "LIKELY_SCAM",
      score: 45,
      carrier_score: 0,
      families: ["ACCOUNT"],
      signals: [
        { name: "account_rental_offer", family: "ACCOUNT", weight: 30 },
        { name: "commission_share_terms", family: "ACCOUNT", weight: 15 },
      ],
      iocs,
    },
    threat_assessment: {
      schema_version: "scamshield-threat-assessment/v1",
      ruleset_version: "2026-08-08.1",
      tier: "CLEAN",
      score: 0,
      families: [],
      findings: [],
      limitations: [
        "Findings describe message patterns, not guilt or verified illegality.",
        "A human reviewer must inspect context before moderation, reporting, or publication.",
        "A message classifier cannot establish the source of specific funds.",
      ],
    },
    collection: {
      schema_version: "scamshield-collection/v1",
      surface: "private_submission",
      authorization: "user_submitted",
      // HMAC pseudonym of a fictitious source under a demo key (assessment-v1 §5.2).
      source_pseudonym: pseudonym("evidence-bridge synthetic demo key", "synthetic-source-001"),
      script_hints: ["latin"],
      observed_at: "2026-11-20T09:41:06Z",
      scope_note:
        "ScamShield observes only submitted, public, or explicitly authorized Telegram surfaces; this record does not imply Telegram-wide visibility.",
    },
    market_rate: {
      rate: 90.5,
      status: "CORROBORATED",
      observed_at: "2026-11-20T09:41:05Z",
      sources: ["example-quote-a", "example-quote-b"],
      source_urls: ["https://example.org/quotes/a", "https://example.org/quotes/b"],
      spread_pct: 0.0025,
      warnings: [],
    },
    intelligence_pack: {
      schema: SYNTHETIC_PACK.schema,
      version: SYNTHETIC_PACK.version,
      generated_at: SYNTHETIC_PACK.generated_at,
      publisher: SYNTHETIC_PACK.publisher.name,
      sha256: packDigest(packBytes),
    },
    hypotheses: provenance.hypotheses,
    origin_answer: provenance.origin_answer,
    abstentions: provenance.abstentions,
    limitations: [...ASSESSMENT_LIMITATIONS],
  };
  // The id covers the assessment without `assessment_id` and `limitations` (assessment-v1 §5.3).
  const value = parseStrictJson(legacyCanonicalBytes(JSON.parse(JSON.stringify(assessment)))) as JsonObject;
  assessment.assessment_id = computeAssessmentId(value);
  const assessmentBytes = legacyCanonicalBytes(JSON.parse(JSON.stringify(assessment)));

  writeFileSync(join(here, "intelligence-pack.json"), packBytes);
  writeFileSync(join(here, "message.txt"), SYNTHETIC_MESSAGE);
  writeFileSync(join(here, "assessment.json"), assessmentBytes);
  process.stdout.write(`wrote ${here}/{intelligence-pack.json,message.txt,assessment.json}\n`);
}

main();
