/**
 * Issue 11 item 7: private values of every kind, rewritten in every form the guard documents (docs/guard.md),
 * are found on every outward channel: an upstream call (each argument, split across two arguments, a number,
 * `_meta`), a candidate-shaped object, a review note and an export decision. Legitimate public calls are never
 * refused because of short private values.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { OutwardGuard, OutwardTexts } from "../../../capsules/guard/outward-guard.js";
import type { PrivateValue } from "../../../capsules/guard/private-values.js";

const b64 = (s: string | Buffer) => Buffer.from(s).toString("base64");
const b64url = (s: string | Buffer) => Buffer.from(s).toString("base64url");
const rev = (s: string) => [...s].reverse().join("");
const pct = (s: string) => [...Buffer.from(s)].map((b) => `%${b.toString(16).padStart(2, "0")}`).join("");
const jsonEsc = (s: string) => [...s].map((c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`).join("");
const hexOf = (s: string) => Buffer.from(s).toString("hex");
const fullWidth = (s: string) => s.replace(/[!-~]/g, (c) => String.fromCharCode(c.charCodeAt(0) + 0xfee0));
const LOOKALIKE: Record<string, string> = { a: "\u0430", e: "\u0435", o: "\u043e", p: "\u0440", c: "\u0441", x: "\u0445", i: "\u0456" };
const lookalike = (s: string) => s.replace(/[aeopcxi]/, (c) => LOOKALIKE[c]);
const insert = (s: string, what: string) => `${s.slice(0, 3)}${what}${s.slice(3)}`;
/** Letters whose small look-alikes the UTS #39 skeleton leaves apart (issue 28 item 6): Greek κ, Cyrillic к, Latin ĸ, Cyrillic ь, н, т. */
const CAPITAL_LOOKALIKES: Record<string, string[]> = { k: ["\u03ba", "\u043a", "\u0138"], b: ["\u044c"], h: ["\u043d"], t: ["\u0442"] };
const capitalLookalikes = (s: string) => {
  let i = 0;
  return s.replace(/[kbht]/g, (c) => CAPITAL_LOOKALIKES[c][i++ % CAPITAL_LOOKALIKES[c].length]);
};
/** HTML/XML character references for every character: decimal, hex, and named where HTML names one. */
const NAMED: Record<string, string> = { "@": "&commat;", ".": "&period;", _: "&lowbar;", "/": "&sol;", ":": "&colon;", "+": "&plus;", " ": "&#32;" };
const decimalReferences = (s: string) => [...s].map((c) => NAMED[c] ?? `&#${c.codePointAt(0)};`).join("");
const hexReferences = (s: string) => [...s].map((c) => `&#x${c.codePointAt(0)!.toString(16)};`).join("");
/** Every ASCII digit written as the digit of the same value in the script whose zero is `zero`. */
const scriptDigits = (zero: number) => (s: string) => s.replace(/[0-9]/g, (d) => String.fromCodePoint(zero + Number(d)));
/** Decimal digits of other scripts, none of which NFKC folds to ASCII (docs/guard.md "Digits of every script"). */
const SCRIPT_DIGITS: Record<string, number> = { Devanagari: 0x966, "Arabic-Indic": 0x660, "Extended Arabic-Indic": 0x6f0, Bengali: 0x9e6, Tamil: 0xbe6, Thai: 0xe50, Myanmar: 0x1040, "Adlam (astral)": 0x1e950 };

/** Rewritings every kind of value must survive. */
const GENERIC: Record<string, (s: string) => string> = {
  exact: (s) => s,
  upper: (s) => s.toUpperCase(),
  "full-width": fullWidth,
  "cyrillic look-alike": lookalike,
  "soft hyphen": (s) => insert(s, "\u00ad"),
  "zero-width space": (s) => insert(s, "\u200b"),
  "combining mark": (s) => insert(s, "\u0301"),
  "space inside": (s) => insert(s, " "),
  "percent-encoded": pct,
  "JSON escapes": jsonEsc,
  base64: b64,
  base64url: b64url,
  hex: hexOf,
  "base64 of percent-encoding": (s) => b64(pct(s)),
  reversed: rev,
  "inside a sentence": (s) => `please look up ${s} for me`,
  "capital look-alikes": capitalLookalikes,
  "HTML character references": decimalReferences,
  "XML hex character references": hexReferences,
  ...Object.fromEntries(Object.entries(SCRIPT_DIGITS).map(([script, zero]) => [`${script} digits`, scriptDigits(zero)])),
};

/**
 * A distinctive word: at least 8 letters or digits. Values of 7 or fewer significant characters match only as whole
 * tokens (docs/guard.md), so "a_a_a___" with a space inside is a documented miss, not a counterexample.
 */
const word = fc.stringMatching(/^[a-z][a-z0-9_]{7,14}$/).filter((w) => w.replace(/_/g, "").length >= 8);
const hex64 = fc.stringMatching(/^[0-9a-f]{64}$/);

/** Encodings are case-sensitive and directional: case changes, look-alikes and reversal of an encoded form are not covered (SECURITY.md). */
const KEEPS_ENCODING = Object.keys(GENERIC).filter((t) => !["upper", "cyrillic look-alike", "capital look-alikes", "reversed"].includes(t) && !t.endsWith(" digits"));
/**
 * Forms that are encodings (and a number written in decimal: its digits are its value, so neither reversed nor
 * re-cased; and an e-mail alias: the canonical address is read from the alias as written, not reversed or in
 * look-alikes, SECURITY.md).
 */
const ENCODED_FORM = /base64|decimal integer|sub-address|\+tag|googlemail/;

interface Case {
  value: PrivateValue;
  /** Rewritings specific to this kind (each must be found). */
  forms: Record<string, string>;
}

const cases: fc.Arbitrary<Case> = fc.oneof(
  word.map((w) => ({
    value: { kind: "ioc_value", ioc: "handles", value: `@${w}` } as PrivateValue,
    forms: { "without @": w, "with @": `@${w}` },
  })),
  fc.tuple(fc.integer({ min: 70000, max: 99999 }), fc.integer({ min: 10000, max: 99999 })).map(([a, b]) => {
    const national = `${a}${b}`;
    return {
      value: { kind: "ioc_value", ioc: "phones", value: `+91 ${a} ${b}` } as PrivateValue,
      forms: {
        digits: `91${national}`,
        national,
        dashes: `${String(a).slice(0, 3)}-${String(a).slice(3)}${String(b).slice(0, 1)}-${String(b).slice(1)}`,
        brackets: `(+91) (${a}) ${b}`,
        "7-digit run": national.slice(2, 9),
      },
    };
  }),
  // A phone recorded as written in Devanagari digits (a client may name it so): found written in ASCII digits.
  fc.tuple(fc.integer({ min: 70000, max: 99999 }), fc.integer({ min: 10000, max: 99999 })).map(([a, b]) => {
    const national = `${a}${b}`;
    return {
      value: { kind: "ioc_value", ioc: "phones", value: scriptDigits(0x966)(`+91 ${a} ${b}`) } as PrivateValue,
      forms: { "ASCII digits": `+91${national}`, "ASCII national": national, "ASCII 7-digit run": national.slice(1, 8), "Bengali national": scriptDigits(0x9e6)(national) },
    };
  }),
  fc.stringMatching(/^T[1-9A-HJ-NP-Za-km-z]{33}$/).map((w) => ({
    value: { kind: "ioc_value", ioc: "wallets", value: w } as PrivateValue,
    forms: { lower: w.toLowerCase(), "first half": w.slice(0, 17), "second half": w.slice(17), "upper half": w.slice(17).toUpperCase() },
  })),
  fc.tuple(word, word).map(([l, d]) => ({
    value: { kind: "ioc_value", ioc: "emails", value: `${l}@${d}.example` } as PrivateValue,
    forms: { "[at] [.]": `${l}[at]${d}[.]example`, " at  dot ": `${l} at ${d} dot example`, "(at) (dot)": `${l}(at)${d}(dot)example` },
  })),
  // Provider aliases and sub-addresses (issue 28 item 6): Gmail ignores dots and +tag, googlemail.com is gmail.com.
  fc.tuple(word, fc.stringMatching(/^[a-z0-9]{1,8}$/)).map(([l, tag]) => ({
    value: { kind: "ioc_value", ioc: "emails", value: `${l}@gmail.com` } as PrivateValue,
    forms: {
      "+tag": `${l}+${tag}@gmail.com`,
      googlemail: `${l}@googlemail.com`,
      "dots, +tag and googlemail": `${[...l].join(".")}+${tag}@GoogleMail.com`,
      "+tag defanged": `${l}+${tag}[at]gmail[.]com`,
    },
  })),
  fc.tuple(word, word, fc.stringMatching(/^[a-z0-9]{1,8}$/)).map(([l, d, tag]) => ({
    value: { kind: "ioc_value", ioc: "emails", value: `${l}+${tag}@${d}.example` } as PrivateValue,
    forms: { "without the sub-address": `${l}@${d}.example`, "another sub-address": `${l}+other@${d}.example` },
  })),
  // An EVM address written as the integer it is.
  fc.stringMatching(/^[0-9a-f]{40}$/).map((h) => {
    const decimal = BigInt(`0x${h}`).toString();
    return {
      value: { kind: "ioc_value", ioc: "wallets", value: `0x${h}` } as PrivateValue,
      forms: { "decimal integer": decimal, "decimal integer in a sentence": `pay ${decimal} today` },
    };
  }),
  fc.tuple(word, word).map(([h, p]) => ({
    value: { kind: "ioc_value", ioc: "urls", value: `https://${h}.example/${p}` } as PrivateValue,
    forms: { hxxps: `hxxps://${h}[.]example/${p}`, host: `${h}.example`, "host + path": `${h}.example/${p}` },
  })),
  word.map((w) => ({
    value: { kind: "ioc_value", ioc: "channels", value: `t.me/${w}` } as PrivateValue,
    forms: { "by name": w, "https link": `https://t.me/${w}` },
  })),
  hex64.map((h) => ({
    value: { kind: "message_sha256", value: h } as PrivateValue,
    forms: {
      "12-hex slice": h.slice(30, 42),
      "upper slice": h.slice(5, 20).toUpperCase(),
      "bytes in base64": Buffer.from(h, "hex").toString("base64"),
      "slice of bytes in base64url": Buffer.from(h, "hex").subarray(7, 19).toString("base64url"),
      "with colons": h.slice(0, 16).replace(/(..)(?!$)/g, "$1:"),
    },
  })),
  fc.stringMatching(/^[0-9a-f]{24}$/).map((h) => ({ value: { kind: "source_pseudonym", value: h } as PrivateValue, forms: { slice: h.slice(6, 20) } })),
  fc.tuple(word, word).map(([a, b]) => ({ value: { kind: "matched_term", value: `${a} ${b}` } as PrivateValue, forms: {} })),
  fc.tuple(word, word, word).map(([a, b, c]) => ({ value: { kind: "observation_summary", value: `The ${a} ${b} ${c}.` } as PrivateValue, forms: {} })),
  fc.tuple(word, word, word).map(([a, b, c]) => ({
    value: { kind: "message_text", value: `Send to ${a} now ${b}.\nCall ${c} today please` } as PrivateValue,
    forms: { "one line": `Call ${c} today please` },
  })),
);

/** Every channel, each returning true when the text was stopped. */
function channels(guard: OutwardGuard, text: string): Record<string, boolean> {
  const half = Math.floor(text.length / 2);
  return {
    "upstream argument": !guard.checkCall({ name: text }, undefined, JSON.stringify({ name: text })).ok,
    "upstream _meta": !guard.checkCall({}, { note: text }, "{}").ok,
    "upstream split across two arguments": !guard.checkCall({ a: text.slice(0, half), b: text.slice(half) }, undefined, undefined).ok,
    candidate: !guard.check({ origin_answer: text, detector: { score: 1 } }, "candidate").ok,
    "review note": !guard.check(text, "the note").ok,
    "export decision": !guard.check({ decision: "APPROVED_FOR_RELEASE", note: `ok ${text}` }, "export.decision").ok,
  };
}

/** The texts a case is tested as: the value under transformation `t`, each documented form, and each form under `t`. */
function formsUnder(c: { value: PrivateValue; forms: Record<string, string> }, t: string): [string, string][] {
  const forms: [string, string][] = [[t, GENERIC[t](c.value.value)]];
  for (const [n, f] of Object.entries(c.forms)) {
    forms.push([n, f]);
    if (!ENCODED_FORM.test(n) || KEEPS_ENCODING.includes(t)) forms.push([`${n}, ${t}`, GENERIC[t](f)]);
  }
  return forms;
}

describe("the outward guard finds every kind in every documented form on every channel", () => {
  it("holds for generated values × transformations", () => {
    fc.assert(
      fc.property(cases, fc.constantFrom(...Object.keys(GENERIC)), (c, t) => {
        const guard = new OutwardGuard([c.value]);
        const forms = formsUnder(c, t);
        for (const [name, text] of forms) {
          for (const [channel, stopped] of Object.entries(channels(guard, text))) {
            expect(stopped, `${c.value.kind}/${c.value.ioc ?? ""} as ${name} through ${channel}`).toBe(true);
          }
          const hit = guard.checkText(text);
          expect(hit).toEqual({ kind: c.value.kind });
        }
      }),
      { numRuns: 400 },
    );
  });

  it("holds the same in a store-sized guard, where forms are looked up by key (and many share a start and an end)", () => {
    fc.assert(
      fc.property(cases, fc.constantFrom(...Object.keys(GENERIC)), (c, t) => {
        // Enough values of another kind that the guard files its forms by key, crowding the buckets of the value's
        // first and last characters, so its own forms are filed under other keys (no run of 12 hex digits: a hex
        // window keeps the kind of the first value that has it, and any value with such a run is also found by its
        // windows).
        const crowd = c.value.value.replace(/([0-9a-fA-F]{6})(?=[0-9a-fA-F])/g, "$1g");
        const guard = new OutwardGuard(
          Array.from({ length: 300 }, (_, i) => ({ kind: "market_rate_warning", value: `${crowd} (${i}) ${crowd}` }) as PrivateValue),
        );
        guard.add([c.value]);
        const forms = formsUnder(c, t);
        for (const [name, text] of forms) {
          for (const [channel, stopped] of Object.entries(channels(guard, text))) {
            expect(stopped, `${c.value.kind}/${c.value.ioc ?? ""} as ${name} through ${channel}`).toBe(true);
          }
          expect(guard.kindsIn(text).has(c.value.kind), `${c.value.kind}/${c.value.ioc ?? ""} as ${name}`).toBe(true);
        }
      }),
      { numRuns: 150 },
    );
  });

  it("holds the same in a guard narrowed to the outward value (notes, export decisions), with the full guard's verdict", () => {
    fc.assert(
      fc.property(fc.array(cases, { minLength: 2, maxLength: 6 }), fc.constantFrom(...Object.keys(GENERIC)), (cs, t) => {
        // A store of several generated values; the outward value carries forms of the first one only.
        const values = cs.map((c) => c.value);
        const full = new OutwardGuard(values);
        for (const [name, text] of formsUnder(cs[0], t)) {
          const outward = { decision: "APPROVED_FOR_RELEASE", note: `ok ${text}`, reviewer: { name: "alice" } };
          // One group per value, with and without its probe: a probe must never hide a value that occurs.
          for (const groups of [values.map((v) => ({ values: [v] })), values.map((v) => ({ values: [v], probe: OutwardGuard.probeOf([v]) }))]) {
            const narrowed = OutwardGuard.valuesThatMayOccur(groups, outward);
            expect(narrowed, `${cs[0].value.kind}/${cs[0].value.ioc ?? ""} as ${name}`).toContain(values[0]);
            const verdict = OutwardGuard.narrowed(groups, outward).check(outward, "export.decision");
            expect(verdict.ok, `${cs[0].value.kind}/${cs[0].value.ioc ?? ""} as ${name}`).toBe(false);
            expect(verdict).toEqual(full.check(outward, "export.decision"));
            // Narrowed to the texts of several outward values at once (the decisions of one export): the full
            // guard's verdict on each, the leaking one and a clean one.
            const clean = { decision: "APPROVED_FOR_RELEASE", note: "checked", reviewer: { name: "bob" } };
            const among = OutwardTexts.of([{ value: clean }, { value: outward }])!;
            const together = OutwardGuard.narrowed(groups, among);
            expect(together.check(outward, "export.decision")).toEqual(verdict);
            expect(together.check(clean, "export.decision")).toEqual(full.check(clean, "export.decision"));
          }
        }
      }),
      { numRuns: 150 },
    );
  });

  it("a narrowed guard keeps nothing for an outward value that holds no private value", () => {
    fc.assert(
      fc.property(fc.array(cases, { minLength: 1, maxLength: 8 }), (cs) => {
        const outward = { decision: "REJECTED", note: "checked the rate table against the pack", reviewer: { name: "alice" } };
        expect(OutwardGuard.valuesThatMayOccur([{ values: cs.map((c) => c.value) }], outward)).toEqual([]);
        // Probes alone pass over the groups: none shares a key with the outward text.
        const probed = cs.map((c) => ({ values: [c.value], probe: OutwardGuard.probeOf([c.value]) }));
        expect(OutwardGuard.valuesThatMayOccur(probed, outward)).toEqual([]);
      }),
      { numRuns: 100 },
    );
  });

  it("a group whose probe shares no key with the outward value is passed over unread (the probe decides)", () => {
    const v: PrivateValue = { kind: "ioc_value", ioc: "handles", value: "@usdt_kitchen_sink" };
    const outward = { note: "same desk as usdt kitchen sink" };
    expect(OutwardGuard.valuesThatMayOccur([{ values: [v] }], outward)).toEqual([v]);
    expect(OutwardGuard.valuesThatMayOccur([{ values: [v], probe: OutwardGuard.probeOf([v]) }], outward)).toEqual([v]);
    // A probe that is not the values' own (here: empty) hides them: probes must come from OutwardGuard.probeOf.
    expect(OutwardGuard.valuesThatMayOccur([{ values: [v], probe: new Uint32Array(0) }], outward)).toEqual([]);
  });

  it("outward texts of several values exempt a string only where its own value's options do", () => {
    const v: PrivateValue = { kind: "ioc_value", ioc: "handles", value: "@usdt_kitchen_sink" };
    const text = "same desk as usdt kitchen sink";
    const exempt = { isPublic: (s: string) => s === text };
    const groups = [{ values: [v], probe: OutwardGuard.probeOf([v]) }];
    expect(OutwardTexts.of([{ value: { note: text }, opts: exempt }])!.valuesIn(groups)).toEqual([]);
    // The same string in another value, searched there: the value is kept, and that value's check finds it.
    const among = OutwardTexts.of([{ value: { note: text }, opts: exempt }, { value: { name: text } }])!;
    expect(among.valuesIn(groups)).toEqual([v]);
    expect(OutwardGuard.narrowed(groups, among).check({ name: text }, "export.decision").ok).toBe(false);
    // Nesting too deep to search: no texts, so no narrowing (the full check reports the nesting).
    let deep: unknown = "x";
    for (let i = 0; i < 80; i++) deep = [deep];
    expect(OutwardTexts.of([{ value: deep }])).toBeUndefined();
  });

  it("a number whose digits are a phone's digits is that phone", () => {
    const guard = new OutwardGuard([{ kind: "ioc_value", ioc: "phones", value: "+91 98765 01234" }]);
    expect(guard.checkCall({ max_rows: 919876501234 }, undefined, '{"max_rows":919876501234}').ok).toBe(false);
    expect(guard.check({ detector: { score: 9876501234 } }, "candidate").ok).toBe(false);
  });

  it("reasons name the kind and the path, never the value", () => {
    fc.assert(
      fc.property(cases, (c) => {
        const guard = new OutwardGuard([c.value]);
        const v = guard.checkCall({ name: c.value.value }, undefined, JSON.stringify({ name: c.value.value }));
        expect(v.ok).toBe(false);
        if (v.ok) return;
        // Only our vocabulary: kinds and paths made of the call's parts and the member name we chose.
        const entry = /^[a-z_0-9]+ in (arguments\.name|the argument text|the joined argument text)$/;
        expect(v.reason.startsWith("leak guard: ")).toBe(true);
        for (const e of v.reason.slice("leak guard: ".length).split("; ")) expect(e).toMatch(entry);
      }),
      { numRuns: 200 },
    );
  });
});

describe("short private values (fewer than 4 significant characters) match only whole tokens", () => {
  const LEGIT: [string, Record<string, unknown>][] = [
    ["list_signals", {}],
    ["whats_happening", {}],
    ["gfw_reading", {}],
    ...["ooni-gfw", "eval-registry", "eval-assurance", "eval-journal", "eval-findings", "gfi-transcripts", "refusal-drift"].map(
      (n) => ["get_signal", { name: n, max_rows: 25 }] as [string, Record<string, unknown>],
    ),
    ...["newsroom", "wire", "economy", "machine-analysis", "investigations", "editorial-readiness", "interconnection"].map(
      (v) => ["get_newsroom", { view: v, limit: 10 }] as [string, Record<string, unknown>],
    ),
    ["research_catalog", { offset: 0, limit: 25 }],
  ];

  it("never refuses a legitimate public call", () => {
    fc.assert(
      fc.property(
        fc.array(fc.string({ minLength: 1, maxLength: 3 }), { minLength: 1, maxLength: 20 }),
        fc.constantFrom("ioc_value", "matched_term", "term_hit", "observation_source", "monetary_value"),
        (values, kind) => {
          const guard = new OutwardGuard(values.map((value) => ({ kind, value }) as PrivateValue));
          for (const [, args] of LEGIT) {
            const v = guard.checkCall(args, { progressToken: 7 }, JSON.stringify(args));
            expect(v.ok, JSON.stringify(args)).toBe(true);
          }
        },
      ),
      { numRuns: 500 },
    );
  });

  it("finds a short value standing alone", () => {
    const guard = new OutwardGuard([{ kind: "ioc_value", ioc: "handles", value: "@gfw" }]);
    expect(guard.checkText("@gfw")).toEqual({ kind: "ioc_value" });
    expect(guard.checkText("ask gfw about it")).toEqual({ kind: "ioc_value" });
    expect(guard.checkText("ooni-gfw")).toBeUndefined();
    expect(guard.checkCall({ name: "ooni-gfw", max_rows: 25 }, undefined, '{"name":"ooni-gfw","max_rows":25}').ok).toBe(true);
  });
});
