// The body of a standard upload (POST/PUT /object/{bucket}/{path}) written to a temporary file, with
// the limits enforced while it arrives. storage-js sends a Blob or File as multipart/form-data (the
// file in the part named '', `cacheControl` beside it) and a Buffer or stream as the raw body with
// its Content-Type (supabase/storage src/storage/uploader.ts fileUploadFromRequest).
import { createWriteStream } from 'node:fs';
import { rm } from 'node:fs/promises';
import { once } from 'node:events';
import { finished } from 'node:stream/promises';
import { baseMime, SNIFF_BYTES } from './content.ts';
import { errors } from './errors.ts';

export interface ReceivedFile {
  path: string;
  size: number;
  mime: string;
  head: Uint8Array;
  cacheControl: string;
}

const limitText = (limit: number) => `the maximum allowed size (${limit} bytes)`;

// Read with a reader that is released, never cancelled, when the body is refused: cancelling a
// request's Web stream destroys its socket (Readable.toWeb's cancel destroys the IncomingMessage), and
// a client still sending then got a reset instead of the 413. Released, the rest is read and dropped
// after the answer within nginx's lingering bounds (gateway/lingering-close.ts).
async function writeStream(stream: ReadableStream<Uint8Array>, path: string, limit: number): Promise<{ size: number; head: Uint8Array }> {
  const out = createWriteStream(path);
  // Every 'error' of the file is heard: one unheard ends the whole stack process. A refusal destroys
  // the file while a write may still be in the file system's hands; that write then completes with
  // ERR_STREAM_DESTROYED, emitted as 'error' once the file has closed (WriteStream's _write and
  // _destroy in node:internal/fs/streams). Seen under load as a 413 lost to a dead stack (session 52;
  // tests/unit/stack/upload-refused.test.ts). The file's own failure (a full disk) is thrown here.
  let failed: Error | undefined;
  out.on('error', (e) => (failed ??= e));
  const reader = stream.getReader();
  let size = 0;
  const head: number[] = [];
  try {
    for (let next = await reader.read(); !next.done; next = await reader.read()) {
      if (failed) throw failed;
      const chunk = next.value;
      size += chunk.byteLength;
      if (size > limit) throw errors.tooLarge(limitText(limit));
      if (head.length < SNIFF_BYTES) head.push(...chunk.subarray(0, SNIFF_BYTES - head.length));
      if (!out.write(chunk)) await once(out, 'drain');
    }
    out.end();
    await finished(out); // also settles for an error already emitted, which once() would wait past
  } catch (err) {
    out.destroy();
    await rm(path, { force: true });
    throw err;
  } finally {
    reader.releaseLock();
  }
  return { size, head: Uint8Array.from(head) };
}

export async function receiveFile(req: Request, path: string, limit: number): Promise<ReceivedFile> {
  const declared = Number(req.headers.get('content-length') ?? NaN);
  if (Number.isFinite(declared) && declared > limit + 64 * 1024) throw errors.tooLarge(limitText(limit));
  const type = req.headers.get('content-type') ?? '';
  if (baseMime(type) === 'multipart/form-data') {
    // A form is parsed in memory: only with a declared length within the limit (browsers always send
    // one), so a chunked multipart body cannot grow without bound.
    if (!Number.isFinite(declared)) throw errors.missingContentLength();
    let form: FormData;
    try {
      form = await req.formData();
    } catch {
      throw errors.invalidRequest('The multipart body could not be read');
    }
    const file = [...form.values()].find((v): v is File => typeof v !== 'string');
    if (!file) throw errors.invalidRequest('No file was found in the multipart body');
    if (file.size > limit) throw errors.tooLarge(limitText(limit));
    const cc = form.get('cacheControl');
    const { size, head } = await writeStream(file.stream(), path, limit);
    return { path, size, head, mime: baseMime(file.type), cacheControl: cacheControlOf(typeof cc === 'string' ? cc : null) };
  }
  if (!req.body) throw errors.invalidRequest('No content provided');
  const { size, head } = await writeStream(req.body, path, limit);
  return { path, size, head, mime: baseMime(type), cacheControl: cacheControlOf(req.headers.get('cache-control')) };
}

/** Hosted turns a bare number of seconds into max-age (src/http/routes/tus/lifecycle.ts onCreate). */
export function cacheControlOf(value: string | null | undefined): string {
  if (!value) return 'max-age=3600';
  return /^\d+$/.test(value) ? `max-age=${value}` : value;
}
