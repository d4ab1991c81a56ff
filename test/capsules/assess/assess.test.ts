/** capsules/assess/assess.ts and message-text.ts: what a message must be, and nothing half-recorded. */
import { mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, test } from "vitest";
import { assessAndSeal } from "../../../capsules/assess/assess.js";
import { checkJudgement, JudgementError } from "../../../capsules/assess/judgement.js";
import { checkMessageText } from "../../../capsules/assess/message-text.js";
import { fromJs } from "../../../capsules/capsule/js-input.js";
import { openOrCreateStore } from "../../../capsules/store/store.js";
import { loadPackFile } from "../../../published/pack/file.js";
import type { JsonValue } from "../../../src/json/value.js";
import { parseStrictJson } from "../../../src/json/parse.js";
import { describeShared, repoRoot, sharedPath } from "../../helpers/shared.js";
import { tempHome } from "../store/synthetic.js";

const homes: string[] = [];
afterAll(() => homes.forEach((h) => rmSync(h, { recursive: true, force: true })));

function refusal(text: string): { rule: string; message: string } | undefined {
  try {
    checkMessageText(text, "message_text");
  } catch (e) {
    if (e instanceof JudgementError) return { rule: e.rule, message: e.message };
    throw e;
  }
  return undefined;
}

describe("checkMessageText", () => {
  test("a message without any visible character is refused: empty, spaces, BOM, zero-width and bidi controls", () => {
    for (const text of ["", " \n\t ", "\ufeff", "\u200b\u200c\u200d", "\u202e\u2066 \u2069", "\u3164"]) {
      expect(refusal(text), JSON.stringify(text)).toEqual({ rule: "empty", message: "message_text: no visible character (empty, or only spaces and invisible characters)" });
    }
  });

  test("a lone surrogate is refused: UTF-8 would turn it into U+FFFD, so two texts would share one hash", () => {
    for (const text of ["X \ud800", "\udc00 call me", "a\ud83d"]) expect(refusal(text)?.rule, JSON.stringify(text)).toBe("well-formed");
    // The error names the rule, never the text.
    expect(refusal("secret-handle \ud800")?.message).not.toContain("secret-handle");
  });

  test("any visible character in any script is enough; surrogate pairs are well-formed", () => {
    for (const text of ["x", " . ", "\u200b@desk", "九", "\ud83d\ude00", "é"]) expect(refusal(text), JSON.stringify(text)).toBeUndefined();
  });
});

describe("quotes and client IOCs too short to be evidence", () => {
  const base = { signals: [], findings: [], surface: "offline_import", authorization: "operator_authorized" };
  const refusal = (extra: Record<string, unknown>): string | undefined => {
    try {
      checkJudgement(fromJs({ ...base, ...extra }) as JsonValue);
    } catch (e) {
      if (e instanceof JudgementError) return e.message;
      throw e;
    }
    return undefined;
  };

  test("a quote needs 3 letters or digits: one letter or a zero-width character would make the guard withhold", () => {
    const finding = (q: string) => ({ findings: [{ rule_id: "task_scam_pattern", tier: "WATCH", evidence_classes: ["offer"], fragments: { offer: ["paid daily", q] } }] });
    const rule = "judgement.findings[0].fragments.offer[1]: a quote needs at least 3 letters or digits, or 2 Han, Hiragana/Katakana or Hangul characters";
    expect(refusal(finding("a"))).toBe(rule);
    expect(refusal(finding("\u200b"))).toBe(rule);
    expect(refusal(finding("5 %"))).toBe(rule);
    expect(refusal(finding("3% daily"))).toBeUndefined();
  });

  test("quote rules count by script: two Han, Hiragana/Katakana or Hangul characters are a word, other scripts keep three", () => {
    const finding = (q: string) => ({ findings: [{ rule_id: "narcotics_trade_offer", tier: "WATCH", evidence_classes: ["offer"], fragments: { offer: [q] } }] });
    for (const q of ["快递", "發貨", "稳赚", "かね", "カネ", "대출"]) expect(refusal(finding(q)), q).toBeUndefined();
    // One character of these scripts, or two of others (Cyrillic, Devanagari, Thai, Latin), is still too short.
    for (const q of ["快", "快1", "\u200b快", "да", "नक", "ยา", "ok"]) expect(refusal(finding(q)), q).toMatch(/a quote needs at least 3 letters or digits/);
  });

  test("a region must be one libphonenumber-js knows, in capitals; the error never quotes it", () => {
    expect(refusal({ region: "RU" })).toBeUndefined();
    expect(refusal({ region: "ID" })).toBeUndefined();
    for (const region of ["ru", "XX", "RUS", "", "Russia"]) expect(refusal({ region }), region).toMatch(/^judgement\.region: expected one of AC, AD, .*\(got a string of \d+ characters?\)$/);
  });

  test("a client IOC needs the length of its kind's format, and the error never quotes it", () => {
    expect(refusal({ iocs: { phones: ["e"] } })).toBe("judgement.iocs.phones[0]: too short for one of phones: at least 7 digits");
    expect(refusal({ iocs: { phones: ["CANARYPIN"] } })).toBe("judgement.iocs.phones[0]: too short for one of phones: at least 7 digits");
    expect(refusal({ iocs: { wallets: ["bank"] } })).toBe("judgement.iocs.wallets[0]: too short for one of wallets: at least 25 letters or digits");
    expect(refusal({ iocs: { handles: ["@desk_9", "@ab"] } })).toBe("judgement.iocs.handles[1]: too short for one of handles: at least 5 letters or digits");
    expect(refusal({ iocs: { phones: ["+91 98765 43210"], handles: ["@desk_9"], urls: ["a.io"], emails: ["a@b.io"] } })).toBeUndefined();
  });

  test("a client IOC must have the shape of its kind: a sentence is no wallet, a word no URL; the error never quotes it", () => {
    const cases: [Record<string, string[]>, string][] = [
      [{ phones: ["Ut7NwLifP2XPdtz761z57Mk"] }, "judgement.iocs.phones[0]: not the shape of one of phones: a phone number is digits with spaces, dashes and + ( ) . / only (tel: may lead; an extension after ext, x, # or a pause)"],
      [{ wallets: ["Paisa bhejo UPI 9876543210 pe"] }, "judgement.iocs.wallets[0]: not the shape of one of wallets: a wallet address is one run of letters, digits, - and _ (a scheme such as bitcoin: may lead, a ?query follow)"],
      [{ urls: ["Contact"] }, "judgement.iocs.urls[0]: not the shape of one of urls: a URL has no spaces and a scheme (://) or a dot (., [.], (.), [dot])"],
      [{ emails: ["chalega"] }, "judgement.iocs.emails[0]: not the shape of one of emails: an e-mail address is one token with @, or written out with [at] (at) {at} or ' at ' and a dot"],
      [{ emails: ["look at this"] }, "judgement.iocs.emails[0]: not the shape of one of emails: an e-mail address is one token with @, or written out with [at] (at) {at} or ' at ' and a dot"],
      [{ emails: ["write to ops@desk.example today"] }, "judgement.iocs.emails[0]: not the shape of one of emails: an e-mail address is one token with @, or written out with [at] (at) {at} or ' at ' and a dot"],
      [{ handles: ["@desk_9", "rentdesk@okaxis"] }, "judgement.iocs.handles[1]: not the shape of one of handles: a handle is @ and a name of letters, digits, _ and ."],
      [{ handles: ["@scam desk"] }, "judgement.iocs.handles[0]: not the shape of one of handles: a handle is @ and a name of letters, digits, _ and ."],
      [{ handles: ["@https://evil.example"] }, "judgement.iocs.handles[0]: not the shape of one of handles: a handle is @ and a name of letters, digits, _ and ."],
      [{ channels: ["usdt rates desk"] }, "judgement.iocs.channels[0]: not the shape of one of channels: a channel is a link (with /) or @ and a name, without spaces"],
    ];
    for (const [iocs, message] of cases) {
      expect(refusal({ iocs })).toBe(message);
      for (const value of Object.values(iocs).flat()) expect(message).not.toContain(value);
    }
  });

  test("a judgement string with a lone surrogate is refused: two such sources would be one pseudonym", () => {
    for (const source of ["\ud800chan", "\udbffchan"]) {
      expect(refusal({ source })).toBe("judgement.source: not well-formed Unicode (a lone surrogate; UTF-16 halves must come in pairs)");
    }
    expect(refusal({ iocs: { handles: ["@desk_\udc00x"] } })).toBe("judgement.iocs.handles[0]: not well-formed Unicode (a lone surrogate; UTF-16 halves must come in pairs)");
    expect(refusal({ source: "\ud83d\ude00 channel" })).toBeUndefined(); // a pair is fine
  });

  test("the shapes stay loose enough for what the extraction misses (docs/assess.md Known misses)", () => {
    const accepted: Record<string, string[]> = {
      phones: ["+91 98765 43210", "(022) 2345-6789", "+91 98765 43210 ext. 12", "98765 43210 x9", "+91 98765\u201343210", "+7 (495) 123\u201345\u201367", "98765\u221243210", "tel:+14155550132", "98765 43210;ext=12", "98765 43210 ext: 12", "98765 43210,,123", "98765 43210p123", "\uff19\uff18\uff17\uff16\uff15 \uff14\uff13\uff12\uff11\uff10", "\u096f\u096e\u096d\u096c\u096b\u096a\u0969\u0968\u0967\u0966"],
      handles: ["@desk_9", "\uff20desk_9", "@cana\u0301rydesk"],
      channels: ["t.me/usdt_inr_rates", "https://t.me/+AbCdEf123", "@usdt_inr_rates"],
      wallets: ["TmcD3cQqkpT9P5aXLUff69yRPBEn1ce2p3", "bitcoincash:qpm2qsznhks23z7629mms6s4cwef74vcwvy22gdx6a", "Bitcoincash:qpm2qsznhks23z7629mms6s4cwef74vcwvy22gdx6a", "EQD4FPq-PRDieyQKkizFTRtSDyucUIqrj0v_zXJmqaDp6_0t", "0:83dfd552e63729b472fcbcc8c45ebcc6691702558b68ec7527e1ba403a0f31a8", "bitcoin:bc1qmcct0yrlydtasvye02py6lt5tc5jvd5f7g5ddv?amount=0.1", "ethereum:0x4e2164d2646de021755eed38a67bc857145db863@1", "44AFFq5kSiGBoZ4NMDwYtN18obc8AemS33DBLWs3H7otXft3XjrpDtQGv7SqSsaBYBb98uNbr2VBBEt7f2wfn3RVGQBEP3A"],
      emails: ["ops@usdt-desk.example", "ops [at] desk [dot] example", "ops at desk dot example"],
      urls: ["hxxps://desk[.]example/pay", "desk[.]example", "https://desk.example", "desk(dot)example"],
    };
    for (const [kind, values] of Object.entries(accepted)) {
      for (const v of values) expect(refusal({ iocs: { [kind]: [JSON.parse(`"${v}"`)] } }), `${kind} ${v}`).toBeUndefined();
    }
  });
});

const JUDGEMENT = () => checkJudgement(fromJs({ signals: ["account_rental_offer"], findings: [], surface: "offline_import", authorization: "operator_authorized" }) as JsonValue);

describeShared("assessAndSeal", () => {
  const pack = () => loadPackFile(sharedPath("data/intelligence-pack/intelligence-pack-v1.json"));

  test("a retained message that cannot be stored leaves no capsule behind, so a rerun records it", async () => {
    const home = tempHome("assess-retain");
    homes.push(home);
    const store = await openOrCreateStore({ home, passphrase: undefined });
    rmSync(store.layout.messages, { recursive: true, force: true });
    mkdirSync(store.layout.root, { recursive: true });
    writeFileSync(store.layout.messages, "not a directory");
    const req = { message: checkMessageText("account on rent, DM @retain_desk"), judgement: JUDGEMENT(), retainMessage: true };
    expect(() => assessAndSeal(store, pack(), req)).toThrow(/not a directory/);
    expect(store.capsuleIds()).toEqual([]);
    rmSync(store.layout.messages);
    const again = assessAndSeal(store, pack(), req);
    expect(again.status).toBe("new");
    expect(again.messageRetained).toBe(true);
    expect(store.capsuleIds()).toEqual([again.capsuleId]);
  });

  test("client IOCs of a CLEAN message are not recorded, and the outcome says so", async () => {
    const home = tempHome("assess-clean");
    homes.push(home);
    const store = await openOrCreateStore({ home, passphrase: undefined });
    const judgement = checkJudgement(fromJs({ signals: [], findings: [], surface: "offline_import", authorization: "operator_authorized", iocs: { handles: ["@quiet_handle"] } }) as JsonValue);
    const quiet = assessAndSeal(store, pack(), { message: checkMessageText("hello, write to @quiet_handle"), judgement });
    expect(quiet.assessment?.detector.iocs).toEqual({});
    expect(quiet.clientIocsDropped).toBe(true);
    const named = checkJudgement(fromJs({ signals: ["account_rental_offer"], findings: [], surface: "offline_import", authorization: "operator_authorized", iocs: { handles: ["@loud_handle"] } }) as JsonValue);
    const loud = assessAndSeal(store, pack(), { message: checkMessageText("account on rent, write to @loud_handle"), judgement: named });
    expect(loud.assessment?.detector.iocs.handles).toEqual(["@loud_handle"]);
    expect(loud.clientIocsDropped).toBe(false);
  });

  test("an empty message is refused before anything is derived or stored", async () => {
    const home = tempHome("assess-empty");
    homes.push(home);
    const store = await openOrCreateStore({ home, passphrase: undefined });
    expect(() => assessAndSeal(store, pack(), { message: checkMessageText("\u200b \n"), judgement: JUDGEMENT() })).toThrow(JudgementError);
    expect(store.capsuleIds()).toEqual([]);
  });
});

describe("the shipped example judgement (examples/synthetic/judgement.json, docs/assess.md)", () => {
  test("is accepted and records the synthetic message with the synthetic pack", async () => {
    const dir = join(repoRoot, "examples", "synthetic");
    const judgement = checkJudgement(parseStrictJson(readFileSync(join(dir, "judgement.json"))));
    const message = readFileSync(join(dir, "message.txt"), "utf8");
    const home = tempHome("assess-example");
    homes.push(home);
    const store = await openOrCreateStore({ home, passphrase: undefined });
    const out = assessAndSeal(store, loadPackFile(join(dir, "intelligence-pack.json")), { message: checkMessageText(message), judgement });
    expect(out.status).toBe("new");
    expect(out.assessment?.detector.iocs.handles).toEqual(["@synthetic_recruiter_demo"]);
    expect(out.assessment?.threat_assessment.tier).toBe("WATCH");
  });
});
