// JPEG metadata for the attachment tests (issue 38), built here rather than taken from a camera file:
// an APP1 Exif segment carrying an Orientation tag and a GPS position (and, R12.14, what else a phone
// camera writes: make, model, pixel size and an IFD1 JPEG thumbnail), spliced into any JPEG's bytes,
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

/**
 * What a phone camera writes (R12.14): Make and Model, the Orientation, the Exif IFD with the photo's
 * stored pixel size (PixelXDimension/PixelYDimension, 0xA002/0xA003), optionally a GPS position, and
 * IFD1 with a JPEG thumbnail (Compression 6, JPEGInterchangeFormat 0x0201 and its length 0x0202).
 */
export interface CameraFixture {
  orientation: number;
  /** The stored (sensor) size of the main image. */
  width?: number;
  height?: number;
  latitude?: [number, number, number];
  longitude?: [number, number, number];
  /** A small JPEG for IFD1. */
  thumbnail?: Uint8Array;
}

/** One IFD entry: its value bytes (little endian), inline when ≤ 4 bytes, else in the data after the IFD. */
interface Entry {
  tag: number;
  type: number;
  count: number;
  bytes: Uint8Array;
}
const le = (size: 2 | 4, ...values: number[]) => {
  const v = new DataView(new ArrayBuffer(size * values.length));
  values.forEach((n, i) => (size === 2 ? v.setUint16(i * 2, n, true) : v.setUint32(i * 4, n, true)));
  return new Uint8Array(v.buffer);
};
const short = (tag: number, n: number): Entry => ({ tag, type: 3, count: 1, bytes: le(2, n) });
const long = (tag: number, n: number): Entry => ({ tag, type: 4, count: 1, bytes: le(4, n) });
const ascii = (tag: number, text: string): Entry => ({ tag, type: 2, count: text.length + 1, bytes: new Uint8Array([...Buffer.from(text, 'latin1'), 0]) });
const rationals = (tag: number, dms: number[]): Entry => ({ tag, type: 5, count: dms.length, bytes: le(4, ...dms.flatMap((x) => [Math.round(x * 100), 100])) });
const extra = (e: Entry) => (e.bytes.length > 4 ? e.bytes.length + (e.bytes.length % 2) : 0);
const ifdSize = (entries: Entry[]) => 2 + entries.length * 12 + 4 + entries.reduce((n, e) => n + extra(e), 0);

/** Writes one IFD at `at` (its out-of-line values right after it), tags in ascending order. */
function writeIfd(out: DataView, at: number, entries: Entry[], next: number): void {
  const sorted = [...entries].sort((x, y) => x.tag - y.tag);
  let data = at + 2 + sorted.length * 12 + 4;
  out.setUint16(at, sorted.length, true);
  sorted.forEach((e, i) => {
    const o = at + 2 + i * 12;
    out.setUint16(o, e.tag, true);
    out.setUint16(o + 2, e.type, true);
    out.setUint32(o + 4, e.count, true);
    const target = e.bytes.length > 4 ? data : o + 8;
    if (e.bytes.length > 4) {
      out.setUint32(o + 8, data, true);
      data += extra(e);
    }
    e.bytes.forEach((b, k) => out.setUint8(target + k, b));
  });
  out.setUint32(at + 2 + sorted.length * 12, next, true);
}

/** The TIFF body of an Exif segment for `f`. Pointers are laid out in a first pass with zeros. */
function tiffBody(f: CameraFixture): Uint8Array {
  const gps = f.latitude && f.longitude ? [ascii(0x0001, 'N'), rationals(0x0002, f.latitude), ascii(0x0003, 'E'), rationals(0x0004, f.longitude)] : null;
  const exif = f.width && f.height ? [long(0xa002, f.width), long(0xa003, f.height)] : null;
  const ifd1 = (at: number) => (f.thumbnail ? [short(0x0103, 6), long(0x0201, at), long(0x0202, f.thumbnail.length)] : null);
  const ifd0 = (exifAt: number, gpsAt: number) => [
    ascii(0x010f, 'Poradna'),
    ascii(0x0110, 'Fixture Phone'),
    short(0x0112, f.orientation),
    ...(exif ? [long(0x8769, exifAt)] : []),
    ...(gps ? [long(0x8825, gpsAt)] : []),
  ];
  const at0 = 8;
  const atExif = at0 + ifdSize(ifd0(0, 0));
  const atGps = atExif + (exif ? ifdSize(exif) : 0);
  const at1 = atGps + (gps ? ifdSize(gps) : 0);
  const atThumb = at1 + (f.thumbnail ? ifdSize(ifd1(0)!) : 0);
  const out = new DataView(new ArrayBuffer(atThumb + (f.thumbnail?.length ?? 0)));
  out.setUint16(0, 0x4949, true); // "II"
  out.setUint16(2, 42, true);
  out.setUint32(4, at0, true);
  writeIfd(out, at0, ifd0(atExif, atGps), f.thumbnail ? at1 : 0);
  if (exif) writeIfd(out, atExif, exif, 0);
  if (gps) writeIfd(out, atGps, gps, 0);
  if (f.thumbnail) {
    writeIfd(out, at1, ifd1(atThumb)!, 0);
    f.thumbnail.forEach((b, k) => out.setUint8(atThumb + k, b));
  }
  return new Uint8Array(out.buffer);
}

/** `jpeg` with an APP1 Exif segment inserted right after SOI (a JFIF APP0 kept after it). */
export function withCameraExif(jpeg: Uint8Array, f: CameraFixture): Uint8Array<ArrayBuffer> {
  if (jpeg[0] !== 0xff || jpeg[1] !== SOI) throw new Error('not a JPEG');
  const body = tiffBody(f);
  const length = 2 + EXIF_ID.length + body.length;
  if (length > 0xffff) throw new Error('Exif segment over 64 kB: use a smaller thumbnail');
  const segment = new Uint8Array(2 + length);
  segment.set([0xff, APP1, length >> 8, length & 0xff, ...EXIF_ID]);
  segment.set(body, 4 + EXIF_ID.length);
  const out = new Uint8Array(jpeg.length + segment.length);
  out.set(jpeg.subarray(0, 2));
  out.set(segment, 2);
  out.set(jpeg.subarray(2), 2 + segment.length);
  return out;
}

/** `jpeg` with an APP1 Exif segment (orientation and GPS) inserted right after SOI. */
export function withGpsExif(jpeg: Uint8Array, f: GpsFixture): Uint8Array<ArrayBuffer> {
  return withCameraExif(jpeg, f);
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
