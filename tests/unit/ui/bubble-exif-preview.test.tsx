// @vitest-environment jsdom
// R12.14 (bench row 14a): a picked phone photo's own bubble paints first from the photo's EXIF
// thumbnail — read by the app (exif-preview.ts), stored by the engine's send command with the message
// (fake-indexeddb), resolved by the bubble from the device's database. R12.15: the picked 12 MP
// original is never decoded for the bubble; it moves to the prepared thumbnail only once that image's
// decode() resolved (no empty frame between, also after the preparation deleted the preview). The decode is the
// browser's; jsdom has none, so each decode() here is a promise the test settles. Dexie's live query
// never answers under jsdom here, so useSyncQuery reads the same database once per mount and deps.
import { Blob as NodeBlob } from 'node:buffer';
import { act, cleanup, render, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

vi.mock('../../../src/data/use-sync-query.ts', () => import('../../helpers/sync-query-reads.ts'));
import { sendWithAttachments } from '../../../sync/commands/send-with-attachments.ts';
import { prepareStored } from '../../../sync/attachments/prepare.ts';
import { exifPreview } from '../../../src/pages/chat/attachments/exif-preview.ts';
import { MessageBubble } from '../../../src/pages/chat/MessageBubble.tsx';
import { SyncDbContext } from '../../../src/data/sync-context.ts';
import { cameraPhoto } from '../../helpers/camera-photo.ts';
import { commandContext, conversationRow, freshDb } from '../sync/helpers/local-db.ts';

afterEach(cleanup);

/**
 * Object URLs name the blob they were made for; decode() waits for the test. Each is also an event
 * the test awaits (the page's steps run over fake-indexeddb, whose pace follows the machine's load).
 */
const made = new Map<string, Blob>();
const decodes: { src: string; resolve: () => void; done: Promise<void> }[] = [];
let onUrl: (b: Blob, url: string) => void = () => undefined;
let onDecode: () => void = () => undefined;
beforeEach(() => {
  made.clear();
  decodes.length = 0;
  let n = 0;
  URL.createObjectURL = (b: Blob | MediaSource) => {
    const url = `blob:test/${++n}`;
    made.set(url, b as Blob);
    onUrl(b as Blob, url);
    return url;
  };
  URL.revokeObjectURL = () => undefined;
  HTMLImageElement.prototype.decode = function (this: HTMLImageElement) {
    let resolve!: () => void;
    const done = new Promise<void>((r) => (resolve = r));
    decodes.push({ src: this.src, resolve, done });
    onDecode();
    return done;
  };
});

/** Resolves with the object URL made for a blob of `size` bytes (the page's own step), made already or next. */
function urlFor(size: number): Promise<string> {
  const had = [...made.entries()].find(([, b]) => b.size === size);
  if (had) return Promise.resolve(had[0]);
  return new Promise((resolve) => (onUrl = (b, url) => b.size === size && resolve(url)));
}
/** Resolves with the decode() the page asks for `src`, asked already or next. */
function decodeOf(src: string): Promise<(typeof decodes)[number]> {
  const had = decodes.find((d) => d.src === src);
  if (had) return Promise.resolve(had);
  return new Promise((resolve) => (onDecode = () => decodes.at(-1)!.src === src && resolve(decodes.at(-1)!)));
}
const bubbleImg = () => screen.getByRole('button', { name: 'IMG_0001.jpg' }).querySelector('img')!;

/** fake-indexeddb clones with Node's structuredClone, which keeps Node's Blob (jsdom's comes back empty). */
const nodeBlob = (parts: Uint8Array[], type: string) => new NodeBlob(parts, { type }) as unknown as Blob;
const bytes = async (url: string | null) => new Uint8Array(await made.get(url ?? '')!.arrayBuffer());

async function sentPhoto(withPreview: boolean) {
  const { db } = await freshDb();
  await db.conversations.put(conversationRow({ id: 'conv-1', accountId: 'acc-1' }));
  const photo = cameraPhoto({ width: 200, height: 150, orientation: 6 });
  const blob = nodeBlob([photo.bytes], 'image/jpeg');
  const preview = withPreview ? await exifPreview(blob) : null;
  const previewBlob = preview ? nodeBlob([new Uint8Array(await preview.blob.arrayBuffer())], 'image/jpeg') : null;
  const file = { blob, name: 'IMG_0001.jpg', type: 'image/jpeg', prepare: true, ...(preview ? { preview: previewBlob!, width: preview.width!, height: preview.height! } : {}) };
  const { key } = await sendWithAttachments(commandContext(db), { conversationId: 'conv-1', text: 'Z výletu', files: [file] });
  const message = (await db.messages.get(key))!;
  const view = (m: typeof message) => (
    <SyncDbContext.Provider value={db}>
      <MessageBubble message={m} onRetry={() => {}} />
    </SyncDbContext.Provider>
  );
  const { rerender } = render(view(message));
  /** R12.13's preparation (a stand-in preparer: its thumbnail is 33 bytes), then the bubble shows the updated row. */
  const prepare = async () => {
    const [row] = await db.attachmentUploads.where('messageKey').equals(key).toArray();
    const thumb = nodeBlob([new Uint8Array(33)], 'image/jpeg');
    const prepared = { blob: nodeBlob([new Uint8Array(77)], 'image/jpeg'), name: 'IMG_0001.jpg', type: 'image/jpeg', width: 150, height: 200, thumb };
    expect(await prepareStored(db, row!, () => Promise.resolve(prepared))).toBe('prepared');
    const next = (await db.messages.get(key))!;
    await act(async () => rerender(view(next)));
  };
  return { photo, preview, message, prepare };
}

describe('R12.14 the sending bubble of a phone photo', () => {
  it('R12.14 R12.15 paints the stored EXIF preview first, with the photo’s upright size, never decodes the picked original, and moves to the prepared thumbnail only after its decode() resolved', async () => {
    const { photo, preview, message, prepare } = await sentPhoto(true);
    const [entry] = message.payload!['attachments'] as { thumb_url: string; width: number; height: number }[];
    expect(entry!.thumb_url).toMatch(/#preview$/);
    expect([entry!.width, entry!.height]).toEqual([150, 200]);

    // The first image the bubble shows is the preview: the camera's thumbnail bytes.
    const previewUrl = await urlFor(preview!.blob.size);
    await urlFor(photo.bytes.length); // the original's URL too (the lightbox's), so both queries have answered
    await act(async () => undefined); // React commits what the URLs' state updates asked for
    const img = bubbleImg();
    expect(img.getAttribute('src')).toBe(previewUrl);
    expect(img.dataset['preview']).toBe('exif');
    expect(await bytes(img.getAttribute('src'))).toEqual(new Uint8Array(await preview!.blob.arrayBuffer()));
    expect((await bytes(img.getAttribute('src'))).subarray(-photo.thumbnail.length + 2)).toEqual(photo.thumbnail.subarray(2));
    // R12.15: nothing asked the browser to decode the 12 MP original (before, it was decoded beside
    // the preview and took the image decoder from it: bench row 14a).
    expect(decodes).toEqual([]);

    // Prepared: the preview's blob is gone, the prepared thumbnail is decoded aside; the preview stays until then.
    await prepare();
    const thumbUrl = await urlFor(33);
    const sharper = await decodeOf(thumbUrl);
    await act(async () => undefined);
    expect(img.getAttribute('src')).toBe(previewUrl);
    await act(async () => {
      sharper.resolve();
      await sharper.done;
    });
    expect(img.getAttribute('src')).toBe(thumbUrl);
    expect(img.dataset['preview']).toBeUndefined();
    // What was decoded: the prepared thumbnail (and, for a render whose URLs were not yet the new ones, the preview), never the original.
    expect(decodes.map((d) => made.get(d.src)!.size)).not.toContain(photo.bytes.length);
  });

  it('R12.14 a photo without a preview (a PNG, a stripped JPEG) shows the original at once, as before', async () => {
    const { photo } = await sentPhoto(false);
    const url = await urlFor(photo.bytes.length);
    await act(async () => undefined);
    const img = bubbleImg();
    expect(img.getAttribute('src')).toBe(url);
    expect(await bytes(img.getAttribute('src'))).toEqual(photo.bytes);
    expect(img.dataset['preview']).toBeUndefined();
    expect(decodes).toEqual([]);
  });
});
