import { createHash } from "node:crypto";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { Assessment } from "../../../capsules/assessment/types.js";
import { significantLength } from "../../../capsules/guard/forms.js";
import { forgetGuardCaches, OutwardGuard } from "../../../capsules/guard/outward-guard.js";
import { assessmentPrivateValues, type PrivateValue } from "../../../capsules/guard/private-values.js";
import { SHORT_MAX } from "../../../capsules/guard/value-forms.js";
import { describeShared, readShared } from "../../helpers/shared.js";

const collectPrivateValues = (a: Assessment) => new OutwardGuard(assessmentPrivateValues(a));
function guardCandidate(candidate: unknown, guard: OutwardGuard): { ok: true } | { ok: false; reason: string } {
  const v = guard.check(candidate, "candidate");
  return v.ok ? v : { ok: false, reason: v.reason };
}

function example(name: string): Assessment {
  return JSON.parse(readShared("data/bridge-examples/valid", `${name}.json`).toString("utf8")) as Assessment;
}

function expectHit(candidate: unknown, a: Assessment, kind: string, path: string, secret: string): void {
  const r = guardCandidate(candidate, collectPrivateValues(a));
  expect(r.ok).toBe(false);
  if (r.ok) return;
  expect(r.reason).toContain(`${kind} in ${path}`);
  expect(r.reason.toLowerCase()).not.toContain(secret.toLowerCase());
}

describeShared("outward guard on candidates", () => {
  const a01 = example("01-mule-account-rental-hinglish");
  const a03 = example("03-usdt-inr-kitchen-sink-iocs");
  const a13 = example("13-wildlife-ivory-en");
  const a32 = example("32-ext-wildlife-corroborated-lead");

  it("passes a candidate that holds none of the private values", () => {
    const r = guardCandidate({ origin_answer: "No source attribution can be made.", n: 3, list: ["x", { y: "z" }] }, collectPrivateValues(a03));
    expect(r).toEqual({ ok: true });
  });

  it("finds every exact IOC value of the detector, case-insensitively", () => {
    for (const [kind, values] of Object.entries(a03.detector.iocs)) {
      for (const v of values ?? []) {
        expectHit({ origin_answer: `see ${v.toUpperCase()} now` }, a03, "ioc_value", "candidate.origin_answer", v);
      }
      expect(kind).toBeTruthy();
    }
  });

  it("finds an IOC hidden with confusable or invisible characters (matcher normalisation)", () => {
    // Cyrillic small a (U+0430) instead of Latin a, and a zero-width space inside the handle.
    expectHit({ label: "@rent\u0430cc_desk" }, a01, "ioc_value", "candidate.label", "@rentacc_desk");
    expectHit({ label: "@rentacc\u200b_desk" }, a01, "ioc_value", "candidate.label", "@rentacc_desk");
  });

  it("finds a phone number written without its separators", () => {
    expectHit({ x: ["call 919876543210"] }, a01, "ioc_value", "candidate.x[0]", "+91 98765 43210");
  });

  it("finds the message hash, also upper-cased and as a 12-character window", () => {
    const h = a01.message_sha256;
    expectHit({ a: h }, a01, "message_sha256", "candidate.a", h);
    expectHit({ a: `id ${h.toUpperCase()}` }, a01, "message_sha256", "candidate.a", h);
    expectHit({ a: `prefix ${h.slice(20, 36)} suffix` }, a01, "message_sha256", "candidate.a", h.slice(20, 36));
    expectHit({ a: `prefix ${h.slice(20, 32)} suffix` }, a01, "message_sha256", "candidate.a", h.slice(20, 32));
    expect(guardCandidate({ a: h.slice(20, 31) }, collectPrivateValues(a01)).ok).toBe(true);
  });

  it("finds matched fragments, observation summaries, URIs and source groups", () => {
    expectHit({ t: "offer of Elephant ivory here" }, a13, "matched_term", "candidate.t", "Elephant ivory");
    const o = a32.hypotheses[0].external_observations[0];
    expectHit({ s: o.summary }, a32, "observation_summary", "candidate.s", o.summary);
    expectHit({ s: o.artifact_uri }, a32, "observation_uri", "candidate.s", o.artifact_uri);
    expectHit({ s: `group ${o.source_group}` }, a32, "observation_source", "candidate.s", o.source_group);
  });

  it("finds the pseudonym of a non-public surface, and allows it for public_channel + public", () => {
    expectHit({ collection: { source_pseudonym: a01.collection.source_pseudonym } }, a01, "source_pseudonym",
      "candidate.collection.source_pseudonym", a01.collection.source_pseudonym);
    expect(a13.collection.surface).toBe("public_channel");
    expect(guardCandidate({ p: a13.collection.source_pseudonym }, collectPrivateValues(a13))).toEqual({ ok: true });
  });

  it("searches member names and never echoes them, in plain objects and in Maps", () => {
    const v = "@rentacc_desk";
    expectHit({ outer: { [v]: "x" } }, a01, "ioc_value", "a member name of candidate.outer", v);
    const r = guardCandidate(new Map([["outer", new Map([[v, new Map([["inner", v]])]])]]), collectPrivateValues(a01));
    expect(r.ok).toBe(false);
    if (!r.ok) {
      expect(r.reason).toContain("ioc_value in a member name of candidate.outer");
      expect(r.reason).toContain("ioc_value in candidate.outer.<member>.inner");
      expect(r.reason).not.toContain("rentacc");
    }
  });

  it("reports several kinds at once without the values", () => {
    const r = guardCandidate({ a: a03.detector.iocs.emails![0], b: [a03.message_sha256] }, collectPrivateValues(a03));
    expect(r).toEqual({ ok: false, reason: "leak guard: ioc_value in candidate.a; message_sha256 in candidate.b[0]" });
  });
});

describe("leak guard on a minimal assessment", () => {
  it("ignores empty private values (an empty pseudonym matches nothing)", () => {
    const a = {
      message_sha256: "a".repeat(64),
      detector: { iocs: {}, signals: [] },
      threat_assessment: { findings: [] },
      collection: { surface: "private_submission", authorization: "user_submitted", source_pseudonym: "" },
      market_rate: { warnings: [] },
      hypotheses: [],
    } as unknown as Assessment;
    expect(guardCandidate({ s: "anything at all" }, collectPrivateValues(a))).toEqual({ ok: true });
  });
});

describe("leak guard properties", () => {
  const base = {
    message_sha256: "0".repeat(64),
    detector: { iocs: {}, signals: [] },
    threat_assessment: { findings: [] },
    collection: { surface: "guardian_group", authorization: "administrator_authorized", source_pseudonym: "" },
    market_rate: { warnings: [] },
    hypotheses: [],
  };

  it("finds any IOC value embedded anywhere in any string, whatever its case, and names only kind and path", () => {
    fc.assert(
      fc.property(
        fc.string({ minLength: 1, maxLength: 24, unit: "grapheme" }),
        fc.string({ maxLength: 12, unit: "grapheme" }),
        fc.string({ maxLength: 12, unit: "grapheme" }),
        fc.constantFrom("upper", "lower", "same"),
        fc.constantFrom("value", "key", "nested"),
        (secret, pre, post, casing, where) => {
          // Values of at most SHORT_MAX significant characters match only as whole tokens (tested in forms.test.ts).
          fc.pre(significantLength(secret) > SHORT_MAX);
          const a = { ...base, detector: { iocs: { handles: [secret] }, signals: [] } } as unknown as Assessment;
          const shown = casing === "upper" ? secret.toUpperCase() : casing === "lower" ? secret.toLowerCase() : secret;
          const s = `${pre}${shown}${post}`;
          const candidate = where === "value" ? { field: s } : where === "key" ? { field: { [s]: 1 } } : { field: [["x", s]] };
          const r = guardCandidate(candidate, collectPrivateValues(a));
          const path = where === "value" ? "candidate.field" : where === "key" ? "a member name of candidate.field" : "candidate.field[0][1]";
          // Upper-casing can change length or meaning (ß → SS, ŉ → ʼN); those are checked in the lower form.
          if (shown.toLowerCase().includes(secret.toLowerCase()) || casing === "same") {
            expect(r.ok).toBe(false);
            if (r.ok) return;
            // Found where it is; a very short F form (e.g. Greek capital iota with psili → "i") may also hit our own
            // member names: fail-closed. Every entry is made of our fixed vocabulary only, never of the secret.
            expect(r.reason.startsWith("leak guard: ")).toBe(true);
            const entries = r.reason.slice("leak guard: ".length).split("; ");
            // (When our member name `field` itself hits, the path below it is redacted to `<member>`.)
            const redacted = path.replace("candidate.field", "candidate.<member>");
            expect(entries.includes(`ioc_value in ${path}`) || entries.includes(`ioc_value in ${redacted}`)).toBe(true);
            for (const e of entries) expect(e).toMatch(/^ioc_value in (a member name of )?candidate(\.field|\.<member>|\[\d+\])*$/);
          }
        },
      ),
      { numRuns: 3000 },
    );
  });

  it("never reports a candidate made only of text unrelated to the secrets", () => {
    fc.assert(
      fc.property(fc.stringMatching(/^[a-z]{6,12}$/), fc.stringMatching(/^[A-Z0-9 ]{0,20}$/), (secret, other) => {
        fc.pre(!other.toLowerCase().includes(secret));
        const a = { ...base, detector: { iocs: { emails: [secret] }, signals: [] } } as unknown as Assessment;
        expect(guardCandidate({ a: other, b: [other] }, collectPrivateValues(a))).toEqual({ ok: true });
      }),
      { numRuns: 1000 },
    );
  });
});

describe("detector signal names", () => {
  const guard = new OutwardGuard([{ kind: "signal_name", value: "account_rental_offer" }]);
  it("are found as the identifier, in any case or separator style", () => {
    for (const s of ["account_rental_offer", "see ACCOUNT-RENTAL-OFFER", "signal: Account.Rental.Offer"]) {
      const v = guard.check(s, "note");
      expect(v.ok, s).toBe(false);
      if (!v.ok) expect(v.reason).toBe("leak guard: signal_name in note");
    }
  });
  it("are not found inside prose that uses the same words (a pack source title)", () => {
    expect(guard.check("Synthetic guide to bank-account rental offers (demonstration only)", "title")).toEqual({ ok: true });
    expect(guard.check("an account rental offer was seen", "title")).toEqual({ ok: true });
  });
});

describe("a store-sized guard (forms looked up by key)", () => {
  // Values that share their start and their end: each form is filed under its first, middle or last characters.
  const ids = Array.from({ length: 400 }, (_, i) => `c${(i * 7919).toString(36)}q${i}`);
  const uris = ids.map((id) => `https://example.org/fixture/${id}/index.html`);
  const summaries = ids.map((id) => `The exact wallet appears in case ${id} of the fixture.`);
  const guard = new OutwardGuard([
    ...uris.map((value) => ({ kind: "observation_uri", value }) as const),
    ...summaries.map((value) => ({ kind: "observation_summary", value }) as const),
  ]);

  it("finds every value inside other text, forwards and reversed", () => {
    for (const [i, u] of uris.entries()) {
      expect(guard.checkText(`see ${u.toUpperCase()} now`), u).toEqual({ kind: "observation_uri" });
      expect(guard.checkText([...`x ${summaries[i]} y`].reverse().join("")), summaries[i]).toEqual({ kind: "observation_summary" });
    }
  });

  it("does not find a value that differs in one character", () => {
    expect(guard.checkText("https://example.org/fixture/zzzz/index.html")).toBeUndefined();
    expect(guard.checkText(`The exact wallet appears in case ${ids[3]}x of the fixture.`)).toBeUndefined();
    expect(guard.checkText(uris[5].slice(0, -1))).toBeUndefined();
  });
});

describe("small guards and texts met again (the shared window table)", () => {
  const hash = (i: number) => createHash("sha256").update(`shared table ${i}`).digest("hex");
  const guardOf = (i: number) =>
    new OutwardGuard([
      { kind: "message_sha256", value: hash(i) },
      { kind: "source_pseudonym", value: hash(i + 1000).slice(0, 24) },
    ]);
  // A fixed sentence whose base64 decodings give many windows, met by every candidate, and a varying one.
  const fixed = "No numeric probability is shown because the current evidence set is not calibrated for source-of-funds";

  it("finds a hex value in a text met before, however often and in whichever form, and passes clean ones", () => {
    forgetGuardCaches();
    const hidden = `${fixed} ${Buffer.from(hash(7), "hex").toString("base64")}`;
    for (let round = 0; round < 3; round++) {
      for (let i = 0; i < 20; i++) {
        const g = guardOf(i);
        expect(g.check({ a: fixed, b: `row ${i}` }, "candidate").ok).toBe(true);
        // The text holding capsule 7's hash in base64 is met by every guard; only capsule 7's finds it.
        expect(g.check({ a: fixed, b: hidden }, "candidate").ok).toBe(i !== 7);
        expect(g.check({ c: fixed, d: [hidden] }, "candidate").ok).toBe(i !== 7);
        expect(g.check([fixed, `tail ${hash(i).slice(30, 44)}`], "candidate").ok).toBe(false);
      }
      // The caches start again from nothing (as in a new process); texts join the new shared table when met again.
      forgetGuardCaches();
    }
  });

  it("finds a handle, a phone, an amount and a term in texts met before, each in a usual rewriting", () => {
    forgetGuardCaches();
    // Ten digits that share no run of seven with another i's.
    const local = (i: number) => `9${BigInt(`0x${hash(i).slice(0, 12)}`).toString().slice(0, 9)}`;
    // One value per guard, so each way of being found (form, window, token) is the only one it has.
    const valuesOf = (i: number): PrivateValue[] => [
      { kind: "ioc_value", ioc: "handles", value: `@desk_runner_${i}x` },
      { kind: "ioc_value", ioc: "phones", value: `+91 ${local(i).slice(0, 5)} ${local(i).slice(5)}` },
      { kind: "monetary_value", value: `${87 + i}.5` },
      { kind: "matched_term", value: `instant kyc bypass ${i}` },
    ];
    const texts = (i: number) => [
      `contact DESK RUNNER ${i}X today`, // the handle without @, upper case, spaced
      `call ${local(i).slice(0, 3)}-${local(i).slice(3)}`, // the phone's national digits, other separators
      `rate ${87 + i}.5 per unit`, // the amount as a whole token
      `offer: Instant-KYC-Bypass-${i}`, // the term with other separators
    ];
    for (let round = 0; round < 3; round++) {
      for (let i = 0; i < 12; i++) {
        for (const [n, value] of valuesOf(i).entries()) {
          const g = new OutwardGuard([value]);
          expect(g.check([fixed, `row ${i}`], "candidate").ok).toBe(true);
          // Each text is met by every guard (so it is in the shared summary from the second guard on); only the
          // guard whose value it holds finds it.
          expect(g.check({ a: fixed, b: texts(5)[n] }, "candidate").ok, `round ${round}, guard ${i}, value ${n}`).toBe(i !== 5);
        }
      }
      forgetGuardCaches();
    }
  });
});

describe("IOC values whose pieces have forms of their own (a URL's host, a channel's name, a wallet's half)", () => {
  const ioc = (kind: "urls" | "channels" | "wallets", value: string): PrivateValue => ({ kind: "ioc_value", ioc: kind, value });
  const finds = (v: PrivateValue, text: string): boolean => {
    forgetGuardCaches();
    return new OutwardGuard([v]).checkText(text)?.kind === "ioc_value";
  };

  it("find the whole value as written, however short or defanged the piece", () => {
    // Host without a dot (no host form), a short host, a defanged value, and the ordinary case.
    for (const [value, texts] of [
      ["https://intranetbox/rates/x1", ["see https://intranetbox/rates/x1 now", "intranetbox/rates/x1"]],
      ["https://ab.io/p/quota-7", ["open https://ab.io/p/quota-7", "ab.io/p/quota-7"]],
      ["hxxps://desk-rates[.]example/r/9", ["hxxps://desk-rates[.]example/r/9", "desk-rates.example", "https://desk-rates.example/r/9"]],
      ["https://usdt-inr-desk.example/rates/00123", ["usdt-inr-desk.example", "https://usdt-inr-desk.example/rates/00123"]],
    ] as const) {
      for (const t of texts) expect(finds(ioc("urls", value), t), `${value} in ${t}`).toBe(true);
    }
    // A host without a dot is not searched alone; a short one is, once refanged.
    expect(finds(ioc("urls", "https://intranetbox/rates/x1"), "intranetbox")).toBe(false);
    expect(finds(ioc("urls", "https://ab.io/p/quota-7"), "ab dot io")).toBe(true);
    expect(finds(ioc("urls", "https://ab.io/p/quota-7"), "quota 7 io")).toBe(false);
  });

  it("find a channel whose name is too short to be searched inside text by its whole value", () => {
    // "abcde" (the shortest Telegram name) is a whole-token form only: the value itself must still be found inside
    // other text.
    expect(finds(ioc("channels", "t.me/abcde"), "join tme/abcde today")).toBe(true);
    expect(finds(ioc("channels", "t.me/abcde"), "https://t.me/abcde")).toBe(true);
    expect(finds(ioc("channels", "t.me/abcde"), "xabcdex")).toBe(false);
    expect(finds(ioc("channels", "t.me/usdt_rates_9"), "usdt_rates_9")).toBe(true);
  });

  it("find a wallet whole, and by either half", () => {
    const w = "TQn9Y2khEsLJW1ChVWFMSMeRDow5KcbLSE";
    for (const t of [w, `pay ${w} now`, w.slice(0, 17), w.slice(17), w.toLowerCase()]) expect(finds(ioc("wallets", w), t), t).toBe(true);
  });
});

describe("one verdict whichever way a guard searches", () => {
  it("a guard past 256 text forms (indexed) names the kinds in a text as a small guard (direct search) does", () => {
    const term: PrivateValue = { kind: "matched_term", value: "alphaqq bravoqq" };
    const handle: PrivateValue = { kind: "ioc_value", ioc: "handles", value: "@charliezz" };
    const fillers: PrivateValue[] = Array.from({ length: 300 }, (_, i) => ({ kind: "ioc_value", ioc: "handles", value: `@filler${String(i).padStart(4, "0")}x` }));
    // The handle comes first in the text, the term first among the values.
    const note = { note: "charliezz then alphaqq bravoqq" };
    const small = new OutwardGuard([term, handle]).check(note, "export.decision");
    const large = new OutwardGuard([term, handle, ...fillers]).check(note, "export.decision");
    expect(small.ok).toBe(false);
    expect(large).toEqual(small);
    expect(new OutwardGuard([handle, ...fillers, term]).check(note, "export.decision")).toEqual(small);
    expect(new OutwardGuard([...fillers, term, handle]).checkText("charliezz then alphaqq bravoqq")).toEqual(new OutwardGuard([term, handle]).checkText("charliezz then alphaqq bravoqq"));
  });
});
