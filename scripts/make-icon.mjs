// Draws the bundle's icon, mcpb/icon.png (256×256 RGBA): a sealed capsule, its private half light and its outward
// half amber, on a dark rounded square. Our own drawing, made by this script (no copied art); test/package/
// mcpb.test.ts re-runs it and compares the bytes. `node scripts/make-icon.mjs [OUT]` (default mcpb/icon.png).
import { writeFileSync } from "node:fs";
import { deflateSync } from "node:zlib";

const SIZE = 256;
const SAMPLES = 4; // 4×4 supersampling per pixel for smooth edges

/** Signed distance to a rounded rectangle centred at (cx, cy) with half sizes (hw, hh) and corner radius r. */
function roundedRect(x, y, cx, cy, hw, hh, r) {
  const qx = Math.abs(x - cx) - (hw - r);
  const qy = Math.abs(y - cy) - (hh - r);
  return Math.hypot(Math.max(qx, 0), Math.max(qy, 0)) + Math.min(Math.max(qx, qy), 0) - r;
}

/** The colour at a point (RGBA 0..255), painter's order: background, capsule halves, seam, highlight. */
function colourAt(x, y) {
  if (roundedRect(x, y, 128, 128, 120, 120, 44) > 0) return [0, 0, 0, 0];
  let c = [24, 48, 72, 255]; // dark blue-grey ground
  // The capsule, tilted 35 degrees: coordinates in its own frame.
  const a = (-35 * Math.PI) / 180;
  const u = (x - 128) * Math.cos(a) - (y - 128) * Math.sin(a);
  const v = (x - 128) * Math.sin(a) + (y - 128) * Math.cos(a);
  const body = roundedRect(u, v, 0, 0, 92, 40, 40);
  if (body <= 0) c = u < 0 ? [236, 240, 244, 255] : [242, 169, 0, 255];
  if (body <= 0 && Math.abs(u) < 3) c = [24, 48, 72, 255]; // the seal between the halves
  if (roundedRect(u, v, -38, -18, 30, 6, 6) <= 0) c = [255, 255, 255, 255]; // highlight on the private half
  return c;
}

function pixels() {
  const rows = [];
  for (let py = 0; py < SIZE; py++) {
    const row = Buffer.alloc(1 + SIZE * 4); // filter byte 0, then RGBA
    for (let px = 0; px < SIZE; px++) {
      const sum = [0, 0, 0, 0];
      for (let sy = 0; sy < SAMPLES; sy++) {
        for (let sx = 0; sx < SAMPLES; sx++) {
          const c = colourAt(px + (sx + 0.5) / SAMPLES, py + (sy + 0.5) / SAMPLES);
          for (let i = 0; i < 3; i++) sum[i] += c[i] * c[3];
          sum[3] += c[3];
        }
      }
      const n = SAMPLES * SAMPLES;
      const alpha = sum[3] / n;
      for (let i = 0; i < 3; i++) row[1 + px * 4 + i] = alpha === 0 ? 0 : Math.round(sum[i] / sum[3]);
      row[1 + px * 4 + 3] = Math.round(alpha);
    }
    rows.push(row);
  }
  return Buffer.concat(rows);
}

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});
function crc32(buf) {
  let c = 0xffffffff;
  for (const b of buf) c = CRC_TABLE[(c ^ b) & 0xff] ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}
function chunk(type, data) {
  const len = Buffer.alloc(4);
  len.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, "ascii"), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([len, body, crc]);
}

export function iconPng() {
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(SIZE, 0);
  ihdr.writeUInt32BE(SIZE, 4);
  ihdr.set([8, 6, 0, 0, 0], 8); // 8 bits, RGBA, deflate, no filter method extras, no interlace
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk("IHDR", ihdr),
    chunk("IDAT", deflateSync(pixels(), { level: 9 })),
    chunk("IEND", Buffer.alloc(0)),
  ]);
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const out = process.argv[2] ?? "mcpb/icon.png";
  writeFileSync(out, iconPng());
  process.stdout.write(`${out}\n`);
}
