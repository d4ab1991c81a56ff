/** IOC extraction (capsules/assess/iocs.ts) over messages in several scripts and with evasions, and wallet checksums. */
import { describe, expect, test } from "vitest";
import { extractIocs, extractWithClientIocs } from "../../../capsules/assess/iocs.js";
import { eip55, findWallets, isSolanaAddress, tonChecksum } from "../../../capsules/assess/wallets.js";
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

/** Issue 31: each class, in the scripts the corpus covers (values as the message writes them). */
describe("defanged links, e-mails and Telegram links are recorded as written", () => {
  test.each([
    ["URGENT: pay at hxxps://dhl-release[.]co.uk/fee today", "urls", "hxxps://dhl-release[.]co.uk/fee"],
    ["链接已处理：hxxps://fake-bank[.]cn/login，请勿点击。", "urls", "hxxps://fake-bank[.]cn/login"],
    ["Фишинговый домен: hxxp://gosuslugi-vhod[.]ru/login", "urls", "hxxp://gosuslugi-vhod[.]ru/login"],
    ["domain evil-payments(.)net seen", "urls", "evil-payments(.)net"],
    ["mail drop[@]securemail-verify[.]com now", "emails", "drop[@]securemail-verify[.]com"],
    ["อีเมลมิจฉาชีพ admin[at]thai-gov-refund[.]com", "emails", "admin[at]thai-gov-refund[.]com"],
    ["بريد المحتال: info [at] emirates-secure [dot] com", "emails", "info [at] emirates-secure [dot] com"],
    ["Naya channel: t[.]me/betting_master_ipl (copy karo)", "channels", "t[.]me/betting_master_ipl"],
  ] as const)("%s", (text, kind, value) => {
    const got = extractIocs(text).iocs;
    expect(got[kind]).toEqual([value]);
    expect(got.urls.filter((u) => u !== value)).toEqual([]);
  });
});

describe("numbers that are not phone numbers", () => {
  test.each([
    "Server log: failed logins from 185.220.101.34 and 192.168.1.105 today",
    "Maine QQ pe add kiya tha, QQ number 2876543210 hai unka.",
    "我的QQ是2876543210，加我聊。",
    "QQ號：1234567890，微信：abc_kefu。",
    "ИНН 7707083893, КПП 770701001, ОГРН 1027700132195.",
    "Ваш заказ № 7712345678 отправлен.",
    "Order ID: 9184726350 refund approved",
    "Bhai Amazon se order kiya tha, order no. 9182736450",
    "आपका ऑर्डर नंबर 9123456789 भेज दिया गया है।",
    "หมายเลขคำสั่งซื้อ 8912345670 จัดส่งแล้ว",
    "Mã đơn hàng 9012345678 đã được giao.",
    "Nomor pesanan 8123456789 sudah dikirim.",
    "رقم الطلب 9876543210 تم شحنه بنجاح.",
    "DHL wala bol raha hai, AWB 7319462850, paisa bhejna padega?",
    "DHL运单号 6734512890，清关需补缴税费。",
    "请将 8 位验证码 48213795 输入页面。",
  ])("%s", (text) => {
    expect(extractIocs(text).iocs.phones).toEqual([]);
  });
  test("words that are no label leave a phone number alone", () => {
    expect(extractIocs("In case 98765 43210 is busy, try later").iocs.phones).toEqual(["98765 43210"]);
    expect(extractIocs("Hotel Taj Inn 022 2345 6789, Colaba").iocs.phones).toEqual(["022 2345 6789"]);
    expect(extractIocs("My referral code 9876543210, use it on signup").iocs.phones).toEqual(["9876543210"]);
  });
  test("a labelled number next to a phone number leaves the phone number", () => {
    expect(extractIocs("Order ID: 9184726350, questions? call +1 415 555 2671").iocs.phones).toEqual(["+1 415 555 2671"]);
  });
});

describe("phone numbers written nationally, outside India", () => {
  test.each([
    ["Работа на дому, звоните 8 (916) 123-45-67.", "8 (916) 123-45-67"],
    ["Офис в Санкт-Петербурге, тел. 8 (812) 345-67-89.", "8 (812) 345-67-89"],
    ["固话010-6552 9988，工作日。", "010-6552 9988"],
    ["台灣手機0987 654 321，晚上來電。", "0987 654 321"],
    ["香港WhatsApp 9123 4567，專人處理。", "9123 4567"],
    ["เบอร์ใหม่ 089 123 4567 นะ", "089 123 4567"],
    ["Gọi 090 123 4567 để được tư vấn.", "090 123 4567"],
    ["اتصل على 050 123 4567 في الرياض.", "050 123 4567"],
    ["رقمي الجديد ٠٥٥ ١٢٣ ٤٥٦٧", "٠٥٥ ١٢٣ ٤٥٦٧"],
    ["Kantor kami di Indonesia, telepon (021) 2345 6789.", "(021) 2345 6789"],
    ["Казахстан: 8 701 234 5678, Алматы.", "8 701 234 5678"],
  ])("%s", (text, phone) => {
    expect(extractIocs(text).iocs.phones).toEqual([phone]);
  });
  test("a message that names no region and is in Latin script reads India; the judgement's region overrides", () => {
    const text = "Nomor baru saya 0857 1234 5678, simpan ya.";
    expect(extractIocs(text).iocs.phones).toEqual([]);
    expect(extractIocs(text, "ID").iocs.phones).toEqual(["0857 1234 5678"]);
    // The override is the only region then: an Indian number written nationally is not read in Indonesia.
    expect(extractIocs("call 98765 43210", "ID").iocs.phones).toEqual([]);
  });
});

describe("file and degree names are not URLs; labels glued to a value; full-width punctuation", () => {
  test.each([
    "Please review README.md and setup.py before you push; the build breaks on ASP.NET Core 8.",
    "Hiring: B.Com or M.Com graduates, Tally and MS Excel.",
    "请看README.md和setup.py，再运行。",
    "Price went up today.Thanks for the update.Now wait.",
    "Meeting at 10 a.m. tomorrow, e.g. bring laptops. We use Node.js now.",
  ])("%s", (text) => {
    expect(extractIocs(text).iocs.urls).toEqual([]);
  });
  test.each([
    ["Email:jobs.desk2026@gmail.com Phone:+91 98111 23456 Website:www.workfromhome-jobs.in", "emails", "jobs.desk2026@gmail.com"],
    ["Email:jobs.desk2026@gmail.com Website:www.workfromhome-jobs.in", "urls", "www.workfromhome-jobs.in"],
    ["邮箱：kefu2026@163.com，网址：www.jianzhi-rijie.com，欢迎咨询。", "emails", "kefu2026@163.com"],
    ["邮箱：kefu2026@163.com，网址：www.jianzhi-rijie.com，欢迎咨询。", "urls", "www.jianzhi-rijie.com"],
    ["ईमेल:help.desk@rbi-refund.in पर भेजें।", "emails", "help.desk@rbi-refund.in"],
    ["เว็บไซต์:www.thai-loan.co.th", "urls", "www.thai-loan.co.th"],
    ["点击https://bit.ly/3Yz8Kq2，领取优惠券。", "urls", "https://bit.ly/3Yz8Kq2"],
    ["下载地址：http://app.dafa-yule.com/download.apk，安卓专用。", "urls", "http://app.dafa-yule.com/download.apk"],
    ["mailto:ops@desk.example", "emails", "ops@desk.example"],
  ] as const)("%s → %s", (text, kind, value) => {
    expect(extractIocs(text).iocs[kind]).toEqual([value]);
  });
});

describe("TON and Solana addresses, tg:// links", () => {
  const TON = "EQAof4BdzO9JSzbx1NZdNJlflEsfxivlENklZ279oxFUTajw";
  const TON_STD = "EQD90fXo2jQsNyTS1IZApi5JKwwfLE3W7vixcA7bgB+ycydA";
  const SOL = "Bz1SVMSc73mgYxmSt2wrPWQabXmNJt6UBWtUTYRCiW3g";
  test("a TON address (base64url or base64) is found and its CRC-16 verified; one changed character fails it", () => {
    const r = extractIocs(`TON钱包：${TON}，空投 or ${TON_STD}`);
    expect(r.iocs.wallets).toEqual([TON, TON_STD]);
    expect(r.wallet_checksums).toEqual({ verified: 2, failed: 0, none: 0 });
    const broken = `${TON.slice(0, 20)}${TON[20] === "A" ? "B" : "A"}${TON.slice(21)}`;
    expect(tonChecksum(broken)).toBe(false);
    expect(extractIocs(`send to ${broken}`).wallet_checksums).toEqual({ verified: 0, failed: 1, none: 0 });
    // 48 characters whose first two are no TON tag and workchain are not a TON address.
    expect(tonChecksum(`EQ${"A".repeat(46)}`.replace(/^EQ/, "EA"))).toBeUndefined();
  });
  test("a TON raw address and a Solana address are found, without a checksum", () => {
    const raw = `0:${"83dfd552e63729b472fcbcc8c45ebcc6691702558b68ec7527e1ba403a0f31a8"}`;
    const r = extractIocs(`Адрес Solana: ${SOL}, raw ${raw}`);
    expect(r.iocs.wallets).toEqual([SOL, raw]);
    expect(r.wallet_checksums).toEqual({ verified: 0, failed: 0, none: 2 });
  });
  test("Base58 that is not 32 bytes, or a long word, is not a Solana address", () => {
    expect(isSolanaAddress(SOL)).toBe(true);
    expect(isSolanaAddress(SOL.slice(0, 40))).toBe(false);
    expect(extractIocs("Pneumonoultramicroscopicsilicovolcanoconiosis is a word").iocs.wallets).toEqual([]);
  });
  test("tg://resolve and tg://join links are channels", () => {
    const got = extractIocs("机器人：tg://resolve?domain=cn_airdrop_bot，按提示操作 or tg://join?invite=AbCdEf12345").iocs;
    expect(got.channels).toEqual(["tg://resolve?domain=cn_airdrop_bot", "tg://join?invite=AbCdEf12345"]);
    expect(got.urls).toEqual([]);
  });
});

describe("values are the message's own characters", () => {
  test("an invisible character inside a value is left out (assessment-v1 allows no format character in a value)", () => {
    expect(extractIocs("call +91\u200b98765\u200b43210 today").iocs.phones).toEqual(["+919876543210"]);
    expect(extractIocs("DM @scam\u200b_desk now").iocs.handles).toEqual(["@scam_desk"]);
  });
  test("full-width and look-alike spellings are recorded as written", () => {
    expect(extractIocs("Telegram: ｔ．ｍｅ／ｆｕｌｌｗｉｄｔｈ＿ｃｈａｎ for rates").iocs.channels).toEqual(["ｔ．ｍｅ／ｆｕｌｌｗｉｄｔｈ＿ｃｈａｎ"]);
    expect(extractIocs("DM @\u0455cam_desk_01 now").iocs.handles).toEqual(["@\u0455cam_desk_01"]);
  });
});
