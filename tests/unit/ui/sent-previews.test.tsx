// @vitest-environment jsdom
// R12.16 (bench row 14a): the page names the attachment ids of the photos it sends and holds each
// photo's preview (R12.14) in memory, so the sending bubble's first render paints the preview before
// the device's database has answered its blob read (traced: ~130 ms on the mobile profile); the
// bubble's URL hook adopts that URL when its read answers the same bytes. The engine's side: a
// caller's id is used as given, and refused when it is not a UUID, repeated, or already stored.
// The database read is held by the test (the live query's stand-in answers when told), so nothing
// is timed.
import { Blob as NodeBlob } from 'node:buffer';
import { act, cleanup, render, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

vi.mock('../../../src/data/use-sync-query.ts', () => import('../../helpers/sync-query-reads.ts'));
import { sendWithAttachments } from '../../../sync/commands/send-with-attachments.ts';
import { MessageBubble } from '../../../src/pages/chat/MessageBubble.tsx';
import { SyncDbContext } from '../../../src/data/sync-context.ts';
import { withHeldPreviews } from '../../../src/pages/chat/attachments/sent-previews.ts';
import { commandContext, conversationRow, freshDb } from '../sync/helpers/local-db.ts';
import { openSyncReads, syncReads } from '../../helpers/sync-query-reads.ts';

afterEach(cleanup);
const made = new Map<string, Blob>();
const revoked = new Set<string>();
beforeEach(() => {
  syncReads.open = false;
  made.clear();
  revoked.clear();
  let n = 0;
  URL.createObjectURL = (b: Blob | MediaSource) => {
    const url = `blob:test/${++n}`;
    made.set(url, b as Blob);
    return url;
  };
  URL.revokeObjectURL = (url: string) => void revoked.add(url);
  // jsdom has no decode(); the bubble must not ask for one here anyway (R12.15).
  HTMLImageElement.prototype.decode = () => new Promise<void>(() => undefined);
});

/** fake-indexeddb clones with Node's structuredClone, which keeps Node's Blob. */
const nodeBlob = (bytes: number[], type: string) => new NodeBlob([new Uint8Array(bytes)], { type }) as unknown as Blob;
const photoFile = () => ({ blob: nodeBlob([0xff, 0xd8, 1, 2, 3, 4, 5, 6], 'image/jpeg'), name: 'IMG_0005.jpg', type: 'image/jpeg', prepare: true, preview: nodeBlob([0xff, 0xd8, 9], 'image/jpeg'), width: 3000, height: 4000 });

async function conversation() {
  const { db } = await freshDb();
  await db.conversations.put(conversationRow({ id: 'conv-1', accountId: 'acc-1' }));
  return db;
}

describe('R12.16 a sent photo’s preview is painted from memory', () => {
  it('R12.16 the bubble’s first render shows the preview the page held, before the database answered, and keeps that URL once it did', async () => {
    const db = await conversation();
    const file = photoFile();
    const { key } = await withHeldPreviews([file], (files) => sendWithAttachments(commandContext(db), { conversationId: 'conv-1', text: 'Z výletu', files }));
    const message = (await db.messages.get(key))!;
    const [entry] = message.payload!['attachments'] as { id: string; thumb_url: string }[];
    expect(entry!.thumb_url).toBe(`local-attachment:${entry!.id}#preview`);
    render(
      <SyncDbContext.Provider value={db}>
        <MessageBubble message={message} onRetry={() => {}} />
      </SyncDbContext.Provider>,
    );
    const img = screen.getByRole('button', { name: 'IMG_0005.jpg' }).querySelector('img')!;
    // No read has answered: the picture is the held preview (before R12.16: no picture yet).
    const held = img.getAttribute('src');
    expect(held).toMatch(/^blob:/);
    expect(made.get(held!)).toBe(file.preview);
    expect(img.dataset['preview']).toBe('exif');

    // The reads answer the same bytes: the same URL stays (no second decode), and is not revoked.
    await act(async () => openSyncReads());
    await vi.waitFor(() => expect([...made.values()].some((b) => b.size === file.blob.size)).toBe(true));
    await act(async () => undefined);
    expect(img.getAttribute('src')).toBe(held);
    expect(revoked.has(held!)).toBe(false);
  });

  it('R12.16 a refused send releases the previews it held', async () => {
    const refused = new Error('refused');
    await expect(withHeldPreviews([photoFile()], () => Promise.reject(refused))).rejects.toBe(refused);
    expect(made.size).toBe(1);
    expect(revoked.has([...made.keys()][0]!)).toBe(true);
  });

  it('R12.16 the engine stores a photo under the id its caller chose, and refuses one that is not a UUID, repeated, or already stored', async () => {
    const db = await conversation();
    const ctx = commandContext(db);
    const id = crypto.randomUUID();
    const { key } = await sendWithAttachments(ctx, { conversationId: 'conv-1', text: 'a', files: [{ ...photoFile(), id }] });
    const [entry] = (await db.messages.get(key))!.payload!['attachments'] as { id: string }[];
    expect(entry!.id).toBe(id);
    expect((await db.attachmentBlobs.get(`${id}#preview`))?.blob.size).toBe(3);
    await expect(sendWithAttachments(ctx, { conversationId: 'conv-1', text: 'b', files: [{ ...photoFile(), id: 'not-a-uuid' }] })).rejects.toThrow('UUID');
    const twice = crypto.randomUUID();
    await expect(sendWithAttachments(ctx, { conversationId: 'conv-1', text: 'c', files: [{ ...photoFile(), id: twice }, { ...photoFile(), id: twice }] })).rejects.toThrow('differ');
    const before = await db.messages.count();
    await expect(sendWithAttachments(ctx, { conversationId: 'conv-1', text: 'd', files: [{ ...photoFile(), id }] })).rejects.toThrow('already stored');
    // Nothing of the refused send was written; the first photo's blobs are as they were.
    expect(await db.messages.count()).toBe(before);
    expect((await db.attachmentBlobs.get(id))?.messageKey).toBe(key);
  });
});
