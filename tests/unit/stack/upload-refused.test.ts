// A raw upload refused as it arrives (supabase/local/storage/upload.ts): the temporary file is
// destroyed while its last write may still be in the file system's hands. That write's completion
// must not become an unhandled 'error' event: it ended the whole stack process under load (the 413
// journey's `fetch failed` in CI, session 52: ERR_STREAM_DESTROYED from node:internal/fs/streams).
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { receiveFile } from '../../../supabase/local/storage/upload.ts';

const dir = mkdtempSync(join(tmpdir(), 'poradna-upload-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/**
 * A chunked body: one chunk, a pause in which the temporary file opens, then the rest all at once.
 * Its chunks are smaller than the file stream's 16 KiB buffer, so each write is taken at once and the
 * chunk past the limit is read while the file still writes one before it.
 */
function bodyOf(chunks: number, size: number): Request {
  let sent = 0;
  const body = new ReadableStream<Uint8Array>({
    async pull(c) {
      if (sent === 1) await new Promise((r) => setTimeout(r, 20));
      for (; sent < chunks; ) {
        c.enqueue(new Uint8Array(size).fill(0x20));
        if (++sent === 1) return;
      }
      c.close();
    },
  });
  return new Request('http://stack.test/storage/v1/object/attachments/a.pdf', { method: 'POST', body, duplex: 'half', headers: { 'content-type': 'application/pdf' } } as RequestInit);
}

describe('a raw upload past the limit', () => {
  it('is refused with 413, its temporary file removed, and no error escapes from a write still in flight', async () => {
    const escaped: unknown[] = [];
    const onUncaught = (e: unknown) => escaped.push(e);
    process.on('uncaughtException', onUncaught);
    try {
      for (let round = 0; round < 40; round++) {
        const path = join(dir, `upload-${round}`);
        const refused = await receiveFile(bodyOf(40, 4 * 1024), path, 64 * 1024).then(
          () => null,
          (e: unknown) => e,
        );
        expect((refused as { status?: number } | null)?.status).toBe(413);
      }
      // The writes' completions come back from the thread pool after the refusals.
      await new Promise((r) => setTimeout(r, 200));
    } finally {
      process.off('uncaughtException', onUncaught);
    }
    expect(escaped.map(String)).toEqual([]);
    expect(readdirSync(dir)).toEqual([]);
  });
});
