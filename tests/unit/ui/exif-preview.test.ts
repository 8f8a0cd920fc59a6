// R12.14 (bench row 14a): a phone photo's preview is its EXIF thumbnail, read without decoding the
// photo: the IFD1 JPEG as the camera stored it, tagged with the photo's Orientation and nothing else
// (no GPS, no make or model), and the photo's upright size. A PNG screenshot or a JPEG without an
// EXIF thumbnail has none (it goes as before).
import exifr from 'exifr/dist/lite.esm.mjs';
import { describe, expect, it } from 'vitest';
import { exifPreview, withOrientation } from '../../../src/pages/chat/attachments/exif-preview.ts';
import { cameraPhoto, twoColourJpegBytes } from '../../helpers/camera-photo.ts';
import { hasExif, withGpsExif } from '../../helpers/jpeg-exif.ts';
import { PNG } from '../../server/storage-helpers.ts';

const bytesOf = async (b: Blob) => new Uint8Array(await b.arrayBuffer());

describe('R12.14 the EXIF preview of a picked photo', () => {
  it('R12.14 a camera JPEG gives its IFD1 thumbnail, tagged with the Orientation only, and its upright size', async () => {
    const photo = cameraPhoto({ width: 200, height: 150, orientation: 6 });
    expect((await exifr.gps(photo.bytes))?.latitude, 'the fixture carries a GPS position').toBeCloseTo(48.1486, 3);
    const preview = (await exifPreview(new Blob([photo.bytes], { type: 'image/jpeg' })))!;
    expect(preview).not.toBeNull();
    // Orientation 6: stored 200 × 150, shown 150 × 200.
    expect([preview.width, preview.height]).toEqual([150, 200]);
    const bytes = await bytesOf(preview.blob);
    expect(preview.blob.type).toBe('image/jpeg');
    expect(await exifr.thumbnail(bytes), 'the preview has no thumbnail of its own').toBeUndefined();
    // Exactly the camera's thumbnail after our one segment: its pixels are not re-encoded.
    expect(bytes.subarray(bytes.length - photo.thumbnail.length + 2)).toEqual(photo.thumbnail.subarray(2));
    expect(await exifr.parse(bytes, { translateValues: false, gps: true })).toEqual({ Orientation: 6 });
  });

  it('R12.14 an upright photo (Orientation 1) gives the thumbnail exactly as stored', async () => {
    const photo = cameraPhoto({ width: 200, height: 150, orientation: 1, gps: false });
    const preview = (await exifPreview(new Blob([photo.bytes])))!;
    expect(await bytesOf(preview.blob)).toEqual(photo.thumbnail);
    expect([preview.width, preview.height]).toEqual([200, 150]);
    expect(hasExif(await bytesOf(preview.blob))).toBe(false);
  });

  it('R12.14 a PNG screenshot, a JPEG without EXIF, and one whose EXIF has no thumbnail have no preview', async () => {
    expect(await exifPreview(new Blob([PNG], { type: 'image/png' }))).toBeNull();
    const bare = twoColourJpegBytes(40, 30);
    expect(await exifPreview(new Blob([bare]))).toBeNull();
    const noThumb = withGpsExif(bare, { orientation: 6, latitude: [48, 8, 54.96], longitude: [17, 6, 27.72] });
    expect(await exifPreview(new Blob([noThumb]))).toBeNull();
    expect(await exifPreview(new Blob([new Uint8Array([0xff, 0xd8, 0xff, 0xe1, 0, 8, 1, 2])]))).toBeNull();
  });

  it('withOrientation adds one APP1 segment after SOI and keeps the rest as it was', async () => {
    const bare = twoColourJpegBytes(16, 12);
    const tagged = withOrientation(bare, 8);
    expect(tagged.subarray(0, 4)).toEqual(new Uint8Array([0xff, 0xd8, 0xff, 0xe1]));
    expect(tagged.subarray(tagged.length - bare.length + 2)).toEqual(bare.subarray(2));
    expect(await exifr.orientation(tagged)).toBe(8);
    expect(withOrientation(bare, 1)).toEqual(bare);
  });
});
