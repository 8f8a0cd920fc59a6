#!/usr/bin/env node
// Draws the PWA icons (a white speech bubble on teal) as PNGs with no image library: run once when
// the logo changes (`node scripts/make-icons.mjs`); the output in public/icons/ is committed.
import { deflateSync } from 'node:zlib';
import { mkdirSync, writeFileSync } from 'node:fs';

const TEAL = [15, 118, 110];
const WHITE = [255, 255, 255];

function crc32(buf) {
  let c = ~0;
  for (const b of buf) {
    c ^= b;
    for (let k = 0; k < 8; k++) c = (c >>> 1) ^ (0xedb88320 & -(c & 1));
  }
  return ~c >>> 0;
}

function chunk(type, data) {
  const len = Buffer.alloc(4);
  len.writeUInt32BE(data.length);
  const td = Buffer.concat([Buffer.from(type), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(td));
  return Buffer.concat([len, td, crc]);
}

function png(size, pixel) {
  const rows = [];
  for (let y = 0; y < size; y++) {
    const row = Buffer.alloc(1 + size * 4);
    for (let x = 0; x < size; x++) row.set(pixel(x + 0.5, y + 0.5), 1 + x * 4);
    rows.push(row);
  }
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(size, 0);
  ihdr.writeUInt32BE(size, 4);
  ihdr.set([8, 6, 0, 0, 0], 8);
  return Buffer.concat([
    Buffer.from([137, 80, 78, 71, 13, 10, 26, 10]),
    chunk('IHDR', ihdr),
    chunk('IDAT', deflateSync(Buffer.concat(rows))),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

function inRoundedRect(x, y, x0, y0, x1, y1, r) {
  const cx = Math.min(Math.max(x, x0 + r), x1 - r);
  const cy = Math.min(Math.max(y, y0 + r), y1 - r);
  return (x - cx) ** 2 + (y - cy) ** 2 <= r * r && x >= x0 && x <= x1 && y >= y0 && y <= y1;
}

/** A speech bubble in the unit square scaled by `s` (fraction of the icon it spans) around the centre. */
function bubble(u, v, s) {
  const k = (t) => 0.5 + (t - 0.5) * s;
  const body = inRoundedRect(u, v, k(0.18), k(0.2), k(0.82), k(0.68), 0.12 * s);
  const tail = v >= k(0.62) && v <= k(0.84) && u >= k(0.28) && u <= k(0.46) && u - k(0.28) <= (k(0.84) - v) * 0.9;
  const dots = [0.35, 0.5, 0.65].some((d) => (u - k(d)) ** 2 + (v - k(0.44)) ** 2 <= (0.045 * s) ** 2);
  return (body || tail) && !dots;
}

function icon(size, maskable) {
  return png(size, (x, y) => {
    const u = x / size;
    const v = y / size;
    const inside = maskable ? true : inRoundedRect(u, v, 0, 0, 1, 1, 0.22);
    if (!inside) return [0, 0, 0, 0];
    return bubble(u, v, maskable ? 0.7 : 0.9) ? [...WHITE, 255] : [...TEAL, 255];
  });
}

mkdirSync('public/icons', { recursive: true });
writeFileSync('public/icons/icon-192.png', icon(192, false));
writeFileSync('public/icons/icon-512.png', icon(512, false));
writeFileSync('public/icons/maskable-512.png', icon(512, true));
writeFileSync('public/icons/apple-touch-icon.png', icon(180, true));
console.log('icons written to public/icons/');
