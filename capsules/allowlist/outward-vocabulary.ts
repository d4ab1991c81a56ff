/**
 * The outward vocabulary (issue 28 item 2; docs/guard.md "What may leave"): the closed set every string of an
 * outward candidate, a feed line and an export (JSONL, STIX, MISP, CSV) is made of. The first line of the data
 * boundary: what is not in it does not leave; the form guard (capsules/guard/) is the second line, and the only
 * line for the free text a reviewer writes (the public note), which this vocabulary lets through as such.
 *
 * A string is read as a sequence of pieces, each of which must be one of:
 *
 * - **identifiers and digests**: runs of 8 or more hex digits (capsule and candidate digests, assessment ids,
 *   key fingerprints, public pseudonyms), UUIDs (STIX and MISP ids), MISP tag colours (`#FFC000`);
 * - **times and numbers**: ISO 8601 dates and times (hour-truncated candidate times, decision times, MISP and STIX
 *   timestamps), decimal numbers of at most {@link NUMBER_MAX_DIGITS} digits (counts, scores, unix seconds);
 * - **words** (letters, marks and digits in a row) of: our templates and fixed sentences ({@link FIXED_TEXTS}, the
 *   pack templates and limitation sentences), the closed vocabularies of the formats (tiers, families, support
 *   levels, dimensions, IOC kinds, surfaces, authorizations, script hints, signal and rule names, TLP levels,
 *   decisions), member names, the loaded pack's own strings (ids, labels, titles, publishers, URLs, terms), and
 *   reviewer display names;
 * - **glue**: ASCII spaces and punctuation.
 *
 * Free text (the reviewer's note, and the public note) is taken out of a string before it is read
 * ({@link OutwardVocabulary.unlisted} `freeText`): it is the one field the form guard alone checks.
 *
 * Extend it by adding the new fixed sentence or template to {@link FIXED_TEXTS} (its words join the vocabulary).
 */
import { THREAT_LIMITATIONS, SCOPE_NOTE, SCRIPT_HINT_ORDER, THREAT_EVIDENCE_CLASSES } from "../assessment/vocabulary.js";
import { AUTHORIZATIONS, DETECTOR_FAMILIES, SIGNAL_FAMILIES, SURFACES, THREAT_FAMILIES, TIERS } from "../assessment/types.js";
import { RULE_LIMITATIONS } from "../assess/rule-limitations.js";
import { WITHHELD_ANSWER } from "../candidates/feed-policy.js";
import { PUBLIC_RECORD_SCHEMA, REVIEW_REQUIRED } from "../candidates/types.js";
import { CSV_COLUMNS } from "../exports/csv.js";
import { MARKING_PROFILES, TLP_LEVELS } from "../exports/tlp.js";
import { CHECKPOINT_SCHEMA } from "../review/checkpoint.js";
import { REVIEW_RECORD_SCHEMA } from "../review/record.js";
import { REVIEW_REASONS } from "../review/text-rules.js";
import {
  ABSTAIN_NO_EVIDENCE,
  ABSTAIN_TYPOLOGY_ONLY,
  ASSESSMENT_LIMITATIONS,
  corroboratedLeadAnswer,
  directLinkAnswer,
  NO_HYPOTHESIS_ANSWER,
  typologyMatchAnswer,
} from "../../published/pack/templates.js";
import type { IntelligencePack } from "../../published/pack/types.js";
import { DIMENSIONS, IOC_KINDS, KNOWN_SIGNALS, MATCH_TYPES, RELIABILITIES, SOURCE_KINDS, SPECIFICITIES, SUPPORT_LEVELS } from "../../published/pack/vocabulary.js";

/** Longest run of decimal digits read as a number (unix seconds have 10). */
export const NUMBER_MAX_DIGITS = 10;

/**
 * Our templates and fixed sentences, and the member names of our formats and of STIX 2.1 and MISP as we write
 * them: every word of these is in the vocabulary. A template's variable parts are identifiers, numbers, times or
 * vocabulary words themselves, so its fixed words are all it adds.
 */
export const FIXED_TEXTS: readonly string[] = Object.freeze([
  // Candidates (capsules/candidates/) and feed lines.
  "schema_version capsule_sha256 assessment_id created_at review_status detector tier score families threat_assessment",
  "collection surface authorization script_hints source_pseudonym ioc_counts hypotheses typology_id dimension label",
  "support_level independent_backers origin_answer limitations feed_policy typology_match_visible automatic_publication",
  "hypotheses_withheld withheld reason status emitted candidate digest",
  // Review records and JSONL export lines (capsules/review/).
  "decision decided_at note public_note reason_code reviewer name fingerprint public_key signature seq prev_sha256 candidate_sha256",
  "APPROVED_FOR_RELEASE REJECTED NEEDS_MORE_EVIDENCE HUMAN_REVIEW_REQUIRED ed25519 sha256",
  // Lead text (capsules/exports/lead.ts), STIX and MISP names (stix.ts, misp.ts, csv.ts, tlp.ts, producer.ts).
  "evidence-bridge lead for capsule; candidate sha256:; created (hour, UTC):; overall tier: (detector score; threat score)",
  "families: none; IOC counts by kind (values withheld):; collection: /; hypotheses: none shown",
  "hypothesis (): ; support, independent backer backers; pack sources:; hypotheses withheld:; origin answer:",
  "review: by () at, record # of the signed review log; reviewer note:",
  "Reviewed lead: by; An evidence-bridge installation; its Ed25519 signing key fingerprint is.",
  "type spec_version id created modified name description identity_class system context suspicious-activity object_refs",
  "object_marking_refs abstract content authors external_references source_name url external_id bundle objects",
  "grouping note identity marking-definition extension-definition definition_type definition statement tlp TLP",
  "extensions extension_type property-extension property-extensions created_by_ref",
  "Event info date threat_level_id analysis distribution published timestamp uuid Orgc Org Attribute Tag Object",
  "category type value comment to_ids object_relation colour exportable numerical_value EventReport",
  "counter text link other External analysis Internal reference internal-reference Analyst Note Other",
  "tlp:red tlp:amber tlp:amber+strict tlp:green tlp:clear tlp:white misp-galaxy estimative-language",
  "manifest json hashes csv Your Organisation Only This Community Connected communities All",
  "evidence-bridge-lead evidence-bridge/lead evidence-bridge/decision evidence-bridge/tlp",
  "OASIS opencti OpenCTI marking AMBER STRICT RED GREEN CLEAR WHITE",
  "Palimpsest evidence scamshield v1 provenance capsule palimpsest-evidence-capsule",
  "evidence-bridge capsule candidate sha256:; the approved candidate (check the JSONL export with 'evidence-bridge review verify-export')",
  "number of indicators in the lead (values withheld); deleted publish_timestamp sharing_group_id",
  "evidence-bridge-review-checkpoint/v1 checkpoint head_sha256 digests records signer",
  // Review records and checkpoints v2 (capsules/review/record.ts, checkpoint.ts) and their lines in a lead.
  "private_note_sha256 public_note reason vetoes",
  "review reason: none (a record from before reason codes); reviewer's public note:",
  "count attribute_count custom language en x_opencti_definition_type",
  // STIX extension definitions, markings and indicators of released values (capsules/exports/stix.ts, release).
  "tiers their decisions toplevel STIX types top time properties profile precision millisecond last it exports equal",
  "definitions changed Marked Interoperability Adds requires every reviewers but below wallet valid too malicious",
  "cryptocurrency binding Each",
  // Why a candidate's hypotheses are withheld (capsules/candidates/hypotheses.ts), with `hypotheses[N]` paths.
  "assessment.intelligence_pack.sha256 differs from the digest of the loaded pack",
  "hypotheses[0].typology_id is not a typology of the loaded pack",
  "hypotheses[0].dimension differs from the loaded pack's dimension of that typology",
  "hypotheses[0].typology_id repeats an earlier hypothesis",
  "hypotheses[0] has neither a message match nor a bound external observation",
  "overall tier is CLEAN (use --include-clean)",
]);

const HEX_ID = /(?<![0-9A-Za-z])[0-9a-fA-F]{8,}(?![0-9A-Za-z])/g;
/** MISP tag colours (`#FFC000`). */
const COLOUR = /#[0-9a-fA-F]{6}(?![0-9A-Za-z])/g;
const UUID = /[0-9a-fA-F]{8}(?:-[0-9a-fA-F]{4}){3}-[0-9a-fA-F]{12}/g;
const TIME = /\d{4}-\d\d-\d\d(?:T\d\d:\d\d(?::\d\d(?:\.\d{1,9})?)?(?:Z|[+-]\d\d:\d\d)?)?/g;
const NUMBER = /(?<![\p{L}\p{M}\p{N}])\d+(?:\.\d+)?(?![\p{L}\p{M}\p{N}])/gu;
const WORD = /[\p{L}\p{M}\p{N}]+/gu;
/** What may stand between pieces: ASCII white space and punctuation. */
const GLUE = /^[\s!-/:-@[-`{-~]*$/;

/** The words of a text, lower case. */
function wordsOf(text: string): string[] {
  return (text.match(WORD) ?? []).map((w) => w.toLowerCase());
}

/** Why a string is not in the vocabulary: the rule, never the string or the word. */
export interface Unlisted {
  readonly path: string;
  readonly rule: "word" | "number" | "symbol";
}

export class OutwardVocabulary {
  private readonly words = new Set<string>();

  private constructor() {}

  /** The vocabulary of outward artefacts made with `pack`, with `names` (reviewer display names) as words too. */
  static of(pack: IntelligencePack, names: readonly string[] = []): OutwardVocabulary {
    const v = new OutwardVocabulary();
    v.addTexts(FIXED_TEXTS);
    v.addTexts([
      ...ASSESSMENT_LIMITATIONS,
      ...THREAT_LIMITATIONS,
      ...Object.values(RULE_LIMITATIONS),
      SCOPE_NOTE,
      NO_HYPOTHESIS_ANSWER,
      directLinkAnswer(""),
      corroboratedLeadAnswer(""),
      typologyMatchAnswer(""),
      ABSTAIN_NO_EVIDENCE,
      ABSTAIN_TYPOLOGY_ONLY,
      WITHHELD_ANSWER,
      PUBLIC_RECORD_SCHEMA,
      REVIEW_REQUIRED,
      REVIEW_RECORD_SCHEMA,
      CHECKPOINT_SCHEMA,
      ...REVIEW_REASONS,
      ...CSV_COLUMNS,
      ...TLP_LEVELS,
      ...MARKING_PROFILES,
      ...TIERS,
      ...DETECTOR_FAMILIES,
      ...SIGNAL_FAMILIES,
      ...THREAT_FAMILIES,
      ...SURFACES,
      ...AUTHORIZATIONS,
      ...SCRIPT_HINT_ORDER,
      ...THREAT_EVIDENCE_CLASSES,
      ...DIMENSIONS,
      ...SUPPORT_LEVELS,
      ...SPECIFICITIES,
      ...SOURCE_KINDS,
      ...MATCH_TYPES,
      ...RELIABILITIES,
      ...IOC_KINDS,
      ...KNOWN_SIGNALS,
    ]);
    v.addTexts(packStrings(pack));
    v.addTexts(names);
    return v;
  }

  /** Adds the words of `texts` (a new fixed sentence, a reviewer's display name). */
  addTexts(texts: Iterable<string>): void {
    for (const t of texts) for (const w of wordsOf(t)) this.words.add(w);
  }

  /**
   * The first string of `value` (strings, member names, numbers of plain objects and arrays) that is not in the
   * vocabulary, as its path and the rule it breaks; undefined when every one is. `freeText`: the texts taken out
   * of every string before it is read (the reviewer's notes).
   */
  unlisted(value: unknown, root: string, freeText: readonly string[] = []): Unlisted | undefined {
    const texts = freeText.filter((t) => t !== "").sort((a, b) => b.length - a.length);
    const walk = (v: unknown, path: string, depth: number): Unlisted | undefined => {
      if (depth > 64) return { path, rule: "symbol" };
      if (typeof v === "string") {
        const rule = this.ruleBroken(v, texts);
        return rule === undefined ? undefined : { path, rule };
      }
      if (typeof v === "number") return Number.isInteger(v) && String(Math.abs(v)).length <= NUMBER_MAX_DIGITS ? undefined : numberRule(v, path);
      if (Array.isArray(v)) {
        for (let i = 0; i < v.length; i++) {
          const u = walk(v[i], `${path}[${i}]`, depth + 1);
          if (u) return u;
        }
        return undefined;
      }
      if (v !== null && typeof v === "object") {
        for (const [k, x] of Object.entries(v)) {
          const rule = this.ruleBroken(k, []);
          if (rule !== undefined) return { path: `a member name of ${path}`, rule };
          const u = walk(x, `${path}.${/^[a-z_][a-z0-9_]{0,63}$/.test(k) ? k : "<member>"}`, depth + 1);
          if (u) return u;
        }
      }
      return undefined;
    };
    return walk(value, root, 0);
  }

  /** The rule `s` breaks (with the free texts taken out), or undefined when it is in the vocabulary. */
  ruleBroken(s: string, freeText: readonly string[] = []): Unlisted["rule"] | undefined {
    let rest = s;
    for (const t of freeText) if (rest.includes(t)) rest = rest.split(t).join(" ");
    rest = rest.replace(UUID, " ").replace(TIME, " ").replace(HEX_ID, " ").replace(COLOUR, " ");
    let numberTooLong = false;
    rest = rest.replace(NUMBER, (n) => {
      if (n.replace(".", "").length > NUMBER_MAX_DIGITS) numberTooLong = true;
      return " ";
    });
    if (numberTooLong) return "number";
    let unknownWord = false;
    rest = rest.replace(WORD, (w) => {
      if (!this.words.has(w.toLowerCase())) unknownWord = true;
      return " ";
    });
    if (unknownWord) return "word";
    return GLUE.test(rest) ? undefined : "symbol";
  }
}

function numberRule(v: number, path: string): Unlisted | undefined {
  // Scores and rates of our own formats are small decimals; anything longer is not ours.
  const digits = String(Math.abs(v)).replace(/[.e+-]/g, "");
  return Number.isFinite(v) && digits.length <= NUMBER_MAX_DIGITS ? undefined : { path, rule: "number" };
}

/** Every string of the loaded pack: its ids, labels, titles, publishers, URLs, limitations and terms. */
function packStrings(pack: IntelligencePack): string[] {
  const out: string[] = [];
  const walk = (v: unknown, depth: number): void => {
    if (depth > 32) return;
    if (typeof v === "string") out.push(v);
    else if (Array.isArray(v)) for (const x of v) walk(x, depth + 1);
    else if (v instanceof Map) for (const [k, x] of v) {
      if (typeof k === "string") out.push(k);
      walk(x, depth + 1);
    }
    else if (v !== null && typeof v === "object") for (const [k, x] of Object.entries(v)) {
      out.push(k);
      walk(x, depth + 1);
    }
  };
  walk({ typologies: pack.typologies, sources: pack.sources }, 0);
  return out;
}
