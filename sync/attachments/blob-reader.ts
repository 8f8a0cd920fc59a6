// tus-js-client's FileReader over a Blob, the same in browsers and Node (its Node build reads only
// Buffers and streams; a Blob from IndexedDB is neither). Each slice is read when tus asks for it, so
// at most one chunk (6 MB) is in memory. The slice carries `size`, which tus's Node HTTP stack sends
// as Content-Length (its BufferSource does the same).
import type { FileReader, FileSource, SliceResult } from 'tus-js-client';

export const blobReader: FileReader = {
  openFile(input: unknown): Promise<FileSource> {
    if (!(input instanceof Blob)) return Promise.reject(new Error('blobReader reads Blobs only'));
    const blob = input;
    return Promise.resolve({
      size: blob.size,
      async slice(start: number, end: number): Promise<SliceResult> {
        const stop = Math.min(end, blob.size);
        const value = new Uint8Array(await blob.slice(start, stop).arrayBuffer());
        return { value: Object.assign(value, { size: value.length }), done: stop >= blob.size };
      },
      close() {},
    });
  },
};
