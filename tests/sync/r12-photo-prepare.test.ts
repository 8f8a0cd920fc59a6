// R12.13 (issue 38, bench row 14a): a picked photo is stored as picked and shown at once; the engine
// prepares it afterwards (the app's canvas work, here a double: canvas cannot run in Node) and only the
// prepared bytes ever reach the server. Through the real stack: TUS over a relay that counts the bytes
// reaching the server, send_message's attachment check, the object read back as the member.
import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { SyncEngine } from '../../sync/engine.ts';
import { attachmentBlob, attachmentJob, attachmentPreview, attachmentUploads, localAttachmentRef } from '../../sync/attachments/queries.ts';
import { TEXT_ATTACH_PREPARE_FAILED } from '../../sync/attachments/limits.ts';
import type { ImagePreparer, PreparedImage } from '../../sync/attachments/prepare.ts';
import { waitFor } from '../../sync/testing/index.ts';
import { PNG } from '../server/storage-helpers.ts';
import { attachmentHarness, type Link } from './helpers/attachment-harness.ts';
import { attachmentPass, attachmentWork } from '../../sync/background/uploads.ts';

const h12 = attachmentHarness();
const engineOptions = (link: Link, token: string, prepareImage: ImagePreparer | null) => h12.engineOptions(link, token, { prepareImage });
const setup = (tag: string) => h12.setup(tag, { seed: 13 });

/** A phone photo's bytes: a JPEG start, an EXIF segment with a GPS position, then pixels. */
const GPS = 'GPS 48.14816 N 17.10674 E';
const ORIGINAL = Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe1]), Buffer.from(`Exif\0\0${GPS}`), randomBytes(64 * 1024)]);
const original = () => new File([ORIGINAL], 'IMG_2041.jpg', { type: 'image/jpeg' });

/** What the app's preparation gives (prepare-image.ts): other bytes, no metadata, a thumbnail. */
const PREPARED: PreparedImage = { blob: new Blob([PNG], { type: 'image/png' }), name: 'IMG_2041.png', type: 'image/png', width: 1, height: 1, thumb: new Blob([PNG], { type: 'image/png' }) };

/** A preparer the test releases; `calls` counts the starts and holds what each was given. */
function gatedPreparer(result: () => Promise<PreparedImage>) {
  const calls: { bytes: Buffer; name: string; type: string }[] = [];
  let release!: () => void;
  const gate = new Promise<void>((r) => (release = r));
  const prepare: ImagePreparer = async (blob, name, type) => {
    calls.push({ bytes: Buffer.from(await blob.arrayBuffer()), name, type });
    await gate;
    return result();
  };
  return { prepare, calls, release };
}

async function serverMessages(correlationId: string) {
  const r = await h12.db().query<{ payload: { attachments: { path: string; thumb_url: string | null; file_size: number; width: number; name: string }[] } }>(
    'select payload from public.messages where client_correlation_id = $1',
    [correlationId],
  );
  return r.rows;
}

/** The stored object's bytes, read as the member through the storage API. */
async function download(path: string, token: string): Promise<Buffer> {
  const res = await fetch(`${h12.stack().url}/storage/v1/object/authenticated/attachments/${path}`, { headers: { authorization: `Bearer ${token}`, apikey: h12.stack().anonKey } });
  expect(res.status).toBe(200);
  return Buffer.from(await res.arrayBuffer());
}

const delivered = (e: SyncEngine, key: string) =>
  waitFor(async () => (await attachmentJob(e.db, key))?.state === 'sent' && (await e.db.messages.get(key))?.serverId, 'delivered', 60_000);

describe('R12.13 a photo shown at once, prepared before upload', () => {
  it('R12.13 the own bubble is stored at once from the picked original, before preparation; nothing is uploaded until prepared; only the prepared bytes reach the server and the original leaves the device', async () => {
    const { a, conv, device, link } = await setup('photo-order');
    const token = a.users[0]!.token;
    const p = gatedPreparer(async () => PREPARED);
    const engine = await device.start({ realtime: false, engine: engineOptions(link, token, p.prepare) });
    const h = await engine.commands.sendWithAttachments({ conversationId: conv, text: 'Z výletu', files: [{ blob: original(), name: 'IMG_2041.jpg', type: 'image/jpeg', prepare: true }] });

    // The bubble's message is there while preparation has not finished: state 'sending', its image the
    // stored original (the page shows it from the local blob, upright by its EXIF).
    await waitFor(async () => p.calls.length === 1, 'preparation started');
    const local = (await engine.db.messages.get(h.key))!;
    expect(local.state).toBe('sending');
    const [entry] = local.payload!['attachments'] as { id: string; data_url: string; thumb_url: string | null }[];
    expect(localAttachmentRef(entry!.data_url)).toEqual({ attachmentId: entry!.id, thumb: false });
    expect(Buffer.from(await (await attachmentBlob(engine.db, entry!.id))!.arrayBuffer())).toEqual(ORIGINAL);
    expect((await attachmentUploads(engine.db, h.key)).map((u) => u.state)).toEqual(['preparing']);
    expect(p.calls[0]!.bytes).toEqual(ORIGINAL);
    // Online, the uploader is idle while the photo is prepared: not one byte went to the server.
    expect(link.forwarded()).toBe(0);

    p.release();
    await delivered(engine, h.key);
    const rows = await serverMessages(h.correlationId);
    expect(rows).toHaveLength(1);
    const [stored] = rows[0]!.payload.attachments;
    expect(stored!.name).toBe('IMG_2041.png');
    expect(stored!.file_size).toBe(PNG.length);
    const bytes = await download(stored!.path, token);
    expect(bytes).toEqual(PNG);
    expect(bytes.includes(GPS)).toBe(false);
    // What went over the wire is the prepared file and thumbnail (and TUS headers), never the 64 kB original.
    expect(link.forwarded()).toBeLessThan(ORIGINAL.length);
    // The device keeps the prepared thumbnail only (R12.8): the original is gone.
    const left = await engine.db.attachmentBlobs.toArray();
    expect(left.map((b) => b.id)).toEqual([`${entry!.id}#thumb`]);
  });

  it('R12.13 the tab closed during preparation: the next engine prepares the stored original again and the message is sent once, prepared', async () => {
    const { a, conv, device, link } = await setup('photo-killed');
    const token = a.users[0]!.token;
    const never = gatedPreparer(() => new Promise<PreparedImage>(() => undefined));
    const engine = await device.start({ realtime: false, engine: engineOptions(link, token, never.prepare) });
    const h = await engine.commands.sendWithAttachments({ conversationId: conv, text: 'nestratiť', files: [{ blob: original(), name: 'IMG_2041.jpg', type: 'image/jpeg', prepare: true }] });
    await waitFor(async () => never.calls.length === 1, 'preparation started');
    never.release();
    await device.stop(true); // the tab is killed mid-preparation

    const again = gatedPreparer(async () => PREPARED);
    again.release();
    const next = await device.start({ realtime: false, engine: engineOptions(link, token, again.prepare) });
    await delivered(next, h.key);
    expect(again.calls.map((c) => c.bytes)).toEqual([ORIGINAL]);
    const rows = await serverMessages(h.correlationId);
    expect(rows).toHaveLength(1);
    expect(await download(rows[0]!.payload.attachments[0]!.path, token)).toEqual(PNG);
  });

  it('R12.13 a preparation that fails is told in Slovak on the bubble, uploads nothing and keeps the original and the caption; retry prepares it again and sends it', async () => {
    const { a, conv, device, link } = await setup('photo-failed');
    const token = a.users[0]!.token;
    let tries = 0;
    const prepare: ImagePreparer = async () => {
      if (++tries === 1) throw new Error('the decoder cannot read it');
      return PREPARED;
    };
    const engine = await device.start({ realtime: false, engine: engineOptions(link, token, prepare) });
    const h = await engine.commands.sendWithAttachments({ conversationId: conv, text: 'Popis fotky', files: [{ blob: original(), name: 'IMG_2041.jpg', type: 'image/jpeg', prepare: true }] });
    const [u] = await waitFor(async () => {
      const list = await attachmentUploads(engine.db, h.key);
      return list[0]?.state === 'failed' ? list : null;
    }, 'preparation failed');
    expect(u!.error).toBe(TEXT_ATTACH_PREPARE_FAILED);
    const m = (await engine.db.messages.get(h.key))!;
    expect(m.state).toBe('sending');
    expect(m.text).toBe('Popis fotky');
    expect(Buffer.from(await (await attachmentBlob(engine.db, u!.attachmentId))!.arrayBuffer())).toEqual(ORIGINAL);
    expect(link.forwarded()).toBe(0);
    expect(await serverMessages(h.correlationId)).toEqual([]);

    expect(await engine.commands.retryAttachments(h.key)).toBe(true);
    await delivered(engine, h.key);
    expect(tries).toBe(2);
    const rows = await serverMessages(h.correlationId);
    expect(rows).toHaveLength(1);
    expect(await download(rows[0]!.payload.attachments[0]!.path, token)).toEqual(PNG);
  });

  it('R12.13 R12.12 an engine without a preparer (the service worker) never uploads the original: the job waits for a page and does not hold the sync event', async () => {
    const { a, conv, device, link } = await setup('photo-worker');
    const token = a.users[0]!.token;
    const engine = await device.start({ realtime: false, engine: engineOptions(link, token, null) });
    const h = await engine.commands.sendWithAttachments({ conversationId: conv, text: 'bez prípravy', files: [{ blob: original(), name: 'IMG_2041.jpg', type: 'image/jpeg', prepare: true }] });
    // The worker's own pass over the same database (R12.12), as its sync event runs it.
    await attachmentPass(engine.db, { url: link.url, anonKey: h12.stack().anonKey, userId: a.users[0]!.id, accessToken: token, expiresAt: Math.floor(Date.now() / 1000) + 3600 }, { accountId: a.id });
    expect(await attachmentWork(engine.db)).toBe(0);
    expect((await attachmentUploads(engine.db, h.key)).map((u) => u.state)).toEqual(['preparing']);
    expect(link.forwarded()).toBe(0);
    expect(await serverMessages(h.correlationId)).toEqual([]);
  });

  it('R12.14 the photo\'s EXIF preview is stored with the message for the bubble, survives a tab killed mid-preparation, is never uploaded and goes when the photo is prepared', async () => {
    const { a, conv, device, link } = await setup('photo-preview');
    const token = a.users[0]!.token;
    const MARK = 'EXIF-THUMBNAIL-OF-THE-PHOTO';
    const PREVIEW = Buffer.concat([Buffer.from([0xff, 0xd8]), Buffer.from(MARK), randomBytes(2048)]);
    const never = gatedPreparer(() => new Promise<PreparedImage>(() => undefined));
    const engine = await device.start({ realtime: false, engine: engineOptions(link, token, never.prepare) });
    const h = await engine.commands.sendWithAttachments({
      conversationId: conv,
      text: 'náhľad',
      files: [{ blob: original(), name: 'IMG_2041.jpg', type: 'image/jpeg', prepare: true, preview: new Blob([PREVIEW], { type: 'image/jpeg' }), width: 3000, height: 4000 }],
    });
    await waitFor(async () => never.calls.length === 1, 'preparation started');
    const [entry] = (await engine.db.messages.get(h.key))!.payload!['attachments'] as { id: string; thumb_url: string; width: number; height: number }[];
    expect(localAttachmentRef(entry!.thumb_url)).toEqual({ attachmentId: entry!.id, thumb: false, preview: true });
    expect([entry!.width, entry!.height]).toEqual([3000, 4000]);
    // No upload row names the preview: nothing can upload it.
    expect((await attachmentUploads(engine.db, h.key)).map((u) => [u.uploadId, u.state])).toEqual([[entry!.id, 'preparing']]);
    never.release();
    await device.stop(true); // the tab is killed mid-preparation

    // Reopened: the bubble still has its preview at once, from the device's database.
    const again = gatedPreparer(async () => PREPARED);
    const next = await device.start({ realtime: false, engine: engineOptions(link, token, again.prepare) });
    expect(Buffer.from(await (await attachmentPreview(next.db, entry!.id))!.arrayBuffer())).toEqual(PREVIEW);
    again.release();
    await delivered(next, h.key);
    // Prepared: the preview went in the same transaction; the prepared thumbnail stays (R12.8).
    expect(await attachmentPreview(next.db, entry!.id)).toBeNull();
    expect((await next.db.attachmentBlobs.toArray()).map((b) => b.id)).toEqual([`${entry!.id}#thumb`]);
    // The server holds the prepared file and thumbnail only, and no byte of the preview.
    const objects = await h12.db().query<{ name: string }>("select name from storage.objects where bucket_id = 'attachments' and name like $1 order by name", [`%/${entry!.id}/%`]);
    expect(objects.rows.map((o) => o.name.split('/').at(-1))).toEqual(['IMG_2041.png', 'nahlad.png']);
    for (const o of objects.rows) {
      const bytes = await download(o.name, token);
      expect(bytes).toEqual(PNG);
      expect(bytes.includes(MARK)).toBe(false);
    }
  });
});
