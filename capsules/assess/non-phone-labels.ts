/**
 * Labels that say a number is not a phone number (phones.ts): the word right before the number names an order, a
 * parcel, a waybill or tracking number, an invoice, a ticket or case, a bank account or card, a QQ number, a
 * transaction reference or a tax, company or identity number. No library knows these words; they are the usual ones
 * in the languages `assess` is measured on (English and Hinglish, Hindi, Chinese, Russian, Thai, Vietnamese,
 * Indonesian, Arabic), and only labels: a number after `call`, `WhatsApp`, `тел.` or nothing at all is read as usual.
 * Words that also label phone numbers or occur before them in prose are left out (`code`: a referral code is often
 * the phone number; `case`: "in case 98765 43210 is busy"; Latin `inn`: hotel names).
 *
 * Between the label and the number only separators (`: # № . - ( )`, full-width ones too) and the words for
 * "number", "no." and "is" may stand (`order no. 123…`, `QQ号：123…`, `Номер заказа 123…`, `我的QQ是123…`).
 */

const LABELS = [
  // English (and Hinglish)
  "order", "orders", "ticket", "invoice", "inv", "ref", "reference", "tracking", "track", "waybill", "awb",
  "airway bill", "consignment", "shipment", "parcel", "dhl", "fedex", "ups", "ems", "usps", "qq", "utr",
  "txn", "txid", "transaction", "pnr", "account", "a/c", "acc", "acct", "iban", "ifsc", "aadhaar", "aadhar", "pan",
  "imei", "serial", "s/n", "sku", "complaint", "gstin", "cin", "npwp", "nik", "resi", "otp", "pin", "kode", "mã",
  // Hindi
  "ऑर्डर", "आर्डर", "वेबिल", "ट्रैकिंग", "शिकायत", "संदर्भ", "पीएनआर", "खाता", "बिल", "चालान", "आधार",
  // Chinese (simplified and traditional)
  "订单", "訂單", "单号", "單號", "运单", "運單", "快递", "快遞", "物流", "扣扣", "企鹅", "企鵝", "群", "发票", "發票",
  "卡号", "卡號", "账号", "帳號", "账户", "帳戶", "银行卡", "銀行卡", "身份证", "身分證", "编号", "編號", "统一编号",
  "統一編號", "工号", "工號", "流水", "验证码", "驗證碼",
  // Russian
  "заказ", "заказа", "заказу", "трек", "отслеживания", "накладная", "накладной", "инн", "огрн", "огрнип", "кпп",
  "бик", "окпо", "снилс", "счёт", "счет", "счета", "р/с", "артикул", "договор", "договора", "паспорт", "посылки",
  "код",
  // Thai
  "คำสั่งซื้อ", "พัสดุ", "บัญชี", "ใบแจ้งหนี้", "ใบเสร็จ", "รหัส",
  // Vietnamese
  "đơn hàng", "đơn", "vận đơn", "tài khoản", "hóa đơn", "hoá đơn",
  // Indonesian
  "pesanan", "rekening", "faktur", "tagihan",
  // Arabic
  "الطلب", "الشحنة", "الحساب", "الفاتورة", "التتبع", "الهوية", "رمز",
];

/** Words that may stand between a label and its number: "number", "no.", "is", "ID". */
const CONNECTORS = [
  "no", "nr", "number", "num", "id", "is", "है", "नंबर", "संख्या", "是", "为", "為", "号码", "號碼", "号", "號", "码", "碼",
  "номер", "số", "mã", "nomor", "เลขที่", "หมายเลข", "رقم",
];

// The text searched is the message's `visible` view (NFKC per character): so are the words (Thai ำ is decomposed).
const nfkc = (words: readonly string[]): string[] => [...new Set(words.map((w) => w.normalize("NFKC")))];
const escape = (s: string): string => s.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&");
const alternation = (words: readonly string[]): string => [...words].sort((a, b) => b.length - a.length).map(escape).join("|");
/** Words of scripts that write spaces between words are bounded by letters of those scripts. */
const WORDY = /^[\p{Script=Latin}\p{Script=Cyrillic}]/u;
const EDGE_BEFORE = "(?<![\\p{Script=Latin}\\p{Script=Cyrillic}])";
const EDGE_AFTER = "(?![\\p{Script=Latin}\\p{Script=Cyrillic}])";
const connectors = nfkc(CONNECTORS);
const wordConnectors = connectors.filter((w) => WORDY.test(w));
const otherConnectors = connectors.filter((w) => !WORDY.test(w));

/**
 * Matches the text before a number (up to the number) when it ends with a non-phone label: the label, bounded on
 * the left by anything but a Latin or Cyrillic letter, then only separators and connector words.
 */
export const NON_PHONE_LABEL = new RegExp(
  `${EDGE_BEFORE}(?:${alternation(nfkc(LABELS))})` +
    `(?:[\\s:#№.\\-()（）：＃]|${EDGE_BEFORE}(?:${alternation(wordConnectors)})${EDGE_AFTER}|${alternation(otherConnectors)})*$`,
  "iu",
);
