/**
 * Strict RFC 4648 §4 base64 decoding of inline artifacts (capsule-v1 §8.4.1). Reproduces the reference's
 * messages for everything it rejects, and additionally rejects non-zero padding bits (D1) and padding after a
 * complete quantum (D2). No whitespace, no URL-safe alphabet.
 */

import { Buffer } from "node:buffer";

export class Base64Error extends Error {
  override readonly name = "Base64Error";
}

/** Alphabet value of each ASCII code, -1 for characters outside the standard alphabet. */
const VALUES = new Int8Array(128).fill(-1);
"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".split("").forEach((ch, i) => {
  VALUES[ch.charCodeAt(0)] = i;
});

const EQ = 0x3d;

const NOT_ALPHABET = /[^A-Za-z0-9+/]/;

/**
 * Fast path for the common, canonical form: only alphabet characters, then at most two `=` closing the last
 * quantum, and zero unused bits. Returns undefined for anything else, which the exact decoder below then
 * reports with its precise message.
 */
function decodeCanonical(s: string): Uint8Array | undefined {
  if (s.length % 4 !== 0) return undefined;
  const pads = s.endsWith("==") ? 2 : s.endsWith("=") ? 1 : 0;
  const data = pads ? s.slice(0, s.length - pads) : s;
  if (NOT_ALPHABET.test(data)) return undefined;
  if (pads > 0) {
    const last = VALUES[data.charCodeAt(data.length - 1)];
    if ((pads === 2 && (last & 0x0f) !== 0) || (pads === 1 && (last & 0x03) !== 0)) return undefined;
  }
  const buf = Buffer.from(s, "base64");
  return new Uint8Array(buf.buffer, buf.byteOffset, buf.length);
}

/** Decodes `s`; throws {@link Base64Error} whose message is the detail after `invalid base64: `. */
export function decodeBase64Strict(s: string): Uint8Array {
  return decodeCanonical(s) ?? decodeBase64Exact(s);
}

/** The character-by-character decoder behind {@link decodeBase64Strict}; exported so tests can compare both. */
export function decodeBase64Exact(s: string): Uint8Array {
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
