// The EXIF fixture of the attachment journeys (tests/helpers/jpeg-exif.ts) is what it claims: a JPEG
// with an APP1 Exif segment holding a GPS IFD, which the segment walker finds, and which it does not
// find in the same JPEG without it. The journey's "no EXIF after re-encoding" rests on this.
import { describe, expect, it } from 'vitest';
import { hasExif, hasGpsPointer, jpegSegments, withGpsExif } from '../../helpers/jpeg-exif.ts';

/** A JPEG's header shape: SOI, APP0 JFIF, a DQT, SOS with two bytes of scan data, EOI. */
function bareJpeg(): Uint8Array {
  const jfif = [0x4a, 0x46, 0x49, 0x46, 0x00, 1, 1, 0, 0, 1, 0, 1, 0, 0];
  return new Uint8Array([0xff, 0xd8, 0xff, 0xe0, 0, 16, ...jfif, 0xff, 0xdb, 0, 4, 0, 1, 0xff, 0xda, 0, 2, 0x12, 0x34, 0xff, 0xd9]);
}

describe('JPEG EXIF fixture', () => {
  const fixture = { orientation: 6, latitude: [48, 8, 54.96], longitude: [17, 6, 27.72] } as const;

  it('a bare JPEG has no Exif segment', () => {
    const bare = bareJpeg();
    expect(jpegSegments(bare).map((s) => s.marker)).toEqual([0xe0, 0xdb]);
    expect(hasExif(bare)).toBe(false);
  });

  it('the fixture has an APP1 Exif segment with a GPS IFD, before the rest kept as it was', () => {
    const bare = bareJpeg();
    const tagged = withGpsExif(bare, { ...fixture, latitude: [...fixture.latitude], longitude: [...fixture.longitude] });
    expect(jpegSegments(tagged).map((s) => s.marker)).toEqual([0xe1, 0xe0, 0xdb]);
    expect(hasExif(tagged)).toBe(true);
    expect(hasGpsPointer(tagged)).toBe(true);
    expect(tagged.subarray(tagged.length - bare.length + 2)).toEqual(bare.subarray(2));
  });
});
