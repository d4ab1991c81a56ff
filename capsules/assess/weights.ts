/**
 * The detector weight table of `assess` (docs/assess.md "Weight table"): every one of the 45 detector signal names
 * of assessment-v1 §2.3 → its signal family and weight. The reference producer's weights are not published (its
 * examples show one name with different weights), so these are this project's, chosen so that one strong account
 * signal plus one supporting signal reaches WATCH, and a rental offer plus sourcing and terms reaches LIKELY_SCAM.
 * Suppressors lower the score; a veto cancels it.
 */
import type { DetectorFamily, SignalFamily, Tier } from "../assessment/types.js";

export interface SignalWeight {
  family: SignalFamily;
  weight: number;
}

const w = (family: SignalFamily, weight: number): SignalWeight => Object.freeze({ family, weight });

export const SIGNAL_WEIGHTS: Readonly<Record<string, SignalWeight>> = Object.freeze({
  above_market_admission: w("RATE", 20),
  above_market_rate: w("RATE", 25),
  account_rental_offer: w("ACCOUNT", 30),
  account_rental_vocabulary_in_prohibition: w("WEAK", 0),
  account_sourcing_demand: w("ACCOUNT", 20),
  account_type_price_sheet: w("ACCOUNT", 20),
  account_use_solicitation: w("ACCOUNT", 20),
  banking_kit_handover: w("ACCOUNT", 25),
  cash_pickup_leg: w("MECHANIC", 20),
  cashout_courier_mechanic: w("MECHANIC", 20),
  cashout_vocabulary_in_prohibition: w("WEAK", 0),
  cn_ad_agency_marker: w("GAMBLING", 10),
  commission_share_terms: w("WEAK", 10),
  contact_fanout: w("WEAK", 5),
  counterfeit_delivery_channel: w("COUNTERFEIT", 20),
  counterfeit_note_mention: w("COUNTERFEIT", 10),
  counterfeit_note_offer: w("COUNTERFEIT", 35),
  credential_kit_enumeration: w("ACCOUNT", 20),
  earn_from_home_job_frame: w("WEAK", 10),
  fast_settlement_window: w("WEAK", 10),
  freeze_compensation_offer: w("WEAK", 10),
  fresh_clean_account_demand: w("ACCOUNT", 20),
  gambling_term_mention: w("WEAK", 5),
  gambling_tips_ad: w("GAMBLING", 20),
  illicit_predicate_settlement: w("MECHANIC", 20),
  local_settlement_language: w("WEAK", 5),
  mule_template_phrase: w("WEAK", 15),
  payin_payout_recruitment: w("MECHANIC", 20),
  per_account_pricing: w("ACCOUNT", 15),
  prepaid_demand: w("WEAK", 10),
  rate_quoted_inside_moderation_rule: w("WEAK", 0),
  source_of_funds_waiver: w("WEAK", 15),
  sub_agent_recruitment: w("MECHANIC", 15),
  throughput_limit_requirement: w("WEAK", 10),
  tiered_fund_menu: w("MECHANIC", 15),
  tiered_price_menu: w("WEAK", 10),
  upi_usdt_bridge: w("MECHANIC", 20),
  victim_warning_frame: w("SUPPRESS", -15),
  quoted_ad_span: w("SUPPRESS", -15),
  civic_reporting_reference: w("SUPPRESS", -15),
  research_journalism_frame: w("SUPPRESS", -15),
  interrogative_victim_query: w("SUPPRESS", -15),
  rate_fx_veto: w("VETO", -100),
  payment_ops_and_compliance_context: w("VETO", -100),
  housing_rental_context: w("VETO", -100),
});

/** Detector tier thresholds (assessment-v1 §2.3): the highest tier whose floor the score reaches. */
export const TIER_THRESHOLDS: readonly (readonly [Exclude<Tier, "CLEAN">, number])[] = [
  ["CONFIRMED_PATTERN", 60],
  ["LIKELY_SCAM", 35],
  ["WATCH", 15],
];

const DETECTOR_FAMILY_SET: ReadonlySet<string> = new Set(["ACCOUNT", "COUNTERFEIT", "GAMBLING", "MECHANIC", "RATE"]);

export interface DetectorScore {
  tier: Tier;
  score: number;
  families: DetectorFamily[];
  signals: { name: string; family: SignalFamily; weight: number }[];
}

/**
 * Score = max(0, sum of weights); tier from {@link TIER_THRESHOLDS}; families = the detector families of the
 * positive-weight signals, sorted, none when the tier is CLEAN; signals listed by name.
 */
export function scoreSignals(names: readonly string[]): DetectorScore {
  const sorted = [...new Set(names)].sort();
  const signals = sorted.map((name) => ({ name, ...SIGNAL_WEIGHTS[name] }));
  const score = Math.max(0, signals.reduce((sum, s) => sum + s.weight, 0));
  const tier = TIER_THRESHOLDS.find(([, floor]) => score >= floor)?.[0] ?? "CLEAN";
  const families =
    tier === "CLEAN"
      ? []
      : ([...new Set(signals.filter((s) => s.weight > 0 && DETECTOR_FAMILY_SET.has(s.family)).map((s) => s.family))].sort() as DetectorFamily[]);
  return { tier, score, families, signals };
}
