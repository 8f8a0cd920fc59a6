// A phone camera's JPEG for the R12.14 tests (issue 38): pixels encoded with jpeg-js (left half one
// colour, right half another, so orientation shows in two pixels), and the Exif segment a camera
// writes (tests/helpers/jpeg-exif.ts): Orientation, the stored pixel size, a GPS position and an IFD1
// thumbnail — a smaller JPEG of the same picture, as cameras make it.
import { encode } from 'jpeg-js';
import { withCameraExif } from './jpeg-exif.ts';

type Rgb = [number, number, number];

/** A `width` × `height` JPEG, its left half `left` and its right half `right`. */
export function twoColourJpegBytes(width: number, height: number, left: Rgb = [224, 0, 0], right: Rgb = [0, 0, 224]): Uint8Array<ArrayBuffer> {
  const data = Buffer.alloc(width * height * 4);
  for (let i = 0; i < width * height; i++) {
    const c = i % width < width / 2 ? left : right;
    data.set([...c, 255], i * 4);
  }
  return new Uint8Array(encode({ data, width, height }, 85).data);
}

export interface CameraPhoto {
  /** The whole file as the camera wrote it. */
  bytes: Uint8Array<ArrayBuffer>;
  /** The IFD1 thumbnail's JPEG bytes, as stored in the file. */
  thumbnail: Uint8Array<ArrayBuffer>;
}

/** A camera photo stored `width` × `height` (sensor orientation) with `orientation` and a 160 × 120 (or 120 × 160) thumbnail. */
export function cameraPhoto(opts: { width: number; height: number; orientation: number; gps?: boolean }): CameraPhoto {
  const landscape = opts.width >= opts.height;
  const thumbnail = twoColourJpegBytes(landscape ? 160 : 120, landscape ? 120 : 160);
  const bytes = withCameraExif(twoColourJpegBytes(opts.width, opts.height), {
    orientation: opts.orientation,
    width: opts.width,
    height: opts.height,
    thumbnail,
    ...(opts.gps === false ? {} : { latitude: [48, 8, 54.96] as [number, number, number], longitude: [17, 6, 27.72] as [number, number, number] }),
  });
  return { bytes, thumbnail };
}
