/**
 * Released IOC values in the marked formats (issue 32 item 2): how each kind is written as a STIX indicator pattern,
 * a MISP attribute and a CSV row, and the stand-in a format is first rendered with so the outward guard can check
 * every other byte (formats.ts).
 *
 * - STIX patterns (STIX 2.1 §9; accepted by the OASIS pattern validator): wallets `cryptocurrency-wallet:value` (no
 *   core STIX type exists for a wallet: this is the type OpenCTI imports as a Cryptocurrency Wallet observable),
 *   URLs `url:value`, or `domain-name:value` for a bare host name; e-mails `email-addr:value`; phones
 *   `phone-number:value` (OpenCTI's Phone Number observable; no core STIX type either); handles and channels
 *   `user-account:account_login` with `user-account:account_type` 'telegram' (the messages are Telegram's). The value
 *   is written as the store holds it, `'` and `\` escaped.
 * - MISP types and categories (MISP's describeTypes): Bitcoin addresses `btc`, Monero `xmr` (category "Financial
 *   fraud"); any other wallet `text` in "Financial fraud"; URLs `url`, bare host names `domain` ("Network activity");
 *   e-mails `email-src` ("Payload delivery"); phones `phone-number` ("Person"); handles and channels `text` in
 *   "Social network". Every released value has `to_ids` true: a reviewer released it to be acted on.
 */
import type { IocKind } from "../../published/pack/vocabulary.js";
import type { ReleasedValue } from "../release/release.js";

/** A released value as the formats present it. */
export interface LeadRelease extends ReleasedValue {
  /** Written in place of the value in the render the outward guard checks. */
  placeholder: string;
}

export function withPlaceholder(r: ReleasedValue): LeadRelease {
  return { ...r, placeholder: `released-${r.kind}-${r.index}-of-${r.candidate_sha256.slice(0, 12)}` };
}

/** The value, or its stand-in when the render is the one the guard checks. */
export function shownValue(r: LeadRelease, reveal: boolean): string {
  return reveal ? r.value : r.placeholder;
}

/** `'…'` with `'` and `\` escaped (a STIX pattern string literal). */
export function patternString(value: string): string {
  return `'${value.replace(/\\/g, "\\\\").replace(/'/g, "\\'")}'`;
}

const BARE_HOST = /^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)+$/i;
const BITCOIN = /^(?:bc1[ac-hj-np-z02-9]{11,71}|[13][1-9A-HJ-NP-Za-km-z]{25,34})$/i;
const MONERO = /^[48][1-9A-HJ-NP-Za-km-z]{94}$/;

function isBareHost(v: string): boolean {
  return BARE_HOST.test(v);
}

/** The STIX pattern of a released value of `kind`. */
export function stixPattern(kind: IocKind, value: string): string {
  const s = patternString(value);
  switch (kind) {
    case "wallets":
      return `[cryptocurrency-wallet:value = ${s}]`;
    case "urls":
      return isBareHost(value) ? `[domain-name:value = ${s}]` : `[url:value = ${s}]`;
    case "emails":
      return `[email-addr:value = ${s}]`;
    case "phones":
      return `[phone-number:value = ${s}]`;
    case "handles":
    case "channels":
      return `[user-account:account_login = ${s} AND user-account:account_type = 'telegram']`;
  }
}

/** The MISP attribute type and category of a released value of `kind` (decided on the real value, never the stand-in). */
export function mispTypeOf(kind: IocKind, value: string): { type: string; category: string } {
  switch (kind) {
    case "wallets":
      if (BITCOIN.test(value)) return { type: "btc", category: "Financial fraud" };
      if (MONERO.test(value)) return { type: "xmr", category: "Financial fraud" };
      return { type: "text", category: "Financial fraud" };
    case "urls":
      return isBareHost(value) ? { type: "domain", category: "Network activity" } : { type: "url", category: "Network activity" };
    case "emails":
      return { type: "email-src", category: "Payload delivery" };
    case "phones":
      return { type: "phone-number", category: "Person" };
    case "handles":
    case "channels":
      return { type: "text", category: "Social network" };
  }
}

/** `released by 2 reviewers (alice, bob; reasons corroborated)` */
export function releasedByText(r: ReleasedValue): string {
  const n = r.records.length;
  const reasons = [...new Set(r.records.map((x) => x.reason))];
  return `released by ${n} reviewer${n === 1 ? "" : "s"} (${r.records.map((x) => x.reviewer.name).join(", ")}; reason${reasons.length === 1 ? "" : "s"} ${reasons.join(", ")})`;
}

/** The latest release time of a value (ISO, whole seconds). */
export function releasedAt(r: ReleasedValue): string {
  return r.records.map((x) => x.decided_at).sort().at(-1)!;
}
