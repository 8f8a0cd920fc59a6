// Resumable uploads through unmodified tus-js-client (what Supabase's docs recommend) against
// /storage/v1/upload/resumable (issue 38): 6 MB chunks, cut mid-chunk and resumed from the server's
// offset, never from zero; authorisation on create and on every later request.
import { randomBytes } from 'node:crypto';
import { beforeAll, describe, expect, inject, it } from 'vitest';
import * as tus from 'tus-js-client';
import { member, attachmentPath, cuttingLink, storageUrl, type Member } from './storage-helpers.ts';

const stack = inject('stack');
const CHUNK = 6 * 1024 * 1024;
let alice: Member;
let bob: Member;

beforeAll(async () => {
  [alice, bob] = await Promise.all([member(stack, 'st-tus-a'), member(stack, 'st-tus-b')]);
});

function zipOf(size: number): Buffer {
  const b = randomBytes(size);
  b.set([0x50, 0x4b, 0x03, 0x04], 0);
  return b;
}

interface Run {
  upload: tus.Upload;
  done: Promise<void>;
}

function start(file: Buffer, token: string, path: string, opts: Partial<tus.UploadOptions> = {}): Run {
  let upload!: tus.Upload;
  const done = new Promise<void>((resolve, reject) => {
    upload = new tus.Upload(file, {
      endpoint: storageUrl(stack, '/upload/resumable'),
      headers: { authorization: `Bearer ${token}`, apikey: stack.anonKey },
      uploadDataDuringCreation: true,
      removeFingerprintOnSuccess: true,
      metadata: { bucketName: 'attachments', objectName: path, contentType: 'application/zip', cacheControl: '3600' },
      chunkSize: CHUNK,
      retryDelays: [],
      onSuccess: () => resolve(),
      onError: reject,
      ...opts,
    });
  });
  upload.start();
  return { upload, done };
}

describe('TUS resumable uploads (tus-js-client)', () => {
  it('a 14 MB upload whose connection is cut inside its second chunk resumes from the stored offset: bytes sent < total + one chunk', async () => {
    const file = zipOf(14 * 1024 * 1024);
    const path = attachmentPath(alice, 'balik.zip');
    // The network between client and server: a TCP relay that drops the connection once 9 MB of
    // the request stream passed (1.5 chunks in), as a phone losing its link would.
    const link = await cuttingLink(new URL(stack.url), 9 * 1024 * 1024);
    try {
      const first = start(file, alice.token, path, { endpoint: `${link.url}/storage/v1/upload/resumable` });
      const err = await first.done.then(() => null, (e: unknown) => e);
      expect(err).not.toBeNull();
      const url = first.upload.url;
      expect(url).toBeTruthy();
      const firstSent = link.forwarded();
      link.heal();

      const head = await fetch(url!, { method: 'HEAD', headers: { 'tus-resumable': '1.0.0', authorization: `Bearer ${alice.token}` } });
      expect(head.status).toBe(200);
      const offset = Number(head.headers.get('upload-offset'));
      expect(offset).toBeGreaterThanOrEqual(CHUNK);
      expect(offset).toBeLessThan(file.length);

      const second = start(file, alice.token, path, { uploadUrl: url });
      await second.done;
      // Everything the client sent over the link, both attempts, headers included.
      const bytesSent = link.forwarded();
      expect(bytesSent).toBeLessThan(file.length + CHUNK);
      // Never from zero: the resumed part is what the server did not have.
      expect(link.forwarded() - firstSent).toBeLessThan(file.length - offset + 64 * 1024);
    } finally {
      await link.close();
    }

    const down = await alice.client.storage.from('attachments').download(path);
    expect(down.error).toBeNull();
    expect(Buffer.from(await down.data!.arrayBuffer()).equals(file)).toBe(true);
  });

  it('an existing path is 409 at creation; with x-upsert: true the upload replaces it', async () => {
    const path = attachmentPath(alice, 'znova.zip');
    await start(zipOf(1024), alice.token, path).done;
    const again = await start(zipOf(1024), alice.token, path).done.then(() => null, (e: unknown) => e);
    expect((again as tus.DetailedError)?.originalResponse?.getStatus()).toBe(409);
    const replacement = zipOf(2048);
    await start(replacement, alice.token, path, {
      headers: { authorization: `Bearer ${alice.token}`, apikey: stack.anonKey, 'x-upsert': 'true' },
    }).done;
    const down = await alice.client.storage.from('attachments').download(path);
    expect(Buffer.from(await down.data!.arrayBuffer()).equals(replacement)).toBe(true);
  });

  it("refuses to create an upload into another account's folder (403) and keeps nothing", async () => {
    const path = attachmentPath(alice, 'cudzie.zip');
    const run = start(zipOf(1024), bob.token, path);
    const err = (await run.done.then(() => null, (e: unknown) => e)) as tus.DetailedError;
    expect(err?.originalResponse?.getStatus()).toBe(403);
    const { data } = await alice.client.storage.from('attachments').exists(path);
    expect(data).toBe(false);
  });

  it("refuses another member's PATCH and HEAD on an upload URL they learnt (403)", async () => {
    const file = zipOf(CHUNK + 1024);
    const path = attachmentPath(alice, 'url.zip');
    let cut!: () => void;
    const wasCut = new Promise<void>((r) => (cut = r));
    const first = start(file, alice.token, path, { onChunkComplete: () => cut() });
    await Promise.race([wasCut, first.done]);
    await first.upload.abort();
    const url = first.upload.url!;
    const head = await fetch(url, { method: 'HEAD', headers: { 'tus-resumable': '1.0.0', authorization: `Bearer ${bob.token}` } });
    expect(head.status).toBe(403);
    const offset = Number(
      (await fetch(url, { method: 'HEAD', headers: { 'tus-resumable': '1.0.0', authorization: `Bearer ${alice.token}` } })).headers.get('upload-offset'),
    );
    const patch = await fetch(url, {
      method: 'PATCH',
      headers: {
        'tus-resumable': '1.0.0',
        authorization: `Bearer ${bob.token}`,
        'upload-offset': String(offset),
        'content-type': 'application/offset+octet-stream',
      },
      body: new Uint8Array(file.subarray(offset)),
    });
    expect(patch.status).toBe(403);
    expect((await alice.client.storage.from('attachments').exists(path)).data).toBe(false);
  });

  it('refuses an upload longer than the bucket limit at creation (413), before any byte', async () => {
    const res = await fetch(storageUrl(stack, '/upload/resumable'), {
      method: 'POST',
      headers: {
        'tus-resumable': '1.0.0',
        authorization: `Bearer ${alice.token}`,
        'upload-length': String(25 * 1024 * 1024 + 1),
        'upload-metadata': `bucketName ${Buffer.from('attachments').toString('base64')},objectName ${Buffer.from(attachmentPath(alice, 'velke.zip')).toString('base64')},contentType ${Buffer.from('application/zip').toString('base64')}`,
      },
    });
    expect(res.status).toBe(413);
  });

  it('refuses HTML sent as image/png when the last chunk arrives (415), and stores nothing', async () => {
    const path = attachmentPath(alice, 'fotka.png');
    const html = Buffer.from('<!DOCTYPE html><script>alert(1)</script>');
    const run = start(html, alice.token, path, {
      metadata: { bucketName: 'attachments', objectName: path, contentType: 'image/png' },
    });
    const err = (await run.done.then(() => null, (e: unknown) => e)) as tus.DetailedError;
    expect(err?.originalResponse?.getStatus()).toBe(415);
    expect((await alice.client.storage.from('attachments').exists(path)).data).toBe(false);
  });
});
