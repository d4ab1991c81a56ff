/**
 * Synthetic messages for the assess tests, written for them (no real person, account or wallet): one per script
 * family, each with every IOC kind, and the IOCs the bridge must extract from it.
 */
import type { IocKind } from "../../../published/pack/vocabulary.js";

export interface Sample {
  name: string;
  text: string;
  iocs: Record<IocKind, string[]>;
  scripts: string[];
}

const EVM = "0x4e2164d2646de021755eed38a67bc857145db863";
const TRON = "TmcD3cQqkpT9P5aXLUff69yRPBEn1ce2p3";
const BECH = "bc1qmcct0yrlydtasvye02py6lt5tc5jvd5f7g5ddv";
const ZW = "\u200b";
const ZWJ = "\u200d";

export const SAMPLES: readonly Sample[] = [
  {
    name: "latin",
    text: `Bank account on rent, 3% commission daily. DM @rent_desk_01 or call +91 98765 43210. Join t.me/rent_desk_chan, pay ${EVM}, mail ops@rentdesk.example, rates at https://rentdesk.example/rates`,
    iocs: {
      handles: ["@rent_desk_01"],
      phones: ["+91 98765 43210"],
      channels: ["t.me/rent_desk_chan"],
      wallets: [EVM],
      emails: ["ops@rentdesk.example"],
      urls: ["https://rentdesk.example/rates"],
    },
    scripts: ["latin"],
  },
  {
    name: "hinglish-devanagari",
    text: `बैंक खाता किराये पर चाहिए! Savings a/c chalega, 3% commission रोज़. संपर्क @khata_desk या कॉल 9123456780, चैनल https://t.me/khata_chan, USDT TRC20 ${TRON}, ईमेल khata@desk.example, साइट https://khata.example/upi`,
    iocs: {
      handles: ["@khata_desk"],
      phones: ["9123456780"],
      channels: ["https://t.me/khata_chan"],
      wallets: [TRON],
      emails: ["khata@desk.example"],
      urls: ["https://khata.example/upi"],
    },
    scripts: ["latin", "devanagari"],
  },
  {
    // Phone numbers written in Devanagari digits: searched as ASCII digits, recorded as written.
    name: "devanagari-digits",
    text: `खाता किराये पर, कमीशन ३% रोज़। संपर्क @khata_desk_two या कॉल +९१ ९१२३४ ५६७८१, दूसरा नंबर ९८७६५४३२१०, चैनल t.me/khata_chan_two, USDT ${TRON}, ईमेल khata2@desk.example, साइट https://khata2.example/upi`,
    iocs: {
      handles: ["@khata_desk_two"],
      phones: ["+९१ ९१२३४ ५६७८१", "९८७६५४३२१०"],
      channels: ["t.me/khata_chan_two"],
      wallets: [TRON],
      emails: ["khata2@desk.example"],
      urls: ["https://khata2.example/upi"],
    },
    scripts: ["latin", "devanagari"],
  },
  {
    name: "han-simplified",
    text: `专业地下钱庄 对敲 换汇，绕开外汇额度。联系@hk_duiqiao_desk，电话+86 138 0013 8000，频道t.me/duiqiao_chan，钱包${BECH}，邮箱 dq@desk.example，网站 https://duiqiao.example/rate`,
    iocs: {
      handles: ["@hk_duiqiao_desk"],
      phones: ["+86 138 0013 8000"],
      channels: ["t.me/duiqiao_chan"],
      wallets: [BECH],
      emails: ["dq@desk.example"],
      urls: ["https://duiqiao.example/rate"],
    },
    scripts: ["latin", "han"],
  },
  {
    name: "han-traditional",
    text: `地下錢莊 對敲 換匯，當天到賬。聯繫 @tw_duiqiao_desk 電話 +886 912 345 678，頻道 t.me/tw_duiqiao，錢包 ${EVM}，郵箱 tw@desk.example，網站 https://tw-desk.example/rate`,
    iocs: {
      handles: ["@tw_duiqiao_desk"],
      phones: ["+886 912 345 678"],
      channels: ["t.me/tw_duiqiao"],
      wallets: [EVM],
      emails: ["tw@desk.example"],
      urls: ["https://tw-desk.example/rate"],
    },
    scripts: ["latin", "han"],
  },
  {
    // Cyrillic look-alikes inside Latin-looking IOCs: ѕ с а е о р are Cyrillic here. They are found on the skeleton
    // view (read as Latin) and recorded as written (issue 31: a value is the message's own characters).
    name: "cyrillic-look-alikes",
    text: "Аренда счетов, комиссия 3%. Пишите @\u0455\u0441\u0430m_d\u0435sk, телефон +7 912 345-67-89, канал t.me/\u0455\u0441\u0430m_\u0441h\u0430n, кошелёк 0x4e2164d2646d\u0435021755eed38a67bc857145db863, почта \u043eps@d\u0435sk.example, сайт https://d\u0435sk.example/x",
    iocs: {
      handles: ["@\u0455\u0441\u0430m_d\u0435sk"],
      phones: ["+7 912 345-67-89"],
      channels: ["t.me/\u0455\u0441\u0430m_\u0441h\u0430n"],
      wallets: ["0x4e2164d2646d\u0435021755eed38a67bc857145db863"],
      emails: ["\u043eps@d\u0435sk.example"],
      urls: ["https://d\u0435sk.example/x"],
    },
    scripts: ["latin", "cyrillic"],
  },
  {
    name: "zero-width-evasion",
    text: `DM @scam${ZW}_desk now, call +91${ZW}98765${ZW}43210, join t.me/scam${ZWJ}_chan, pay ${EVM.slice(0, 20)}${ZW}${EVM.slice(20)}, mail ops${ZW}@desk.example, see https://desk${ZW}.example/x`,
    iocs: {
      handles: ["@scam_desk"],
      phones: ["+919876543210"],
      channels: ["t.me/scam_chan"],
      wallets: [EVM],
      emails: ["ops@desk.example"],
      urls: ["https://desk.example/x"],
    },
    scripts: ["latin"],
  },
];
