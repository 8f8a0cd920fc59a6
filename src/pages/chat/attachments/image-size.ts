// The sizes and encodings of a picked image once prepared (issue 38): the sent image's long edge is at
// most 2,048 px, its thumbnail's at most 320 px, never enlarged. Pure, so the unit group checks it;
// the canvas work is prepare-image.ts.

export const MAX_IMAGE_EDGE_PX = 2048;
export const THUMB_EDGE_PX = 320;
export const IMAGE_QUALITY = 0.85;
export const THUMB_QUALITY = 0.7;

export interface Size {
  width: number;
  height: number;
}

/** `size` scaled down (aspect kept, whole pixels, at least 1) so its long edge is at most `maxEdge`. */
export function fitWithin(size: Size, maxEdge: number): Size {
  const long = Math.max(size.width, size.height);
  if (long <= maxEdge) return { width: size.width, height: size.height };
  const scale = maxEdge / long;
  return { width: Math.max(1, Math.round(size.width * scale)), height: Math.max(1, Math.round(size.height * scale)) };
}

/**
 * What a re-encoded image becomes: a photo (JPEG, HEIC) stays JPEG, which every browser encodes;
 * formats that may hold transparency (PNG, WebP, AVIF) become WebP, so a logo keeps its transparent
 * background instead of turning black. A browser that cannot encode WebP hands back PNG (canvas
 * falls back to it), which the bucket also allows.
 */
export function outputTypeFor(mediaType: string): 'image/jpeg' | 'image/webp' {
  return mediaType === 'image/jpeg' || mediaType === 'image/heic' || mediaType === 'image/heif' ? 'image/jpeg' : 'image/webp';
}

/** The file name for the re-encoded bytes: the picked name with the new extension. */
export function renamedFor(name: string, type: string): string {
  const ext = type === 'image/jpeg' ? 'jpg' : type === 'image/webp' ? 'webp' : type === 'image/png' ? 'png' : null;
  if (!ext) return name;
  const base = name.replace(/\.[a-z0-9]{1,5}$/i, '');
  return `${base === '' ? 'obrazok' : base}.${ext}`;
}
