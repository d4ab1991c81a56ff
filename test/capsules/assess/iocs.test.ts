/** IOC extraction (capsules/assess/iocs.ts) over messages in several scripts and with evasions, and wallet checksums. */
import { describe, expect, test } from "vitest";
import { extractIocs, extractWithClientIocs } from "../../../capsules/assess/iocs.js";
import { eip55, findWallets } from "../../../capsules/assess/wallets.js";
import { describeShared, readShared, validExampleNames } from "../../helpers/shared.js";
import { SAMPLES } from "./messages.js";

describe("extractIocs: every kind, every script", () => {
  for (const s of SAMPLES) {
    test(s.name, () => {
      expect(extractIocs(s.text).iocs).toEqual(s.iocs);
    });
  }
});

describeShared("extractIocs: at least the producer's IOCs on the reference examples", () => {
  for (const name of validExampleNames()) {
    test(name, () => {
      const text = readShared("data/bridge-examples/valid", `${name}.txt`).toString("utf8");
      const want = JSON.parse(readShared("data/bridge-examples/valid", `${name}.json`).toString("utf8")).detector.iocs as Record<string, string[]>;
      const got = extractIocs(text).iocs as Record<string, string[]>;
      for (const [kind, values] of Object.entries(want)) expect(got[kind]).toEqual(values);
    });
  }
});

describe("first-seen order and de-duplication", () => {
  test("a repeated handle is listed once, in the order of first appearance", () => {
    const got = extractIocs("@second_one and @first_one then @second_one again").iocs.handles;
    expect(got).toEqual(["@second_one", "@first_one"]);
  });
  test("an e-mail address is not a handle, a t.me link is a channel and not a URL", () => {
    const got = extractIocs("write to sales@shop.example or https://t.me/shop_chan").iocs;
    expect(got.handles).toEqual([]);
    expect(got.emails).toEqual(["sales@shop.example"]);
    expect(got.channels).toEqual(["https://t.me/shop_chan"]);
    expect(got.urls).toEqual([]);
  });
  test("too-short handles and numbers that are not phone numbers are not IOCs", () => {
    const got = extractIocs("@abc costs 120 per 5kg, order 12345").iocs;
    expect(got.handles).toEqual([]);
    expect(got.phones).toEqual([]);
  });
});

describe("phone numbers in lists, invite links", () => {
  test("digits after a comma or semicolon are the next number, not an extension of the one before", () => {
    // libphonenumber-js alone reads "98765 43210, 91234" as one number with extension 91234 and loses the second.
    expect(extractIocs("call 98765 43210, 91234 56789").iocs.phones).toEqual(["98765 43210", "91234 56789"]);
    expect(extractIocs("nums 98765 43210,98111 22333; +44 20 7946 0958").iocs.phones).toEqual(["98765 43210", "98111 22333", "+44 20 7946 0958"]);
    expect(extractIocs("call 98765 43210, 9123 today").iocs.phones).toEqual(["98765 43210"]);
  });

  test("an extension with a label stays part of the number", () => {
    expect(extractIocs("call +91 98765 43210 ext. 12 now").iocs.phones).toEqual(["+91 98765 43210 ext. 12"]);
    expect(extractIocs("call 98765 43210 x123 now").iocs.phones).toEqual(["98765 43210 x123"]);
  });

  test("a date with a four-digit year, or a time, is not a phone number, in any script's digits", () => {
    for (const text of ["Meeting 27.11.2026 10:30 sharp", "Meeting दिनांक २७.११.२०२६ १०:३० बजे.", "at 2026-11-27 10:30", "on 27/11/2026 10:30"]) {
      expect(extractIocs(text).iocs.phones, text).toEqual([]);
    }
    // A number next to a date or a time is still found; so are numbers written in groups of two.
    expect(extractIocs("27.11.2026 9876543210").iocs.phones).toEqual(["9876543210"]);
    expect(extractIocs("call 98765 43210 at 10:30").iocs.phones).toEqual(["98765 43210"]);
    expect(extractIocs("call +33 1 23 45 67 89 or 011-2345-6789").iocs.phones).toEqual(["+33 1 23 45 67 89", "011-2345-6789"]);
  });

  test("a joinchat invite written with its plus sign keeps its code", () => {
    expect(extractIocs("join https://t.me/joinchat/+AbCdEf123 now").iocs.channels).toEqual(["https://t.me/joinchat/+AbCdEf123"]);
    expect(extractIocs("join t.me/joinchat/AbCdEf123 now").iocs.channels).toEqual(["t.me/joinchat/AbCdEf123"]);
  });
});

describe("wallet checksums", () => {
  test("EIP-55: a correct mixed-case checksum verifies, one flipped letter fails, one-case has none", () => {
    const good = "0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed";
    expect(eip55(good)).toBe(true);
    expect(eip55(good.replace("aAeb", "aaeb"))).toBe(false);
    expect(eip55(good.toLowerCase())).toBe(null);
  });
  test("bech32 and base58check are verified with the libraries", () => {
    const [bech] = findWallets("bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t4");
    expect(bech.checksum).toBe(true);
    const [legacy] = findWallets("1BvBMSEYstWetqTFn5Au4m4GFg7xJaNVN2");
    expect(legacy.checksum).toBe(true);
    const [broken] = findWallets("1BvBMSEYstWetqTFn5Au4m4GFg7xJaNVN3");
    expect(broken.checksum).toBe(false);
  });
});

describe("client-named IOCs", () => {
  test("a look-alike spelling of an IOC in the message is accepted and recorded as the message writes it", () => {
    const text = "call the desk at @\u0455cam_desk now";
    const r = extractWithClientIocs(text, { handles: ["@scam_desk"] });
    expect(r.missing).toBeUndefined();
    if (r.missing === undefined) expect(r.iocs.handles).toEqual(["@\u0455cam_desk"]);
  });
  test("a refanged spelling of a defanged IOC in the message is accepted and recorded defanged, as written", () => {
    const r = extractWithClientIocs("see hxxps://evil-desk[.]example/pay now", { urls: ["https://evil-desk.example/pay"] });
    expect(r.missing).toBeUndefined();
    if (r.missing === undefined) expect(r.iocs.urls).toEqual(["hxxps://evil-desk[.]example/pay"]);
  });
  test("an IOC that is not in the message is refused by kind and index", () => {
    const r = extractWithClientIocs("nothing here", { emails: ["x@y.example"] });
    expect(r.missing).toEqual({ kind: "emails", index: 0 });
  });
});
