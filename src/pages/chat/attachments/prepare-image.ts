// Prepares a picked image for sending (issue 38): decoded with createImageBitmap and
// imageOrientation 'from-image' (a phone photo stored sideways with an EXIF Orientation tag comes out
// upright), drawn at most 2,048 px on its long edge and re-encoded, plus a 320 px thumbnail.
// Re-encoding through a canvas writes only pixels: EXIF (GPS position, camera serial) and every other
// metadata segment of the original are gone (e2e/attachments.e2e.ts reads the output bytes for an
// APP1 Exif segment). OffscreenCanvas when the browser has it, else a detached <canvas>.
// It runs after the own bubble is shown: the engine calls it with the stored original (R12.13,
// sync/attachments/prepare.ts; handed to the engine by src/data/SyncProvider.tsx).
import type { ImagePreparer, PreparedImage } from '../../../../sync/attachments/prepare.ts';
import { fitWithin, IMAGE_QUALITY, MAX_IMAGE_EDGE_PX, outputTypeFor, renamedFor, THUMB_EDGE_PX, THUMB_QUALITY, type Size } from './image-size.ts';

/** The image cannot be decoded here (e.g. HEIC outside Safari): it is not sent with its metadata. */
export class ImageUnreadableError extends Error {
  constructor(cause: unknown) {
    super('image could not be decoded', { cause });
    this.name = 'ImageUnreadableError';
  }
}

async function encode(bitmap: ImageBitmap, size: Size, type: string, quality: number): Promise<Blob> {
  if (typeof OffscreenCanvas === 'function') {
    const canvas = new OffscreenCanvas(size.width, size.height);
    const ctx = canvas.getContext('2d');
    if (!ctx) throw new Error('no 2d context');
    draw(ctx, bitmap, size, type);
    return canvas.convertToBlob({ type, quality });
  }
  const canvas = document.createElement('canvas');
  canvas.width = size.width;
  canvas.height = size.height;
  const ctx = canvas.getContext('2d');
  if (!ctx) throw new Error('no 2d context');
  draw(ctx, bitmap, size, type);
  return new Promise((resolve, reject) => canvas.toBlob((b) => (b ? resolve(b) : reject(new Error('encode failed'))), type, quality));
}

function draw(ctx: OffscreenCanvasRenderingContext2D | CanvasRenderingContext2D, bitmap: ImageBitmap, size: Size, type: string): void {
  ctx.imageSmoothingQuality = 'high';
  // JPEG has no transparency: a transparent pixel would turn black, so it is laid on white.
  if (type === 'image/jpeg') {
    ctx.fillStyle = '#fff';
    ctx.fillRect(0, 0, size.width, size.height);
  }
  ctx.drawImage(bitmap, 0, 0, size.width, size.height);
}

/**
 * Background work: it starts once the page is idle (the own bubble, just stored, decodes and paints
 * first; bench row 14a), at the latest after `IDLE_WAIT_MS`.
 */
const IDLE_WAIT_MS = 1000;
function idle(): Promise<void> {
  return new Promise((resolve) => {
    if (typeof requestIdleCallback === 'function') requestIdleCallback(() => resolve(), { timeout: IDLE_WAIT_MS });
    else setTimeout(resolve, 0);
  });
}

export const prepareImage: ImagePreparer = async (file: Blob, name: string, mediaType: string): Promise<PreparedImage> => {
  await idle();
  let bitmap: ImageBitmap;
  try {
    bitmap = await createImageBitmap(file, { imageOrientation: 'from-image' });
  } catch (err) {
    throw new ImageUnreadableError(err);
  }
  try {
    const natural = { width: bitmap.width, height: bitmap.height };
    const size = fitWithin(natural, MAX_IMAGE_EDGE_PX);
    const type = outputTypeFor(mediaType);
    const blob = await encode(bitmap, size, type, IMAGE_QUALITY);
    const thumb = await encode(bitmap, fitWithin(natural, THUMB_EDGE_PX), 'image/jpeg', THUMB_QUALITY);
    return { blob, name: renamedFor(name, blob.type), type: blob.type, width: size.width, height: size.height, thumb };
  } finally {
    bitmap.close();
  }
};
