// R12.14 (bench row 14a): a phone photo's own preview, read from the picked file without decoding it.
// Every camera JPEG carries a small JPEG thumbnail in its EXIF (IFD1, ~160 × 120, a few kB) and the
// photo's real size (ExifImageWidth/Height) and Orientation: read with exifr's lite build from the
// file's first chunk, in milliseconds, where decoding the 12 MP original for the bubble takes ~0.5 s
// on a phone. This module (and exifr) is loaded only when a photo is picked, never with the chat
// list's first paint (bench row 8a).
//
// The thumbnail is stored in the sensor's orientation like the photo, and carries no EXIF of its
// own: it gets a minimal APP1 Exif segment with the photo's Orientation and nothing else, so the
// browser turns it upright exactly as it turns the original (`image-orientation: from-image`). It is
// shown on this device only (the tray and the sending bubble) and never uploaded: the engine stores
// it without an upload row and drops it when the photo is prepared (sync/SPEC.md R12.14).
import exifr from 'exifr/dist/lite.esm.mjs';
import { readPhotoHead } from './photo-head.ts';

export interface PhotoPreview {
  /** The EXIF thumbnail as a JPEG, tagged with the photo's orientation only. */
  blob: Blob;
  /** The photo's size as shown (upright), from EXIF; null when EXIF does not say. */
  width: number | null;
  height: number | null;
}

/** Larger than any EXIF thumbnail can be (APP1 holds at most 64 kB). */
const MAX_THUMB_BYTES = 64 * 1024;

/** `jpeg` with an APP1 Exif segment holding only IFD0's Orientation (Exif 2.32 §4.5, little endian). */
export function withOrientation(jpeg: Uint8Array, orientation: number): Uint8Array<ArrayBuffer> {
  if (orientation < 2 || orientation > 8) return jpeg.slice();
  const tiff = new DataView(new ArrayBuffer(26));
  tiff.setUint16(0, 0x4949, true); // "II"
  tiff.setUint16(2, 42, true);
  tiff.setUint32(4, 8, true); // IFD0 at 8
  tiff.setUint16(8, 1, true); // one entry:
  tiff.setUint16(10, 0x0112, true); // Orientation
  tiff.setUint16(12, 3, true); // SHORT
  tiff.setUint32(14, 1, true); // count 1
  tiff.setUint16(18, orientation, true);
  tiff.setUint32(22, 0, true); // no next IFD
  const header = [0x45, 0x78, 0x69, 0x66, 0, 0]; // "Exif\0\0"
  const length = 2 + header.length + tiff.byteLength;
  const out = new Uint8Array(jpeg.length + 2 + length);
  out.set([jpeg[0]!, jpeg[1]!, 0xff, 0xe1, length >> 8, length & 0xff, ...header]);
  out.set(new Uint8Array(tiff.buffer), 4 + 2 + header.length);
  out.set(jpeg.subarray(2), 2 + 2 + length);
  return out;
}

const dimension = (v: unknown): number | null => (typeof v === 'number' && Number.isInteger(v) && v > 0 && v <= 100_000 ? v : null);

/**
 * The picked JPEG's preview, or null: not a JPEG, no EXIF thumbnail (a screenshot, a photo whose
 * metadata was stripped), or unreadable. Never throws: without a preview the photo goes as before.
 * `head`: the file's head already being read (photo-head.ts), when the caller started it.
 */
export async function exifPreview(file: Blob, headRead: Promise<Uint8Array> = readPhotoHead(file)): Promise<PhotoPreview | null> {
  try {
    // The Exif segment is the first after SOI (at most 64 kB, a JFIF APP0 may precede it): one read
    // of the head serves both look-ups, and exifr never touches the rest of the file.
    const head = await headRead;
    if (head[0] !== 0xff || head[1] !== 0xd8) return null;
    const [thumb, tags] = await Promise.all([
      exifr.thumbnail(head),
      exifr.parse(head, { ifd0: { pick: ['Orientation'] }, exif: { pick: ['ExifImageWidth', 'ExifImageHeight'] }, gps: false, translateValues: false }) as Promise<Record<string, unknown> | undefined>,
    ]);
    if (!thumb || thumb.length < 4 || thumb.length > MAX_THUMB_BYTES || thumb[0] !== 0xff || thumb[1] !== 0xd8) return null;
    const orientation = typeof tags?.['Orientation'] === 'number' ? tags['Orientation'] : 1;
    const w = dimension(tags?.['ExifImageWidth']);
    const h = dimension(tags?.['ExifImageHeight']);
    const turned = orientation >= 5 && orientation <= 8;
    const bytes = withOrientation(new Uint8Array(thumb), orientation);
    return { blob: new Blob([bytes], { type: 'image/jpeg' }), width: w && h ? (turned ? h : w) : null, height: w && h ? (turned ? w : h) : null };
  } catch {
    return null;
  }
}
