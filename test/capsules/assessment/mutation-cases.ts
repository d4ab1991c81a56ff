/** One-field mutations of valid examples, each violating one hardened rule of assessment-v1 §2, with the expected message parts. */
import type { JsonObject, JsonValue } from "../../../src/json/value.js";
import { float, getAt, setAt } from "./helpers.js";

export type Edit = (root: JsonObject) => void;
const set =
  (path: (string | number)[], value: JsonValue | undefined): Edit =>
  (root) =>
    setAt(root, path, value);

export const WALLET = "Tc7vvkvZ8PyDBri5LYHGgCrDJtMnc2XRr9";
export const HANDLE = "@cashout_wallet_desk";
export const DIRECT = "34-ext-direct-link-wallet";
const WILDLIFE = "13-wildlife-ivory-en";
const CHANNEL = "05-feiqian-zh-simplified-plus-mule";

// [case, example, edit, message parts]
export const cases: [string, string, Edit, string[]][] = [
  ["unknown top-level field (W4 raw_text)", DIRECT, set(["raw_text"], "Seller @x"), ["assessment: unknown field(s): raw_text (closed object"]],
  ["missing top-level field", DIRECT, set(["origin_answer"], undefined), ["assessment: missing field(s): origin_answer"]],
  ["wallet-like unknown key is withheld", DIRECT, set([WALLET], 1), ["assessment: unknown field(s): <key of 34 characters>"]],
  ["schema version", DIRECT, set(["schema_version"], "scamshield-provenance/v2"), ["assessment.schema_version: expected 'scamshield-provenance/v1' (got 'scamshield-provenance/v2')"]],
  ["family outside the closed enum (W7)", DIRECT, set(["detector", "families", 0], "JohnDoe"), ["assessment.detector.families[0]: expected one of ACCOUNT, COUNTERFEIT, GAMBLING, MECHANIC, RATE (got a string of 7 characters)"]],
  ["families unsorted", DIRECT, set(["detector", "families"], ["RATE", "ACCOUNT"]), ["assessment.detector.families[1]: items must be sorted by code point without duplicates"]],
  ["boolean score", DIRECT, set(["detector", "score"], true), ["assessment.detector.score: expected integer in [0, 9007199254740991] (got boolean)"]],
  ["negative carrier score", DIRECT, set(["detector", "carrier_score"], -1), ["assessment.detector.carrier_score: expected integer in [0, 9007199254740991] (got -1)"]],
  ["CLEAN with a high score", DIRECT, set(["detector", "tier"], "CLEAN"), ["assessment.detector.tier: CLEAN requires score < 15 (score is 70)"]],
  ["tier above its score", "08-golden-triangle-casino-junket", set(["detector", "tier"], "CONFIRMED_PATTERN"), ["assessment.detector.tier: CONFIRMED_PATTERN requires score >= 60 (score is 40)"]],
  ["unknown signal name", DIRECT, set(["detector", "signals", 0, "name"], "made_up_signal"), ["assessment.detector.signals[0].name: expected one of above_market_admission"]],
  ["suppressor with a wrong family", DIRECT, set(["detector", "signals", 0, "name"], "victim_warning_frame"), ["assessment.detector.signals[0].family: signal 'victim_warning_frame' must have family SUPPRESS (got RATE)"]],
  ["float signal weight", DIRECT, set(["detector", "signals", 0, "weight"], float(30, "30.0")), ["assessment.detector.signals[0].weight: expected integer", "(got float)"]],
  ["IOC kinds partly present", DIRECT, set(["detector", "iocs", "urls"], undefined), ["assessment.detector.iocs: expected {} or all of handles, phones, channels, wallets, emails, urls (missing: urls)"]],
  ["duplicate IOC value", DIRECT, set(["detector", "iocs", "handles"], [HANDLE, HANDLE]), ["assessment.detector.iocs.handles[1]: duplicate item (same as item 0)"]],
  ["bidi control in an IOC", DIRECT, set(["detector", "iocs", "handles", 0], `${HANDLE}\u202e`), ["assessment.detector.iocs.handles[0]: control, format or bidi character U+202E is forbidden"]],
  ["threat assessment {} (W13)", WILDLIFE, set(["threat_assessment"], new Map()), ["assessment.threat_assessment: missing field(s): schema_version, ruleset_version, tier"]],
  ["unknown ruleset", WILDLIFE, set(["threat_assessment", "ruleset_version"], "2026-09-01.1"), ["assessment.threat_assessment.ruleset_version: expected '2026-08-08.1'"]],
  ["finding family not the rule's", WILDLIFE, set(["threat_assessment", "findings", 0, "family"], "FRAUD"), ["assessment.threat_assessment.findings[0].family: rule wildlife_trade_offer has family WILDLIFE (got FRAUD)"]],
  ["finding label not the rule's", WILDLIFE, set(["threat_assessment", "findings", 0, "label"], "Confirmed criminal network"), ["assessment.threat_assessment.findings[0].label: rule wildlife_trade_offer has the fixed label"]],
  ["capped rule above LIKELY_SCAM", WILDLIFE, set(["threat_assessment", "findings", 0, "tier"], "CONFIRMED_PATTERN"), ["assessment.threat_assessment.findings[0].tier: rule wildlife_trade_offer is capped at LIKELY_SCAM"]],
  ["finding score off the formula", WILDLIFE, set(["threat_assessment", "findings", 0, "score"], 55), ["assessment.threat_assessment.findings[0].score: expected 50 = floor 35 for LIKELY_SCAM + 5 per evidence class beyond 2, capped at 85 (got 55)"]],
  ["contact carries terms", WILDLIFE, (r) => (getAt(r, ["threat_assessment", "findings", 0, "matched_terms"]) as JsonObject).set("contact", ["x"]), ["assessment.threat_assessment.findings[0].matched_terms: unknown key(s): contact"]],
  ["threat tier not the first finding's", WILDLIFE, set(["threat_assessment", "tier"], "WATCH"), ["assessment.threat_assessment.tier: expected LIKELY_SCAM (tier of findings[0]; got WATCH)"]],
  ["threat families not derived", WILDLIFE, set(["threat_assessment", "families"], ["FRAUD"]), ["assessment.threat_assessment.families: expected the unique finding families in finding order: [WILDLIFE]"]],
  ["threat limitations edited", WILDLIFE, set(["threat_assessment", "limitations", 0], "Anything goes."), ["assessment.threat_assessment.limitations[0]: expected 'Findings describe message patterns, not guilt or verified illegality.'"]],
  ["collection {} (W13)", DIRECT, set(["collection"], new Map()), ["assessment.collection: missing field(s): schema_version, surface, authorization"]],
  ["public channel without public authorization", CHANNEL, set(["collection", "authorization"], "user_submitted"), ["assessment.collection.authorization: surface public_channel requires authorization public (got user_submitted)"]],
  ["public channel without pseudonym (W13)", CHANNEL, set(["collection", "source_pseudonym"], ""), ["assessment.collection.source_pseudonym: surface public_channel requires a non-empty pseudonym"]],
  ["pseudonym not hex24", DIRECT, set(["collection", "source_pseudonym"], "4080784D2BE288390FBE20AC"), ["assessment.collection.source_pseudonym: expected 24 lowercase hex characters"]],
  ["script hints out of order", CHANNEL, set(["collection", "script_hints"], ["han", "latin"]), ["assessment.collection.script_hints[1]: items must be unique and in the order latin, devanagari, han, arabic, cyrillic, undetermined"]],
  ["no script hint", CHANNEL, set(["collection", "script_hints"], []), ["assessment.collection.script_hints: expected at least 1 item (got 0)"]],
  ["undetermined with another hint", CHANNEL, set(["collection", "script_hints"], ["latin", "undetermined"]), ["assessment.collection.script_hints: 'undetermined' must be the only script hint"]],
  ["offset timestamp (W10)", DIRECT, set(["created_at"], "2026-08-20T14:37:03+05:30"), ["assessment.created_at: expected a UTC timestamp YYYY-MM-DDTHH:MM:SS[.ffffff]Z"]],
  ["leap second (W14)", DIRECT, set(["created_at"], "2026-08-20T23:59:60Z"), ["assessment.created_at: expected a UTC timestamp"]],
  ["February 30 (W14)", DIRECT, set(["created_at"], "2026-02-30T10:00:00Z"), ["assessment.created_at: expected a UTC timestamp"]],
  ["seven fractional digits (W14)", DIRECT, set(["created_at"], "2026-08-20T10:00:00.1234567Z"), ["assessment.created_at: expected a UTC timestamp"]],
  ["lowercase z (W14)", DIRECT, set(["created_at"], "2026-08-20T10:00:00z"), ["assessment.created_at: expected a UTC timestamp"]],
  ["observed_at grammar", DIRECT, set(["collection", "observed_at"], "2026-08-20 12:58:37Z"), ["assessment.collection.observed_at: expected a UTC timestamp"]],
  ["market rate -1e308 (W13)", DIRECT, set(["market_rate", "rate"], float(-1e308, "-1e+308")), ["assessment.market_rate.rate: expected float in [40, 250] (got a value outside the range)"]],
  ["market rate as integer lexeme", DIRECT, set(["market_rate", "rate"], 92), ["assessment.market_rate.rate: expected float in [40, 250] (got integer)"]],
  ["unknown market rate status", DIRECT, set(["market_rate", "status"], "GUESSED"), ["assessment.market_rate.status: expected one of CORROBORATED, SINGLE_SOURCE, DIVERGENT, STALE, FALLBACK (got 'GUESSED')"]],
  ["market rate extra field (W4)", DIRECT, set(["market_rate", "debug"], "x"), ["assessment.market_rate: unknown field(s): debug"]],
  ["plain-http source URL", DIRECT, set(["market_rate", "source_urls", 0], "http://api.example.org/x"), ["assessment.market_rate.source_urls[0]: expected an https:// URL"]],
  ["pack digest not hex", DIRECT, set(["intelligence_pack", "sha256"], "C13BFA22576398C575D8B5A3561ED89C060C78A62852282E62F1716E98B28C01"), ["assessment.intelligence_pack.sha256: expected 64 lowercase hex characters"]],
  ["matched_indicators as a string (W4)", DIRECT, set(["hypotheses", 1, "matched_indicators"], "raw text of the message"), ["assessment.hypotheses[1].matched_indicators: expected array (got string)"]],
  ["bidi override in a label", DIRECT, set(["hypotheses", 0, "label"], "Mexico\u202e-based"), ["assessment.hypotheses[0].label: control, format or bidi character U+202E is forbidden"]],
  ["typology id not an identifier", DIRECT, set(["hypotheses", 1, "typology_id"], "Mule-Crypto"), ["assessment.hypotheses[1].typology_id: expected an identifier"]],
  ["unknown dimension", DIRECT, set(["hypotheses", 1, "dimension"], "money_laundering"), ["assessment.hypotheses[1].dimension: expected one of laundering_mechanism, operating_ecosystem, predicate_offence (got 'money_laundering')"]],
  ["unknown support level", DIRECT, set(["hypotheses", 1, "support_level"], "PROVEN"), ["assessment.hypotheses[1].support_level: expected one of TYPOLOGY_MATCH, CORROBORATED_LEAD, DIRECT_LINK (got 'PROVEN')"]],
  ["zero backers", DIRECT, set(["hypotheses", 1, "independent_backers"], 0), ["assessment.hypotheses[1].independent_backers: expected integer in [1, 9007199254740991] (got 0)"]],
  ["float backers", DIRECT, set(["hypotheses", 1, "independent_backers"], float(1, "1.0")), ["assessment.hypotheses[1].independent_backers: expected integer", "(got float)"]],
  ["evidence classes unsorted", DIRECT, set(["hypotheses", 1, "evidence_classes"], ["commercial_terms", "account"]), ["assessment.hypotheses[1].evidence_classes[1]: items must be sorted by code point without duplicates"]],
  ["no typology sources", DIRECT, set(["hypotheses", 1, "typology_sources"], []), ["assessment.hypotheses[1].typology_sources: expected at least 1 item (got 0)"]],
  ["control character in a term hit", DIRECT, set(["hypotheses", 1, "matched_indicators", 0, "term_hits"], ["cash\u0007out"]), ["assessment.hypotheses[1].matched_indicators[0].term_hits[0]: control character U+0007 is forbidden"]],
  ["duplicate matched indicator", DIRECT, (r) => { const list = getAt(r, ["hypotheses", 1, "matched_indicators"]) as JsonValue[]; list.push(list[0]); }, ["assessment.hypotheses[1].matched_indicators[2].id: duplicate id (same as item 0)"]],
  ["same typology twice (W13)", DIRECT, (r) => { const list = getAt(r, ["hypotheses"]) as JsonValue[]; list.push(list[1]); }, ["assessment.hypotheses[2].typology_id: duplicate typology (one hypothesis per typology)"]],
  ["33 hypotheses", DIRECT, (r) => { const list = getAt(r, ["hypotheses"]) as JsonValue[]; while (list.length < 33) list.push(list[1]); }, ["assessment.hypotheses: expected at most 32 items (got 33)"]],
  ["observation of another typology", DIRECT, set(["hypotheses", 0, "external_observations", 0, "typology_id"], "mule-crypto-cashout"), ["assessment.hypotheses[0].external_observations[0].typology_id: must equal the hypothesis typology_id"]],
  ["reserved source group", DIRECT, set(["hypotheses", 0, "external_observations", 0, "source_group"], "submitted-message"), ["assessment.hypotheses[0].external_observations[0].source_group: 'submitted-message' is reserved"]],
  ["IOC fields on a context observation", DIRECT, set(["hypotheses", 0, "external_observations", 0, "match_type"], "context"), ["assessment.hypotheses[0].external_observations[0].matched_ioc_kind: must be \"\" for match_type context"]],
  ["unbound exact IOC (M2)", DIRECT, set(["detector", "iocs", "wallets"], ["TQn9Y2khEsLJW1ChVWFMSMeRDow5KcbLSE"]), ["assessment.hypotheses[0].external_observations[0].matched_ioc_value: exact_ioc observation does not bind an IOC extracted from this message (detector.iocs.wallets)"]],
  ["DIRECT_LINK without a direct observation (W2)", DIRECT, set(["hypotheses", 0, "external_observations", 0, "reliability"], "derived"), ["assessment.hypotheses[0].support_level: DIRECT_LINK requires an authoritative exact_ioc observation"]],
  ["artifact URI scheme", DIRECT, set(["hypotheses", 0, "external_observations", 0, "artifact_uri"], "javascript:alert(1)"), ["assessment.hypotheses[0].external_observations[0].artifact_uri: expected \"\", an https:// URL or a urn:"]],
  ["blank summary", DIRECT, set(["hypotheses", 0, "external_observations", 0, "summary"], " \u00a0\u3000"), ["assessment.hypotheses[0].external_observations[0].summary: expected a non-blank string"]],
  ["abstention for an unknown dimension", DIRECT, set(["abstentions", "extra"], "no qualifying case-specific evidence"), ["assessment.abstentions: unknown key(s): extra"]],
  ["free-text abstention", DIRECT, set(["abstentions", "predicate_offence"], "call +91 90000 11111"), ["assessment.abstentions.predicate_offence: expected one of no qualifying case-specific evidence, message-level typology match only; origin not established (got a string of 20 characters)"]],
  ["handle planted in the limitations (W1)", DIRECT, set(["limitations", 1], "Seller reachable at @leaky_handle"), ["assessment.limitations[1]: expected 'Typology sources describe known methods;"]],
  ["a fourth limitation", DIRECT, (r) => (r.get("limitations") as JsonValue[]).push("extra"), ["assessment.limitations: expected exactly 3 items (got 4)"]],
  ["origin answer with a control character", DIRECT, set(["origin_answer"], "line\nbreak"), ["assessment.origin_answer: control, format or bidi character U+000A is forbidden"]],
];

/** Private values planted by the cases above; no message may contain them. */
export const PRIVATE = [WALLET, HANDLE, "@leaky_handle", "+91 90000 11111", "TQn9Y2khEsLJW1ChVWFMSMeRDow5KcbLSE", "4080784D2BE288390FBE20AC", "raw text of the message", "Seller @x", "JohnDoe"];

