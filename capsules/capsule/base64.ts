/**
 * Strict RFC 4648 §4 base64 decoding of inline artifacts (capsule-v1 §8.4.1). Reproduces the reference's
 * messages for everything it rejects, and additionally rejects non-zero padding bits (D1) and padding after a
 * complete quantum (D2). No whitespace, no URL-safe alphabet.
 */

export class Base64Error extends Error {
  override readonly name = "Base64Error";
}

/** Alphabet value of each ASCII code, -1 for characters outside the standard alphabet. */
const VALUES = new Int8Array(128).fill(-1);
"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".split("").forEach((ch, i) => {
  VALUES[ch.charCodeAt(0)] = i;
});

const EQ = 0x3d;

/** Decodes `s`; throws {@link Base64Error} whose message is the detail after `invalid base64: `. */
export function decodeBase64Strict(s: string): Uint8Array {
  for (let i = 0; i < s.length; i++) {
    if (s.charCodeAt(i) > 0x7f) throw new Base64Error("string argument should contain only ASCII characters");
  }
  if (s.length === 0) return new Uint8Array(0);
  if (s.charCodeAt(0) === EQ) throw new Base64Error("Leading padding not allowed");
  const out = new Uint8Array(Math.floor((s.length * 3) / 4) + 3);
  let n = 0;
  let quad = 0;
  let pads = 0;
  let padStarted = false;
  let nData = 0;
  let acc = 0; // the current quantum's bits, 6 per data character
  let last = 0; // value of the last data character
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c === EQ) {
      padStarted = true;
      if (quad >= 2) {
        pads += 1;
        if (quad + pads >= 4) {
          if (i + 1 < s.length) throw new Base64Error("Excess data after padding");
          // D1: the unused low bits of the last data character must be zero.
          if ((quad === 2 && (last & 0x0f) !== 0) || (quad === 3 && (last & 0x03) !== 0)) {
            throw new Base64Error("Non-zero padding bits");
          }
          return out.subarray(0, n);
        }
      }
      continue;
    }
    const v = VALUES[c];
    if (v === undefined || v < 0) throw new Base64Error("Only base64 data is allowed");
    if (padStarted) throw new Base64Error("Discontinuous padding not allowed");
    pads = 0;
    nData += 1;
    last = v;
    acc = (acc << 6) | v;
    quad = (quad + 1) & 3;
    if (quad === 2) out[n++] = acc >> 4;
    else if (quad === 3) out[n++] = (acc >> 2) & 0xff;
    else if (quad === 0) {
      out[n++] = acc & 0xff;
      acc = 0;
    }
  }
  if (quad === 1) {
    throw new Base64Error(
      `Invalid base64-encoded string: number of data characters (${nData}) cannot be 1 more than a multiple of 4`,
    );
  }
  if (quad !== 0) throw new Base64Error("Incorrect padding");
  if (padStarted) throw new Base64Error("Excess padding after a complete quantum");
  return out.subarray(0, n);
}
