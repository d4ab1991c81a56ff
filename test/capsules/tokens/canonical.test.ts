/** Per-kind canonical forms of IOC values (docs/sharing.md): what matches what, and what stays apart. */
import { describe, expect, test } from "vitest";
import { canonicalIoc } from "../../../capsules/tokens/canonical.js";
import { matchToken } from "../../../capsules/tokens/token-file.js";

describe("canonicalIoc", () => {
  test("phones: E.164 from any usual international writing; national numbers stay digits", () => {
    for (const p of ["+44 20 7946 0958", "+44-20-7946-0958", "0044 20 7946 0958", "+44 (20) 7946.0958", "＋４４ ２０ ７９４６ ０９５８"]) {
      expect(canonicalIoc("phones", p), p).toBe("+442079460958");
    }
    expect(canonicalIoc("phones", "020 7946 0958")).toBe("02079460958");
  });
  test("phones: digits of every script read as ASCII digits (one token for one number, however written)", () => {
    for (const p of ["+९१ ९८७६५ ४३२१०", "+٩١ ٩٨٧٦٥ ٤٣٢١٠", "+৯১ ৯৮৭৬৫ ৪৩২১০", "+91 ९८७६५ 43210"]) expect(canonicalIoc("phones", p), p).toBe("+919876543210");
    expect(canonicalIoc("phones", "०२० ७९४६ ०९५८")).toBe("02079460958");
  });
  test("handles and e-mails: case-insensitive, handles without @", () => {
    expect(canonicalIoc("handles", "@Synthetic_Demo")).toBe("synthetic_demo");
    expect(canonicalIoc("handles", "synthetic_demo")).toBe("synthetic_demo");
    expect(canonicalIoc("emails", " Broker@Example.ORG ")).toBe("broker@example.org");
    expect(canonicalIoc("handles", "@")).toBeUndefined();
  });
  test("wallets: EVM and bech32 in lower case; Base58 keeps its case", () => {
    expect(canonicalIoc("wallets", "0x52908400098527886E0F7030069857D2E4169EE7")).toBe("0x52908400098527886e0f7030069857d2e4169ee7");
    expect(canonicalIoc("wallets", "BC1QAR0SRRR7XFKVY5L643LYDNW9RE59GTZZWF5MDQ")).toBe("bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq");
    expect(canonicalIoc("wallets", "TQn9Y2khEsLJW1ChVWFMSMeRDow5KcbLSE")).toBe("TQn9Y2khEsLJW1ChVWFMSMeRDow5KcbLSE");
    expect(canonicalIoc("wallets", "1BvBMSEYstWetqTFn5Au4m4GFg7xJaNVN2")).not.toBe(canonicalIoc("wallets", "1bvbmseystwetqtfn5au4m4gfg7xjanvn2"));
  });
  test("URLs: refanged, scheme and host in lower case, no fragment; channels without t.me/ and @", () => {
    expect(canonicalIoc("urls", "hxxps://Example[.]ORG/Path?q=1#frag")).toBe("https://example.org/Path?q=1");
    expect(canonicalIoc("urls", "example.org/a")).toBe("http://example.org/a");
    expect(canonicalIoc("channels", "https://t.me/Synthetic_Channel/")).toBe("synthetic_channel");
    expect(canonicalIoc("channels", "@synthetic_channel")).toBe("synthetic_channel");
  });
  test("values recorded as written (defanged, look-alike letters) canonicalise as their plain spelling (issue 31)", () => {
    expect(canonicalIoc("emails", "Ops[at]Desk[.]example")).toBe(canonicalIoc("emails", "ops@desk.example"));
    expect(canonicalIoc("emails", "ops (at) desk [dot] example")).toBe("ops@desk.example");
    expect(canonicalIoc("channels", "t[.]me/scam_chan")).toBe("scam_chan");
    expect(canonicalIoc("channels", "t.me/\u0455\u0441\u0430m_\u0441h\u0430n")).toBe("scam_chan");
    expect(canonicalIoc("handles", "@\u0455cam_desk")).toBe(canonicalIoc("handles", "@scam_desk"));
    expect(canonicalIoc("wallets", "0x4e2164d2646d\u0435021755eed38a67bc857145db863")).toBe("0x4e2164d2646de021755eed38a67bc857145db863");
    expect(canonicalIoc("urls", "hxxps://evil[.]example[/]pay")).toBe("https://evil.example/pay");
  });
  test("tokens: keyed, kind-bound, hexadecimal", () => {
    const k1 = new Uint8Array(32).fill(1);
    const k2 = new Uint8Array(32).fill(2);
    const t = matchToken(k1, "wallets", "0xabc");
    expect(t).toMatch(/^[0-9a-f]{64}$/);
    expect(matchToken(k1, "wallets", "0xabc")).toBe(t);
    expect(matchToken(k2, "wallets", "0xabc")).not.toBe(t);
    expect(matchToken(k1, "handles", "0xabc")).not.toBe(t);
  });
});
