/**
 * Closed vocabularies of the intelligence pack and of the typology matcher (assessment-v1 §2.3, §2.4, §3, §4).
 * Shared by the pack loader, the matcher and the assessment adapter (which re-exports them).
 */

export const PACK_SCHEMA = "scamshield-intelligence-pack/v1";

export const DIMENSIONS = ["laundering_mechanism", "operating_ecosystem", "predicate_offence"] as const;
export type Dimension = (typeof DIMENSIONS)[number];

export const SUPPORT_LEVELS = ["TYPOLOGY_MATCH", "CORROBORATED_LEAD", "DIRECT_LINK"] as const;
export type SupportLevel = (typeof SUPPORT_LEVELS)[number];

/** §4.8 support rank. */
export const SUPPORT_RANK: Readonly<Record<SupportLevel, number>> = Object.freeze({
  TYPOLOGY_MATCH: 1,
  CORROBORATED_LEAD: 2,
  DIRECT_LINK: 3,
});

export const SPECIFICITIES = ["low", "medium", "high"] as const;
export type Specificity = (typeof SPECIFICITIES)[number];

/** §4.4 specificity rank. */
export const SPECIFICITY_RANK: Readonly<Record<Specificity, number>> = Object.freeze({ low: 1, medium: 2, high: 3 });

export const SOURCE_KINDS = [
  "authoritative",
  "blockchain_analytics",
  "financial_institution",
  "public_osint",
  "local_history",
  "user_supplied",
] as const;
export type SourceKind = (typeof SOURCE_KINDS)[number];

/** §4.7: source kinds whose groups can qualify for a corroborated lead. */
export const QUALIFYING_SOURCE_KINDS: ReadonlySet<string> = new Set([
  "authoritative",
  "blockchain_analytics",
  "financial_institution",
  "public_osint",
]);

export const MATCH_TYPES = ["context", "behavior", "entity", "exact_ioc"] as const;
export type MatchType = (typeof MATCH_TYPES)[number];

export const RELIABILITIES = ["reported", "derived", "direct"] as const;
export type Reliability = (typeof RELIABILITIES)[number];

/** §4.7: reliabilities that can qualify a source group. */
export const QUALIFYING_RELIABILITIES: ReadonlySet<string> = new Set(["derived", "direct"]);

export const IOC_KINDS = ["handles", "phones", "channels", "wallets", "emails", "urls"] as const;
export type IocKind = (typeof IOC_KINDS)[number];

/** §4.6: the pseudo source group of the message itself; reserved for observations (§4.5 hardened). */
export const SUBMITTED_MESSAGE_GROUP = "submitted-message";

/** "Identifier (lower)" of assessment-v1 §0. */
export const IDENTIFIER_LOWER = /^[a-z][a-z0-9._-]{0,127}$/;

/** §2.3: the 45 detector signal names a producer emits. */
export const KNOWN_DETECTOR_SIGNALS: readonly string[] = Object.freeze([
  "above_market_admission",
  "above_market_rate",
  "account_rental_offer",
  "account_rental_vocabulary_in_prohibition",
  "account_sourcing_demand",
  "account_type_price_sheet",
  "account_use_solicitation",
  "banking_kit_handover",
  "cash_pickup_leg",
  "cashout_courier_mechanic",
  "cashout_vocabulary_in_prohibition",
  "cn_ad_agency_marker",
  "commission_share_terms",
  "contact_fanout",
  "counterfeit_delivery_channel",
  "counterfeit_note_mention",
  "counterfeit_note_offer",
  "credential_kit_enumeration",
  "earn_from_home_job_frame",
  "fast_settlement_window",
  "freeze_compensation_offer",
  "fresh_clean_account_demand",
  "gambling_term_mention",
  "gambling_tips_ad",
  "illicit_predicate_settlement",
  "local_settlement_language",
  "mule_template_phrase",
  "payin_payout_recruitment",
  "per_account_pricing",
  "prepaid_demand",
  "rate_quoted_inside_moderation_rule",
  "source_of_funds_waiver",
  "sub_agent_recruitment",
  "throughput_limit_requirement",
  "tiered_fund_menu",
  "tiered_price_menu",
  "upi_usdt_bridge",
  "victim_warning_frame",
  "quoted_ad_span",
  "civic_reporting_reference",
  "research_journalism_frame",
  "interrogative_victim_query",
  "rate_fx_veto",
  "payment_ops_and_compliance_context",
  "housing_rental_context",
]);

/** §2.4: threat-pattern rule ids (they enter the signal set `S` of §4). */
export const THREAT_RULE_IDS: readonly string[] = Object.freeze([
  "narcotics_trade_offer",
  "wildlife_trade_offer",
  "weapons_trade_offer",
  "forged_document_offer",
  "stolen_data_offer",
  "task_scam_pattern",
  "investment_scam_pattern",
  "impersonation_phishing_pattern",
  "advance_fee_scam_pattern",
  "forced_labour_recruitment_risk",
]);

/** Every signal name some producer component emits (detector signals ∪ threat rule ids). */
export const KNOWN_SIGNALS: ReadonlySet<string> = new Set([...KNOWN_DETECTOR_SIGNALS, ...THREAT_RULE_IDS]);
