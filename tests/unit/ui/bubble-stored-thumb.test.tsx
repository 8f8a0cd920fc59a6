// @vitest-environment jsdom
// R12.8/R12.15: a photo bubble that names a thumbnail shows that thumbnail, never the full image in
// its place. When the send settles, the server's row turns both addresses into `storage:` objects at
// once and the bubble signs them side by side; the full image's signature answering first made the
// bubble fetch and show the stored 2,048 px image (after an empty frame) until the thumbnail's came
// (e2e/attachments.e2e.ts read that image as the thumbnail under load). The photo goes through the
// engine's send and preparation (fake-indexeddb); signing is the test's, answered in the order it
// chooses. Dexie's live query never answers under jsdom here, so useSyncQuery reads once per mount and deps.
import { Blob as NodeBlob } from 'node:buffer';
import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

/** One pending signature per object path, answered by the test. */
const signing = vi.hoisted(() => {
  const pending = new Map<string, { promise: Promise<string>; resolve: (url: string) => void }>();
  const of = (path: string) => {
    let entry = pending.get(path);
    if (!entry) {
      let resolve!: (url: string) => void;
      const promise = new Promise<string>((r) => (resolve = r));
      entry = { promise, resolve };
      pending.set(path, entry);
    }
    return entry;
  };
  return { pending, of };
});
vi.mock('../../../src/pages/chat/attachments/sign-url.ts', () => ({
  createSignedObjectUrl: (_bucket: string, path: string) => signing.of(path).promise,
}));
vi.mock('../../../src/data/use-sync-query.ts', () => import('../../helpers/sync-query-reads.ts'));
import type { JsonObject } from '../../../sync/model/json.ts';
import type { LocalMessage } from '../../../sync/model/local-types.ts';
import { sendWithAttachments } from '../../../sync/commands/send-with-attachments.ts';
import { prepareStored } from '../../../sync/attachments/prepare.ts';
import { MessageBubble } from '../../../src/pages/chat/MessageBubble.tsx';
import { SyncDbContext } from '../../../src/data/sync-context.ts';
import { commandContext, conversationRow, freshDb } from '../sync/helpers/local-db.ts';

afterEach(cleanup);

const made = new Map<string, Blob>();
beforeEach(() => {
  made.clear();
  let n = 0;
  URL.createObjectURL = (b: Blob | MediaSource) => {
    const url = `blob:test/${++n}`;
    made.set(url, b as Blob);
    return url;
  };
  URL.revokeObjectURL = () => undefined;
});

/** fake-indexeddb clones with Node's structuredClone, which keeps Node's Blob (jsdom's comes back empty). */
const nodeBlob = (size: number) => new NodeBlob([new Uint8Array(size)], { type: 'image/jpeg' }) as unknown as Blob;
const bubbleImg = () => screen.getByRole('button', { name: 'IMG_0002.jpg' }).querySelector('img')!;
/** Every value the bubble image's src takes from now on (null: no src, an empty frame). */
function srcHistory(img: HTMLImageElement): (string | null)[] {
  const seen: (string | null)[] = [img.getAttribute('src')];
  new MutationObserver(() => seen.push(img.getAttribute('src'))).observe(img, { attributes: true, attributeFilter: ['src'] });
  return seen;
}
const signedUrl = (path: string) => `http://storage.test/sign/attachments/${path}?token=t`;
/** Answers the signature of `path` and lets React commit what it set. */
async function sign(path: string) {
  await act(async () => {
    signing.of(path).resolve(signedUrl(path));
    await signing.of(path).promise;
  });
}

describe('R12.15 a photo bubble that names a thumbnail shows the thumbnail', () => {
  it('R12.8 R12.15 once sent, the bubble goes from the device’s prepared thumbnail to the stored one, never empty and never the stored full image, when the full image’s signature answers first', async () => {
    const { db } = await freshDb();
    await db.conversations.put(conversationRow({ id: 'conv-1', accountId: 'acc-1' }));
    const original = nodeBlob(500);
    const { key } = await sendWithAttachments(commandContext(db), { conversationId: 'conv-1', text: 'Z výletu', files: [{ blob: original, name: 'IMG_0002.jpg', type: 'image/jpeg', prepare: true }] });
    const view = (m: LocalMessage) => (
      <SyncDbContext.Provider value={db}>
        <MessageBubble message={m} onRetry={() => {}} />
      </SyncDbContext.Provider>
    );
    const { rerender } = render(view((await db.messages.get(key))!));
    await act(async () => undefined);
    await vi.waitFor(() => expect(made.get(bubbleImg().getAttribute('src') ?? '')?.size).toBe(500));
    const history = srcHistory(bubbleImg());

    // R12.13's preparation (a stand-in preparer: 77-byte image, 33-byte thumbnail).
    const [row] = await db.attachmentUploads.where('messageKey').equals(key).toArray();
    const prepared = { blob: nodeBlob(77), name: 'IMG_0002.jpg', type: 'image/jpeg', width: 150, height: 200, thumb: nodeBlob(33) };
    expect(await prepareStored(db, row!, () => Promise.resolve(prepared))).toBe('prepared');
    await act(async () => rerender(view((await db.messages.get(key))!)));
    await vi.waitFor(() => expect(made.get(bubbleImg().getAttribute('src') ?? '')?.size).toBe(33));
    const localThumb = bubbleImg().getAttribute('src');

    // The send settles: the server's row names the stored objects (R12.8).
    const id = (((await db.messages.get(key))!.payload!['attachments'] as JsonObject[])[0]!['id'] as string);
    const fullPath = `acc-1/conv-1/${id}/IMG_0002.jpg`;
    const thumbPath = `acc-1/conv-1/${id}/nahlad.jpg`;
    const sent = (await db.messages.get(key))!;
    const entry = (sent.payload!['attachments'] as JsonObject[])[0]!;
    const stored = { ...entry, data_url: `storage:attachments/${fullPath}`, thumb_url: `storage:attachments/${thumbPath}` };
    await act(async () => rerender(view({ ...sent, serverId: 'srv-1', state: 'sent', payload: { ...sent.payload, attachments: [stored] } })));
    await vi.waitFor(() => expect(signing.pending.has(thumbPath) && signing.pending.has(fullPath)).toBe(true));

    // The full image's signature answers first: the bubble keeps the device's thumbnail.
    await sign(fullPath);
    expect(bubbleImg().getAttribute('src')).toBe(localThumb);
    await sign(thumbPath);
    expect(bubbleImg().getAttribute('src')).toBe(signedUrl(thumbPath));

    // Everything the bubble named from its first image on: no empty frame, never the stored full
    // image, never the prepared full image on the device.
    expect(history).not.toContain(null);
    expect(history).not.toContain(signedUrl(fullPath));
    expect(history.map((s) => made.get(s ?? '')?.size)).not.toContain(77);
  });

  it('R12.15 a received photo waits for its thumbnail’s signature instead of fetching the full image; a thumbnail that fails to load falls back to the full image', async () => {
    const fullPath = 'acc-2/conv-2/att-2/IMG_0002.jpg';
    const thumbPath = 'acc-2/conv-2/att-2/nahlad.jpg';
    const message: LocalMessage = {
      key: 'c:2', serverId: 'srv-2', conversationId: 'conv-2', accountId: 'acc-2', text: '', type: 'text', direction: 'user', source: 'app',
      chatwootMessageId: null, createdAt: '2026-01-05T10:00:00.000000Z', orderKey: 'x', readAt: null, correlationId: '2',
      senderUserId: null, changeSeq: 0, state: 'sent', origin: 'server', error: null, confirmedAt: null,
      payload: { attachments: [{ id: 'att-2', file_type: 'image', name: 'IMG_0002.jpg', data_url: `storage:attachments/${fullPath}`, thumb_url: `storage:attachments/${thumbPath}`, width: 150, height: 200 }] },
    };
    const { db } = await freshDb();
    render(
      <SyncDbContext.Provider value={db}>
        <MessageBubble message={message} onRetry={() => {}} />
      </SyncDbContext.Provider>,
    );
    await vi.waitFor(() => expect(signing.pending.has(thumbPath) && signing.pending.has(fullPath)).toBe(true));
    await sign(fullPath);
    expect(bubbleImg().getAttribute('src')).toBeNull();
    await sign(thumbPath);
    expect(bubbleImg().getAttribute('src')).toBe(signedUrl(thumbPath));
    // The stored thumbnail cannot be loaded: the full image stands in.
    fireEvent.error(bubbleImg());
    expect(bubbleImg().getAttribute('src')).toBe(signedUrl(fullPath));
  });
});
