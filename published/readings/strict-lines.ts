/**
 * Strict JSON parsing with the hosted server's messages for its fixed published files: duplicate keys and
 * NaN/Infinity name themselves (`duplicate JSON key 'k'`, `non-finite JSON number 'NaN'`); anything else the
 * strict loader refuses is "<what> is not valid JSON" (or "is not UTF-8" for bytes that are not).
 */
import { pyRepr } from "../../src/json/echo.js";
import { JsonLoadError, parseStrictJson, type StrictJsonLimits } from "../../src/json/parse.js";
import type { JsonValue } from "../../src/json/value.js";
import { EconomicLedgerError, type LedgerCheckStage } from "./economic-errors.js";

/** The server's JSON reader has no item or member caps; nesting up to Python's recursion limit in practice. */
const LIMITS: Partial<StrictJsonLimits> = {
  maxItems: Number.MAX_SAFE_INTEGER,
  maxMembers: Number.MAX_SAFE_INTEGER,
  maxBytes: Number.MAX_SAFE_INTEGER,
  maxDepth: 512,
};

export function parseServerJson(input: Uint8Array | string, stage: LedgerCheckStage, invalid: string, notUtf8 = invalid): JsonValue {
  try {
    return parseStrictJson(input, LIMITS);
  } catch (e) {
    if (!(e instanceof JsonLoadError)) throw e;
    if (e.rule === "duplicate-key") {
      const key = /^duplicate JSON key: (.*)$/s.exec(e.message)?.[1] ?? pyRepr("");
      throw new EconomicLedgerError(stage, `duplicate JSON key ${key}`);
    }
    if (e.rule === "non-finite") {
      const token = e.message.slice(e.message.lastIndexOf(": ") + 2);
      throw new EconomicLedgerError(stage, `non-finite JSON number ${pyRepr(token)}`);
    }
    throw new EconomicLedgerError(stage, e.rule === "utf8" ? notUtf8 : invalid);
  }
}
