/**
 * Per-kind canonical forms of IOC values for match tokens (`evidence-bridge-ioc-canonical/v1`). Two
 * investigators' tokens match only when both canonical forms are equal, so each kind is reduced to the form
 * under which the same indicator is usually written the same way:
 *
 * - every kind: Unicode NFKC (full-width and compatibility characters become their plain forms), then trimmed;
 *   e-mails, channels and URLs refanged (src/refang.ts: `[.]`, `[at]`, `hxxp`… undone), and for the kinds that are
 *   ASCII by format (handles, channels, wallets, e-mails) look-alike letters read as the Latin letters they imitate
 *   (the §4.1 table): `assess` records a value as the message writes it, so `@ѕcam_desk` (Cyrillic ѕ) and
 *   `ops[at]desk[.]example` get the tokens of `@scam_desk` and `ops@desk.example`;
 * - handles: leading `@` removed, lower case (handles are case-insensitive);
 * - channels: lower case; a leading `http(s)://`, `www.`, `t.me/`, `telegram.me/`, `telegram.dog/`, `s/` and
 *   `@` removed, and a trailing `/`;
 * - phones: digits of every script written as ASCII digits (Devanagari `९८७…` reads as `987…`; before, such digits
 *   were dropped, so a number written in them had no token), separators removed, a leading `00` read as `+`; a
 *   number with `+` is written in E.164 as
 *   libphonenumber-js parses it; a number without a country code stays its digits (it then matches only the same
 *   digits written without a country code);
 * - e-mails: lower case (local parts are case-insensitive in practice; dots and `+tags` are kept);
 * - wallets: `0x` + 40 hexadecimal digits (EVM; the EIP-55 checksum is only letter case) and bech32 addresses
 *   (`bc1`, `tb1`, `ltc1`, `bcrt1`; case-insensitive) in lower case; any other address (Base58: Bitcoin legacy,
 *   Tron, Solana …) keeps its case, which is significant;
 * - URLs: refanged, `http://` added when no scheme is given, then the
 *   WHATWG URL serialisation (lower-case scheme and host, default port dropped, punycode host), without the
 *   fragment; path and query are kept as written.
 * Returns undefined for a value that is empty after canonicalisation.
 */
import { parsePhoneNumberFromString } from "libphonenumber-js";
import { asciiDigits } from "../guard/decimal-digits.js";
import { CONFUSABLES } from "../../published/pack/normalize-tables.js";
import { refang } from "../../src/refang.js";
import type { IocKind } from "../../published/pack/vocabulary.js";

export const CANONICALIZATION = "evidence-bridge-ioc-canonical/v1";

const EVM = /^0x[0-9a-f]{40}$/i;
const BECH32 = /^(bc1|tb1|ltc1|bcrt1)[0-9a-z]+$/i;

function phone(v: string): string | undefined {
  let s = v.replace(/[\s\-.()/]/g, "");
  if (s.startsWith("00")) s = `+${s.slice(2)}`;
  if (s.startsWith("+")) {
    const parsed = parsePhoneNumberFromString(s);
    if (parsed !== undefined) return parsed.number;
    const digits = s.slice(1).replace(/\D/g, "");
    return digits === "" ? undefined : `+${digits}`;
  }
  const digits = s.replace(/\D/g, "");
  return digits === "" ? undefined : digits;
}

function channel(v: string): string {
  let s = v.toLowerCase().replace(/^https?:\/\//, "").replace(/^www\./, "");
  s = s.replace(/^(t\.me|telegram\.me|telegram\.dog)\//, "").replace(/^s\//, "").replace(/^@+/, "");
  return s.replace(/\/+$/, "");
}

/** Look-alike letters (Cyrillic, Greek, small capitals) read as the Latin letters they imitate. */
function latin(v: string): string {
  return /^[\x00-\x7f]*$/.test(v) ? v : [...v].map((c) => CONFUSABLES.get(c) ?? c).join("");
}

function url(v: string): string {
  let s = refang(v);
  if (!/^[a-z][a-z0-9+.-]*:\/\//i.test(s)) s = `http://${s}`;
  try {
    const u = new URL(s);
    u.hash = "";
    return u.href;
  } catch {
    return s.toLowerCase();
  }
}

export function canonicalIoc(kind: IocKind, raw: string): string | undefined {
  const v = raw.normalize("NFKC").trim();
  let out: string | undefined;
  switch (kind) {
    case "handles":
      out = latin(v).replace(/^@+/, "").toLowerCase();
      break;
    case "channels":
      out = channel(latin(refang(v)));
      break;
    case "phones":
      out = phone(asciiDigits(v));
      break;
    case "emails":
      out = latin(refang(v)).toLowerCase();
      break;
    case "wallets": {
      const w = latin(v);
      out = EVM.test(w) || BECH32.test(w) ? w.toLowerCase() : w;
      break;
    }
    case "urls":
      out = v === "" ? "" : url(v);
      break;
  }
  return out === undefined || out === "" ? undefined : out;
}
