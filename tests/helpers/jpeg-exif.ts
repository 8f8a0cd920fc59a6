// JPEG metadata for the attachment tests (issue 38), built here rather than taken from a camera file:
// an APP1 Exif segment carrying an Orientation tag and a GPS position, spliced into any JPEG's bytes,
// and a segment walker that says whether a JPEG still holds one. Layout: JPEG (ITU T.81 B.1.1.2
// markers, 2-byte big-endian lengths), Exif 2.32 §4.5 (TIFF header, IFD0 with 0x0112 Orientation and
// 0x8825 GPS IFD pointer; GPS IFD tags 1–4 latitude/longitude with their references).

const SOI = 0xd8;
const SOS = 0xda;
const APP1 = 0xe1;
const EXIF_ID = [0x45, 0x78, 0x69, 0x66, 0x00, 0x00]; // "Exif\0\0"

export interface GpsFixture {
  /** EXIF orientation 1–8 (6: the stored pixels must be turned 90° clockwise to show upright). */
  orientation: number;
  latitude: [number, number, number];
  longitude: [number, number, number];
}

/** The TIFF body of an Exif segment: IFD0 (Orientation, GPS pointer), GPS IFD, rationals. Little endian. */
function tiffBody(f: GpsFixture): Uint8Array {
  const buf = new DataView(new ArrayBuffer(140));
  let o = 0;
  const u16 = (v: number) => (buf.setUint16(o, v, true), (o += 2));
  const u32 = (v: number) => (buf.setUint32(o, v, true), (o += 4));
  const entry = (tag: number, type: number, count: number, value: () => void) => {
    u16(tag);
    u16(type);
    u32(count);
    const end = o + 4;
    value();
    o = end;
  };
  u16(0x4949); // "II"
  u16(42);
  u32(8); // IFD0 at 8
  u16(2);
  entry(0x0112, 3, 1, () => u16(f.orientation));
  entry(0x8825, 4, 1, () => u32(38)); // GPS IFD right after IFD0 (8 + 2 + 24 + 4)
  u32(0);
  u16(4);
  entry(0x0001, 2, 2, () => u16(0x004e)); // "N\0"
  entry(0x0002, 5, 3, () => u32(92));
  entry(0x0003, 2, 2, () => u16(0x0045)); // "E\0"
  entry(0x0004, 5, 3, () => u32(116));
  u32(0);
  for (const v of [...f.latitude, ...f.longitude]) {
    u32(Math.round(v * 100));
    u32(100);
  }
  return new Uint8Array(buf.buffer);
}

/** `jpeg` with an APP1 Exif segment (orientation and GPS) inserted right after SOI. */
export function withGpsExif(jpeg: Uint8Array, f: GpsFixture): Uint8Array {
  if (jpeg[0] !== 0xff || jpeg[1] !== SOI) throw new Error('not a JPEG');
  const body = tiffBody(f);
  const length = 2 + EXIF_ID.length + body.length;
  const segment = new Uint8Array(2 + length);
  segment.set([0xff, APP1, length >> 8, length & 0xff, ...EXIF_ID]);
  segment.set(body, 4 + EXIF_ID.length);
  const out = new Uint8Array(jpeg.length + segment.length);
  out.set(jpeg.subarray(0, 2));
  out.set(segment, 2);
  out.set(jpeg.subarray(2), 2 + segment.length);
  return out;
}

export interface Segment {
  marker: number;
  /** The segment's payload (after its length field). */
  payload: Uint8Array;
}

/** The marker segments before the image data (up to SOS). Throws on bytes that are not a JPEG. */
export function jpegSegments(jpeg: Uint8Array): Segment[] {
  if (jpeg[0] !== 0xff || jpeg[1] !== SOI) throw new Error('not a JPEG');
  const out: Segment[] = [];
  let i = 2;
  while (i + 4 <= jpeg.length) {
    if (jpeg[i] !== 0xff) throw new Error(`no marker at ${i}`);
    const marker = jpeg[i + 1]!;
    if (marker === 0xff) {
      i += 1; // fill byte
      continue;
    }
    if (marker === SOS) break;
    const length = (jpeg[i + 2]! << 8) | jpeg[i + 3]!;
    out.push({ marker, payload: jpeg.subarray(i + 4, i + 2 + length) });
    i += 2 + length;
  }
  return out;
}

/** Whether the JPEG holds an APP1 Exif segment (where EXIF, GPS included, lives). */
export function hasExif(jpeg: Uint8Array): boolean {
  return jpegSegments(jpeg).some((s) => s.marker === APP1 && EXIF_ID.every((b, k) => s.payload[k] === b));
}

/** The GPS IFD pointer tag (0x8825) of the Exif segment, read back: the fixture really carries a position. */
export function hasGpsPointer(jpeg: Uint8Array): boolean {
  const exif = jpegSegments(jpeg).find((s) => s.marker === APP1 && EXIF_ID.every((b, k) => s.payload[k] === b));
  if (!exif) return false;
  const tiff = new DataView(exif.payload.buffer, exif.payload.byteOffset + EXIF_ID.length);
  const ifd0 = tiff.getUint32(4, true);
  const count = tiff.getUint16(ifd0, true);
  for (let k = 0; k < count; k++) if (tiff.getUint16(ifd0 + 2 + k * 12, true) === 0x8825) return true;
  return false;
}
