// R12.14 (bench row 14a): the part of a picked JPEG the EXIF look-up reads. Kept out of
// exif-preview.ts (a lazy chunk with exifr) so the tray can start this read in the pick's own task,
// beside the reader's import instead of after it.

/** Where the Exif segment ends at the latest: SOI, an APP0 or two, then APP1's 64 kB. */
export const HEAD_BYTES = 128 * 1024;

/** The file's first HEAD_BYTES (all of it when smaller). Async: a failure is a rejection, never a throw. */
export async function readPhotoHead(file: Blob): Promise<Uint8Array> {
  return new Uint8Array(await file.slice(0, HEAD_BYTES).arrayBuffer());
}
