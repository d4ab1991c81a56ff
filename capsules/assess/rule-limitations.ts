/**
 * The one rule-specific limitation sentence each threat finding carries (assessment-v1 §2.4). The reference's
 * sentences are known for two rules (its examples); the other eight are this project's, in the same register.
 */
export const RULE_LIMITATIONS: Readonly<Record<string, string>> = Object.freeze({
  narcotics_trade_offer: "Slang for controlled substances changes quickly and overlaps with lawful products and jokes.",
  wildlife_trade_offer: "Legality can depend on species, jurisdiction, permits, provenance, and exemptions.",
  weapons_trade_offer: "Lawful sales, replicas, and licensed dealers can use the same vocabulary.",
  forged_document_offer: "Template, replacement, and translation services can resemble forged-document offers.",
  stolen_data_offer: "Account or data listings can be lures that hold no real data.",
  task_scam_pattern: "Genuine task, review, and gig platforms use similar recruitment language.",
  investment_scam_pattern: "Return claims are not verified here; licensed investment offers can use similar terms.",
  impersonation_phishing_pattern: "A genuine authority or courier notice can share wording with an impersonation.",
  advance_fee_scam_pattern: "Genuine fees and recovery services exist; the pattern does not show the fee is fraudulent.",
  forced_labour_recruitment_risk: "Treat as a safeguarding lead: do not contact or confront a suspected recruiter.",
});
