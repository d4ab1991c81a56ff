/**
 * `palimpsest-ledger-python-json-v1` (capsule-v1 §4.2): the bytes CPython's
 * `json.dumps(v, sort_keys=True, separators=(",", ":"), ensure_ascii=False, allow_nan=False)` produces.
 * Used only for ledger payload hashes and entry hashes.
 */
import { serialize, type CanonicalRules } from "./canonical.js";
import type { JsonValue } from "./value.js";

export const LEGACY_PAYLOAD_LIMIT = 8_388_608;

/** Python `repr` of a binary64 (capsule-v1 §4.2.2). Never use `String(x)` for this. */
export function pythonFloatRepr(x: number): string {
  if (!Number.isFinite(x)) throw new RangeError(`non-finite float ${x} has no JSON rendering`);
  if (x === 0) return Object.is(x, -0) ? "-0.0" : "0.0";
  const sign = x < 0 ? "-" : "";
  const [mantissa, expText] = Math.abs(x).toExponential().split("e");
  const digits = mantissa.replace(".", "");
  const e = Number(expText);
  let out: string;
  if (e >= -4 && e < 16) {
    if (e >= 0) {
      const intPart = digits.slice(0, e + 1).padEnd(e + 1, "0");
      const frac = digits.slice(e + 1) || "0";
      out = `${intPart}.${frac}`;
    } else {
      out = "0." + "0".repeat(-e - 1) + digits;
    }
  } else {
    const mant = digits[0] + (digits.length > 1 ? "." + digits.slice(1) : "");
    const abs = Math.abs(e);
    out = `${mant}e${e < 0 ? "-" : "+"}${abs < 10 ? "0" : ""}${abs}`;
  }
  return sign + out;
}

const LEGACY_RULES: CanonicalRules = {
  allowFloats: true,
  maxBytes: LEGACY_PAYLOAD_LIMIT,
  oversizeMessage: "canonical ledger payload exceeds the v1 artifact limit",
};

/** Legacy canonical bytes of a strictly parsed value; shape errors are rooted at `rootPath`. */
export function legacyCanonicalBytes(value: JsonValue, rootPath = "ledger_payload"): Uint8Array {
  return serialize(value, rootPath, LEGACY_RULES);
}
