// R12 (issue 38): the attachment outbox on fake-indexeddb against the real local stack. Uploads go
// through unmodified tus-js-client to /storage/v1/upload/resumable over a TCP relay that counts the
// request bytes reaching the server (and can cut the link); the send goes through send_message,
// whose attachment check (migration 20261128100000) accepts only stored objects.
import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { SyncEngine } from '../../sync/engine.ts';
import { attachmentBlob, attachmentJob, attachmentThumb, attachmentUploads, localAttachmentRef } from '../../sync/attachments/queries.ts';
import { AttachmentRefusedError, TEXT_ATTACH_QUOTA, TEXT_ATTACH_TYPE, TUS_CHUNK_BYTES } from '../../sync/attachments/limits.ts';
import { waitFor } from '../../sync/testing/index.ts';
import { PDF, PNG } from '../server/storage-helpers.ts';
import { attachmentHarness } from './helpers/attachment-harness.ts';
import { backgroundFlush } from '../../sync/background/flush.ts';
import { dexieOptions } from '../../sync/db/open.ts';
import { dbNameFor, SyncDb } from '../../sync/db/schema.ts';

const h12 = attachmentHarness();
const setup = (tag: string, cutAfter = Infinity) => h12.setup(tag, { cutAfter });
const { engineOptions } = h12;

function zip(size: number): Blob {
  const b = randomBytes(size);
  b.set([0x50, 0x4b, 0x03, 0x04], 0);
  return new Blob([b], { type: 'application/zip' });
}

async function serverMessages(correlationId: string) {
  const r = await h12.db().query<{ id: string; payload: { attachments: { path: string; file_size: number }[] } }>(
    'select id, payload from public.messages where client_correlation_id = $1',
    [correlationId],
  );
  return r.rows;
}

async function objectSize(path: string): Promise<number | null> {
  const r = await h12.db().query<{ size: string }>(`select metadata->>'size' as size from storage.objects where bucket_id = 'attachments' and name = $1`, [path]);
  return r.rows[0] ? Number(r.rows[0].size) : null;
}

const delivered = (e: SyncEngine, key: string) =>
  waitFor(async () => (await attachmentJob(e.db, key))?.state === 'sent' && (await e.db.messages.get(key))?.serverId, 'delivered, blobs released', 60_000);

describe('R12 attachments', () => {
  it('R12.3 R12.4 R12.6 R12.8 queued offline: shown at once from the local blob, waiting for the network, delivered once online exactly once; full blobs released, thumbnail kept', async () => {
    const { a, conv, device, link } = await setup('att-offline');
    device.setOnline(false);
    const engine = await device.start({ realtime: false, engine: engineOptions(link, a.users[0]!.token) });
    const thumb = new Blob([PNG], { type: 'image/png' });
    const h = await engine.commands.sendWithAttachments({
      conversationId: conv,
      text: 'Logo a zmluva',
      files: [
        { blob: new Blob([PNG], { type: 'image/png' }), name: 'logo firmy.png', type: 'image/png', width: 1, height: 1, thumb },
        { blob: new Blob([PDF], { type: 'application/pdf' }), name: 'zmluva.pdf', type: 'application/pdf' },
      ],
    });
    // At once, before any network: the message and its blobs (R12.3).
    const local = (await engine.db.messages.get(h.key))!;
    expect(local.state).toBe('sending');
    const list = local.payload!['attachments'] as { id: string; data_url: string; thumb_url: string | null; name: string }[];
    expect(list.map((x) => x.name)).toEqual(['logo firmy.png', 'zmluva.pdf']);
    const ref = localAttachmentRef(list[0]!.data_url)!;
    expect(ref.attachmentId).toBe(list[0]!.id);
    expect(Buffer.from(await (await attachmentBlob(engine.db, ref.attachmentId))!.arrayBuffer())).toEqual(PNG);
    expect(localAttachmentRef(list[0]!.thumb_url!)).toEqual({ attachmentId: list[0]!.id, thumb: true });
    await waitFor(async () => (await attachmentUploads(engine.db, h.key)).every((u) => u.state === 'waiting-network'), 'waiting for the network');
    expect(link.forwarded()).toBe(0);
    expect(await engine.db.outbox.count()).toBe(0); // the send waits for the uploads (R12.6)

    device.setOnline(true);
    await delivered(engine, h.key);
    const rows = await serverMessages(h.correlationId);
    expect(rows).toHaveLength(1);
    const stored = rows[0]!.payload.attachments;
    expect(stored.map((x) => x.file_size)).toEqual([PNG.length, PDF.length]);
    for (const x of stored) expect(await objectSize(x.path)).toBe(x.file_size);
    // R12.8: the PDF's blob is gone, the image's thumbnail stays (and is what attachmentBlob gives now).
    expect(await attachmentBlob(engine.db, list[1]!.id)).toBeNull();
    expect(await attachmentThumb(engine.db, list[0]!.id)).not.toBeNull();
    expect(await engine.db.attachmentBlobs.count()).toBe(1);
    expect(await attachmentUploads(engine.db, h.key)).toEqual([]);
  });

  it('R12.5 R12.6 an engine killed mid-upload: the next engine resumes at the stored offset (bytes at the server ≤ file + one chunk, two after a 409 race) and the message is sent once', async () => {
    const size = 14 * 1024 * 1024;
    // The link drops every connection once 9 MB reached the server: inside the second chunk.
    const { a, conv, device, link } = await setup('att-kill', 9 * 1024 * 1024);
    const token = a.users[0]!.token;
    const engine = await device.start({ realtime: false, engine: engineOptions(link, token) });
    const h = await engine.commands.sendWithAttachments({ conversationId: conv, text: '', files: [{ blob: zip(size), name: 'podklady.zip', type: 'application/zip' }] });
    // The first chunk is stored and its offset persisted; the second is cut on the wire.
    await waitFor(async () => (await attachmentUploads(engine.db, h.key))[0]?.sent === TUS_CHUNK_BYTES && link.forwarded() >= 9 * 1024 * 1024, 'cut inside chunk 2', 60_000);
    await device.stop(true); // killed
    link.heal();
    const next = await device.start({ realtime: false, engine: engineOptions(link, token) });
    await delivered(next, h.key);
    const total = link.forwarded();
    // Request headers (creation, HEAD, PATCHes, the RPC is not through this link) are a few kB.
    // One more chunk when the cut PATCH still reached the server's lock after the next engine's HEAD
    // (@tus/server's PatchHandler awaits onIncomingRequest before acquireLock; supabase/storage's
    // src/http/routes/tus/lifecycle.ts onIncomingRequest checks the caller there too): the HEAD then answered the stored offset, the cut PATCH's bytes landed after it, and the
    // next PATCH was refused with 409 once its body had left (CI under load, 2026-11-29). Never more.
    const conflicts = link.answersAfterHeal().filter((s) => s === 409).length;
    expect(conflicts, link.describe()).toBeLessThanOrEqual(1);
    expect(total, link.describe()).toBeLessThanOrEqual(size + (1 + conflicts) * TUS_CHUNK_BYTES + 64 * 1024);
    // Resumed, never restarted: a start from 0 would send the whole file again after the cut.
    expect(total - 9 * 1024 * 1024, link.describe()).toBeLessThan(size - TUS_CHUNK_BYTES + conflicts * TUS_CHUNK_BYTES + 64 * 1024);
    const rows = await serverMessages(h.correlationId);
    expect(rows).toHaveLength(1);
    expect(await objectSize(rows[0]!.payload.attachments[0]!.path)).toBe(size);
  });

  it('R12.2 too little free space on the device: refused with a Slovak message, nothing stored', async () => {
    const { a, conv, device, link } = await setup('att-quota');
    const engine = await device.start({
      realtime: false,
      engine: engineOptions(link, a.users[0]!.token, { storageEstimate: async () => ({ quota: 50 * 1024 * 1024, usage: 46 * 1024 * 1024 }) }),
    });
    const before = await engine.db.messages.count();
    const err = await engine.commands
      .sendWithAttachments({ conversationId: conv, text: 'veľký', files: [{ blob: zip(2 * 1024 * 1024), name: 'a.zip', type: 'application/zip' }] })
      .then(() => null, (e: unknown) => e);
    expect(err).toBeInstanceOf(AttachmentRefusedError);
    expect((err as AttachmentRefusedError).reason).toBe('quota');
    expect((err as Error).message).toBe(TEXT_ATTACH_QUOTA);
    expect(await engine.db.messages.count()).toBe(before);
    expect(await engine.db.attachmentBlobs.count()).toBe(0);
    expect(await engine.db.attachmentJobs.count()).toBe(0);
    expect(await engine.db.outbox.count()).toBe(0);
  });

  it('R12.1 a file over 25 MB or of a type outside the allow-list is refused before anything is stored', async () => {
    const { a, conv, device, link } = await setup('att-limits');
    const engine = await device.start({ realtime: false, engine: engineOptions(link, a.users[0]!.token) });
    const big = engine.commands.sendWithAttachments({ conversationId: conv, text: '', files: [{ blob: new Blob([new Uint8Array(25 * 1024 * 1024 + 1)]), name: 'b.zip', type: 'application/zip' }] });
    await expect(big).rejects.toMatchObject({ reason: 'too-large' });
    const html = engine.commands.sendWithAttachments({ conversationId: conv, text: '', files: [{ blob: new Blob(['<html>']), name: 'x.html', type: 'text/html' }] });
    await expect(html).rejects.toMatchObject({ reason: 'type', message: TEXT_ATTACH_TYPE });
    expect(await engine.db.attachmentJobs.count()).toBe(0);
  });

  it('R12.7 cancel before the upload: the message and its blobs go, nothing reaches the server; a sent message cannot be cancelled', async () => {
    const { a, conv, device, link } = await setup('att-cancel');
    device.setOnline(false);
    const engine = await device.start({ realtime: false, engine: engineOptions(link, a.users[0]!.token) });
    const h = await engine.commands.sendWithAttachments({ conversationId: conv, text: 'zrušiť', files: [{ blob: new Blob([PDF]), name: 'z.pdf', type: 'application/pdf' }] });
    expect(await engine.commands.cancelAttachments(h.key)).toBe(true);
    expect(await engine.db.messages.get(h.key)).toBeUndefined();
    expect(await engine.db.attachmentBlobs.count()).toBe(0);
    device.setOnline(true);
    // A later send of the same conversation goes out: the cancelled one, queued before it, never went.
    const later = await engine.commands.sendWithAttachments({ conversationId: conv, text: 'toto áno', files: [{ blob: new Blob([PDF]), name: 'y.pdf', type: 'application/pdf' }] });
    await delivered(engine, later.key);
    expect(await serverMessages(h.correlationId)).toEqual([]);
    const objects = await h12.db().query(`select name from storage.objects where bucket_id = 'attachments' and name like $1`, [`${a.id}/${conv}/%`]);
    expect(objects.rows).toHaveLength(1);
    expect(await engine.commands.cancelAttachments(later.key)).toBe(false);
  });

  it('R12.7 an upload the server refuses (content is not its type) is failed with a Slovak text; the message is not sent', async () => {
    const { a, conv, device, link } = await setup('att-refused');
    const engine = await device.start({ realtime: false, engine: engineOptions(link, a.users[0]!.token) });
    const h = await engine.commands.sendWithAttachments({ conversationId: conv, text: '', files: [{ blob: new Blob(['<svg onload=alert(1)>']), name: 'obrazok.png', type: 'image/png' }] });
    const [u] = await waitFor(async () => {
      const list = await attachmentUploads(engine.db, h.key);
      return list[0]?.state === 'failed' ? list : null;
    }, 'refused', 30_000);
    expect(u!.error).toBe(TEXT_ATTACH_TYPE);
    expect(await engine.db.outbox.count()).toBe(0);
    expect(await serverMessages(h.correlationId)).toEqual([]);
    expect((await engine.db.messages.get(h.key))?.state).toBe('sending');
  });
  it('R12.9 cancel after a file was stored: the stored object and the unfinished upload are removed as the user once the link is back', async () => {
    // The link drops every connection once 3 MB reached the server: the PDF is stored, the zip's
    // first chunk is cut (its upload was created: the server holds a partial file).
    const { a, conv, device, link } = await setup('att-cancel-stored', 3 * 1024 * 1024);
    const engine = await device.start({ realtime: false, engine: engineOptions(link, a.users[0]!.token) });
    const h = await engine.commands.sendWithAttachments({
      conversationId: conv,
      text: 'nakoniec nie',
      files: [
        { blob: new Blob([PDF], { type: 'application/pdf' }), name: 'ponuka.pdf', type: 'application/pdf' },
        { blob: zip(10 * 1024 * 1024), name: 'podklady.zip', type: 'application/zip' },
      ],
    });
    const folder = `${a.id}/${conv}/%`;
    const stored = async () => (await h12.db().query<{ name: string }>(`select name from storage.objects where bucket_id = 'attachments' and name like $1`, [folder])).rows;
    const uploads = await waitFor(async () => {
      const list = await attachmentUploads(engine.db, h.key);
      const rows = await engine.db.attachmentUploads.where('messageKey').equals(h.key).toArray();
      return list.some((u) => u.name === 'ponuka.pdf' && u.state === 'uploaded') && rows.some((r) => r.fileName.endsWith('.zip') && r.uploadUrl) && link.forwarded() >= 3 * 1024 * 1024 ? rows : null;
    }, 'the PDF stored, the zip cut', 60_000);
    expect(await stored()).toHaveLength(1);
    const zipUrl = uploads.find((r) => r.fileName.endsWith('.zip'))!.uploadUrl!.replace(link.url, h12.stack().url);
    const head = () => fetch(zipUrl, { method: 'HEAD', headers: { authorization: `Bearer ${a.users[0]!.token}`, 'tus-resumable': '1.0.0' } }).then((r) => r.status);
    expect(await head()).toBe(200);

    // Cancelled while the link is still down: everything local goes at once, the removal waits.
    expect(await engine.commands.cancelAttachments(h.key)).toBe(true);
    expect(await engine.db.messages.get(h.key)).toBeUndefined();
    expect(await engine.db.attachmentBlobs.count()).toBe(0);
    expect((await engine.db.attachmentJobs.get(h.key))?.state).toBe('removing');
    expect(await stored()).toHaveLength(1);

    link.heal();
    device.setOnline(false);
    device.setOnline(true);
    await waitFor(async () => (await stored()).length === 0 && !(await engine.db.attachmentJobs.get(h.key)), 'objects removed, tombstone gone', 60_000);
    expect(await head()).toBe(404);
    expect(await serverMessages(h.correlationId)).toEqual([]);
  });
  it('R12.9 a send the server refused, given up: cancel removes the files it had stored', async () => {
    const { a, conv, device, link } = await setup('att-refused-giveup');
    const engine = await device.start({ realtime: false, engine: engineOptions(link, a.users[0]!.token) });
    // The RPC path fails (no answer) while uploads pass: the send waits, queued, after the last chunk.
    device.net.mode = 'offline';
    const h = await engine.commands.sendWithAttachments({
      conversationId: conv,
      text: 'odmietnutá',
      files: [
        { blob: new Blob([PDF], { type: 'application/pdf' }), name: 'prva.pdf', type: 'application/pdf' },
        { blob: new Blob([PDF], { type: 'application/pdf' }), name: 'druha.pdf', type: 'application/pdf' },
      ],
    });
    await waitFor(async () => (await attachmentJob(engine.db, h.key))?.state === 'sending', 'send queued', 60_000);
    const folder = `${a.id}/${conv}/%`;
    const stored = async () => (await h12.db().query<{ name: string }>(`select name from storage.objects where bucket_id = 'attachments' and name like $1 order by name`, [folder])).rows.map((r) => r.name);
    const [first, second] = await stored();
    // One object vanishes before the send arrives (the user deleted it elsewhere, through the Storage
    // API): the server refuses the message (R12.6).
    const del = await fetch(`${h12.stack().url}/storage/v1/object/attachments/${first}`, { method: 'DELETE', headers: { authorization: `Bearer ${a.users[0]!.token}` } });
    expect(del.status).toBe(200);
    device.setOnline(false);
    device.setOnline(true);
    await waitFor(async () => (await attachmentJob(engine.db, h.key))?.state === 'failed', 'send refused', 60_000);
    expect((await engine.db.messages.get(h.key))?.state).toBe('failed');
    expect(await stored()).toEqual([second]);

    expect(await engine.commands.cancelAttachments(h.key)).toBe(true);
    expect(await engine.db.messages.get(h.key)).toBeUndefined();
    await waitFor(async () => (await stored()).length === 0 && !(await engine.db.attachmentJobs.get(h.key)), 'the orphan removed', 60_000);
    expect(await serverMessages(h.correlationId)).toEqual([]);
  });
  it('R12.12 a file queued offline in a tab that then closed: the service worker\'s sync event uploads it over fetch and sends the message once; the next event finds nothing', async () => {
    const { a, conv, device, link } = await setup('att-bg');
    const user = a.users[0]!;
    device.setOnline(false);
    const engine = await device.start({ realtime: false, engine: engineOptions(link, user.token) });
    const h = await engine.commands.sendWithAttachments({
      conversationId: conv,
      text: 'Poslané na pozadí',
      files: [
        { blob: new Blob([PDF], { type: 'application/pdf' }), name: 'zmluva.pdf', type: 'application/pdf' },
        { blob: zip(7 * 1024 * 1024), name: 'podklady.zip', type: 'application/zip' },
      ],
    });
    await waitFor(async () => (await attachmentUploads(engine.db, h.key)).every((u) => u.state === 'waiting-network'), 'waiting for the network');
    await device.stop(true); // the tab is gone before the network comes back

    // The browser fires the sync event in the worker: no tab holds the leader's lock.
    const locks = { request: <T>(_name: string, _o: unknown, cb: (lock: unknown) => Promise<T>) => cb({}) };
    const session = async () => ({ url: link.url, anonKey: h12.stack().anonKey, userId: user.id, accessToken: user.token, expiresAt: Math.floor(Date.now() / 1000) + 600 });
    expect(await backgroundFlush(locks, { idb: device.idb, session, patienceMs: 0 })).toBe('flushed');
    const rows = await serverMessages(h.correlationId);
    expect(rows).toHaveLength(1);
    expect(rows[0]!.payload.attachments.map((x) => x.file_size)).toEqual([PDF.length, 7 * 1024 * 1024]);
    for (const x of rows[0]!.payload.attachments) expect(await objectSize(x.path)).toBe(x.file_size);
    // On the device: the job sent, its full blobs and upload rows released (R12.8), nothing queued.
    const local = new SyncDb(dbNameFor(user.id), dexieOptions(device.idb));
    try {
      expect((await local.attachmentJobs.get(h.key))?.state).toBe('sent');
      expect(await local.attachmentUploads.count()).toBe(0);
      expect(await local.attachmentBlobs.count()).toBe(0);
      expect(await local.outbox.count()).toBe(0);
    } finally {
      local.close();
    }
    expect(await backgroundFlush(locks, { idb: device.idb, session, patienceMs: 0 })).toBe('empty');
    expect(await serverMessages(h.correlationId)).toHaveLength(1);
  });
});
