/**
 * The client's judgement (docs/assess.md "The judgement"): what a model or analyst states about one message, in the
 * closed vocabularies of assessment-v1 — detector signal names (§2.3), threat findings by rule (§2.4) with the
 * message fragments behind each evidence class, surface and authorization (§2.5), and optionally when and where the
 * message was seen and the IOCs the client noticed. Everything else the bridge derives.
 *
 * Defined once with the project's shape DSL and the assessment dialect: `checkJudgement` interprets it fast
 * (src/json/shape-check.ts) and bridge/mcp compiles the same definition to zod for the tool's input schema.
 */
import { checkShape, ShapeViolation } from "../../src/json/shape-check.js";
import { pathOf, type JsonValue } from "../../src/json/value.js";
import { IOC_KINDS, KNOWN_DETECTOR_SIGNALS, THREAT_RULE_IDS } from "../../published/pack/vocabulary.js";
import { array, JUDGEMENT_DIALECT, object, oneOf, record, rule, str, type Issue, type ObjectShape, type Seg } from "../assessment/assessment-dialect.js";
import { AUTHORIZATIONS, SURFACES, type Authorization, type IocKind, type Surface } from "../assessment/types.js";
import { FINDING_TIERS, THREAT_EVIDENCE_CLASSES, THREAT_RULES } from "../assessment/vocabulary.js";
import { significantLength } from "../guard/forms.js";
import { PHONE_REGIONS } from "./phone-regions.js";
import type { CountryCode } from "libphonenumber-js/max";

export type FindingTier = (typeof FINDING_TIERS)[number];

export interface JudgementFinding {
  rule_id: string;
  tier: FindingTier;
  evidence_classes: string[];
  /** Evidence class (never `contact`) → exact substrings of the message. Private. */
  fragments?: Record<string, string[]>;
}

export interface Judgement {
  signals: string[];
  findings: JudgementFinding[];
  surface: Surface;
  authorization: Authorization;
  observed_at?: string;
  /** Where the message was seen (a chat id, a channel name...): turned into a keyed pseudonym, never stored as is. */
  source?: string;
  iocs?: Partial<Record<IocKind, string[]>>;
  /**
   * The region phone numbers written without a country code are read in (ISO 3166-1 alpha-2, one libphonenumber-js
   * has metadata for). Without it the bridge infers the regions from the message (phone-regions.ts).
   */
  region?: CountryCode;
}

/** Evidence classes that carry fragments (§2.4: `contact` never does). */
export const FRAGMENT_CLASSES = THREAT_EVIDENCE_CLASSES.filter((c) => c !== "contact");

/**
 * Fewest significant characters (letters or digits, as the outward guard counts them) of a quoted fragment. A
 * shorter quote is no evidence, and as a private value it would make the guard withhold every outward text that
 * holds it as a word.
 */
export const MIN_FRAGMENT_SIGNIFICANT = 3;
/**
 * Fewest Han, Hiragana, Katakana or Hangul characters that make a quote on their own: in these scripts two
 * characters are a whole word (`快递`, `发货`, `稳赚`), as the producer's own rules match them.
 */
export const MIN_FRAGMENT_IDEOGRAPHIC = 2;
const IDEOGRAPHIC = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]/gu;

/** A quote is long enough: two Han, Hiragana/Katakana or Hangul characters, or three letters or digits of any script. */
export function quoteIsLongEnough(quote: string): boolean {
  return significantLength(quote) >= MIN_FRAGMENT_SIGNIFICANT || (quote.match(IDEOGRAPHIC) ?? []).length >= MIN_FRAGMENT_IDEOGRAPHIC;
}

/**
 * Fewest significant characters of an IOC the client names, per kind (phones: digits): the shortest value of the
 * kind's own format (a Telegram username has 5, a phone number 7 digits, a wallet address 25, `a@b.io` 4, `x.co` 3).
 * A shorter value is not one of that kind.
 */
export const MIN_IOC_SIGNIFICANT: Readonly<Record<IocKind, number>> = { handles: 5, phones: 7, channels: 5, wallets: 25, emails: 4, urls: 3 };

const DIGIT = /\p{Nd}/gu;

/**
 * The shape a client-named IOC must have for its kind, checked on its NFKC form (so full-width `＠` and digits pass),
 * with the rule as an error names it. Deliberately loose: a client names what the extraction misses (unbracketed
 * obfuscations, wallet formats it does not know, docs/assess.md "Known misses"), so only values that cannot
 * be of the kind at all are refused, such as a sentence as a wallet or a word as a URL.
 */
export const CLIENT_IOC_SHAPES: Readonly<Record<IocKind, { test: RegExp; rule: string }>> = {
  handles: { test: /^@[\p{L}\p{M}\p{N}_.]+$/u, rule: "a handle is @ and a name of letters, digits, _ and ." },
  phones: {
    // Dashes of every kind (\p{Pd}, the minus sign), the middle dot, a tel: URI, and an extension or dialling pause.
    test: /^(?:tel:)?[\p{Nd}\s+().\/\p{Pd}\u2212\u00b7]+(?:(?:[;,]\s*)?(?:ext(?:ension)?[.:=]?|x|#|p|,+)\s*\p{Nd}+)?$/iu,
    rule: "a phone number is digits with spaces, dashes and + ( ) . / only (tel: may lead; an extension after ext, x, # or a pause)",
  },
  channels: { test: /^(?:@[^\s@]+|[^\s]*\/[^\s]*[\p{L}\p{N}][^\s]*)$/u, rule: "a channel is a link (with /) or @ and a name, without spaces" },
  wallets: {
    // TON's user-friendly form has - and _, its raw form a workchain (0:…); BIP21 and EIP-681 URIs carry a scheme,
    // a chain (@1) and a query (?amount=…).
    test: /^(?:[a-z][a-z0-9+.-]*:)?(?:-?\d+:)?[\p{L}\p{N}_-]+(?:@\d+)?(?:\?\S*)?$/iu,
    rule: "a wallet address is one run of letters, digits, - and _ (a scheme such as bitcoin: may lead, a ?query follow)",
  },
  emails: {
    test: /^(?:[^\s@]+@[^\s@]+|[^\s@]+\s*(?:[\[({]\s*at\s*[\])}]|\sat\s)\s*[^\s@]+(?:\s*(?:[\[({]\s*(?:dot|\.)\s*[\])}]|\sdot\s|\.)\s*[^\s@]+)+)$/iu,
    rule: "an e-mail address is one token with @, or written out with [at] (at) {at} or ' at ' and a dot",
  },
  urls: {
    test: /^[^\s]*(?::\/\/|\.|\[\.\]|\(\.\)|\[dot\]|\(dot\))[^\s]*$/iu,
    rule: "a URL has no spaces and a scheme (://) or a dot (., [.], (.), [dot])",
  },
};

function findingIsCoherent(f: JudgementFinding): Issue | undefined {
  if (THREAT_RULES[f.rule_id].cappedAtLikelyScam && f.tier === "CONFIRMED_PATTERN") {
    return { path: ["tier"], message: `rule ${f.rule_id} is capped at LIKELY_SCAM (got CONFIRMED_PATTERN)` };
  }
  for (const [cls, quotes] of Object.entries(f.fragments ?? {})) {
    if (!f.evidence_classes.includes(cls)) return { path: ["fragments", cls], message: `evidence class ${cls} is not listed in evidence_classes` };
    const short = quotes.findIndex((q) => !quoteIsLongEnough(q));
    if (short >= 0) {
      return {
        path: ["fragments", cls, short],
        message: `a quote needs at least ${MIN_FRAGMENT_SIGNIFICANT} letters or digits, or ${MIN_FRAGMENT_IDEOGRAPHIC} Han, Hiragana/Katakana or Hangul characters`,
      };
    }
  }
  return undefined;
}

function iocsFitTheirKinds(j: Judgement): Issue | undefined {
  for (const kind of IOC_KINDS) {
    const values = j.iocs?.[kind] ?? [];
    const min = MIN_IOC_SIGNIFICANT[kind];
    const short = values.findIndex((v) => (kind === "phones" ? (v.match(DIGIT) ?? []).length : significantLength(v)) < min);
    if (short >= 0) return { path: ["iocs", kind, short], message: `too short for one of ${kind}: at least ${min} ${kind === "phones" ? "digits" : "letters or digits"}` };
    const { test, rule } = CLIENT_IOC_SHAPES[kind];
    const misshapen = values.findIndex((v) => !test.test(v.normalize("NFKC").trim()));
    if (misshapen >= 0) return { path: ["iocs", kind, misshapen], message: `not the shape of one of ${kind}: ${rule}` };
  }
  return undefined;
}

function collectionIsCoherent(j: Judgement): Issue | undefined {
  if (j.surface === "public_channel" && j.authorization !== "public") {
    return { path: ["authorization"], message: `surface public_channel requires authorization public (got ${j.authorization})` };
  }
  if (j.surface === "private_submission" && j.authorization !== "user_submitted") {
    return { path: ["authorization"], message: `surface private_submission requires authorization user_submitted (got ${j.authorization})` };
  }
  if (j.surface === "public_channel" && j.source === undefined) {
    return { path: ["source"], message: "surface public_channel requires a source (it becomes the channel's pseudonym)" };
  }
  return undefined;
}

export const FINDING_SHAPE = object(
  {
    rule_id: oneOf(THREAT_RULE_IDS),
    tier: oneOf(FINDING_TIERS),
    evidence_classes: array(oneOf(THREAT_EVIDENCE_CLASSES), { min: 1, max: THREAT_EVIDENCE_CLASSES.length, unique: "value" }),
    fragments: record(FRAGMENT_CLASSES, array(str("raw", 160), { min: 1, max: 8, unique: "value" })),
  },
  { optional: ["fragments"], rules: [rule<JudgementFinding>(findingIsCoherent)] },
);

/** The members of a judgement, each a shape (the MCP input schema compiles them one by one). */
export const JUDGEMENT_FIELDS = {
  signals: array(oneOf(KNOWN_DETECTOR_SIGNALS), { max: KNOWN_DETECTOR_SIGNALS.length, unique: "value" }),
  findings: array(FINDING_SHAPE, { max: THREAT_RULE_IDS.length, unique: { key: "rule_id" } }),
  surface: oneOf(SURFACES),
  authorization: oneOf(AUTHORIZATIONS),
  observed_at: str("timestamp", 64),
  source: str("text", 256),
  iocs: record(IOC_KINDS, array(str("text", 2048), { max: 256, unique: "value" })),
  region: oneOf(PHONE_REGIONS),
};

export const JUDGEMENT_SHAPE: ObjectShape = object(JUDGEMENT_FIELDS, {
  optional: ["observed_at", "source", "iocs", "region"],
  rules: [rule<Judgement>(collectionIsCoherent), rule<Judgement>(iocsFitTheirKinds)],
});

/** The whole-judgement rules the member shapes alone do not carry (for callers that compiled the members). */
export const JUDGEMENT_RULES = [collectionIsCoherent, iocsFitTheirKinds] as const;

/** A violation of the judgement: one line naming the path and the rule. Never echoes a value that could be private. */
export class JudgementError extends Error {
  override readonly name = "JudgementError";
  constructor(
    message: string,
    readonly path: string,
    readonly rule: string,
  ) {
    super(message);
  }
}

export function judgementPath(segs: readonly Seg[]): string {
  return pathOf("judgement", segs);
}

/** Checks a strictly parsed judgement; returns it as plain JS or throws {@link JudgementError}. */
export function checkJudgement(value: JsonValue): Judgement {
  try {
    return checkShape(JUDGEMENT_SHAPE, value, JUDGEMENT_DIALECT) as Judgement;
  } catch (e) {
    if (!(e instanceof ShapeViolation)) throw e;
    const path = judgementPath(e.path);
    throw new JudgementError(`${path}: ${e.detail}`, path, "schema");
  }
}
