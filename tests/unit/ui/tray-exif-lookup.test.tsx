// @vitest-environment jsdom
// R12.15 (bench row 14a-bare): a picked JPEG joins the composer's tray at once, ready to send, with a
// placeholder; its EXIF look-up (R12.14, exif-preview.ts) runs aside and fills the item in when it
// answers. A send never waits for it: an item sent (or removed) before it answered goes without a
// preview and the late answer is dropped, its object URLs revoked. The look-up is held here by the
// test (a promise it settles), so nothing is timed.
import { Blob as NodeBlob, File as NodeFile } from 'node:buffer';
import { act, cleanup, render, renderHook, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { PhotoPreview } from '../../../src/pages/chat/attachments/exif-preview.ts';

/** A conversation of its own per test (R16.5 keeps a tray per conversation, with an engine). */
let chat = '';
beforeEach(() => {
  chat = crypto.randomUUID();
});

const lookups = vi.hoisted(() => [] as { file: Blob; answer: (p: PhotoPreview | null) => void }[]);
vi.mock('../../../src/pages/chat/attachments/exif-preview.ts', () => ({
  exifPreview: (file: Blob) => new Promise<PhotoPreview | null>((answer) => lookups.push({ file, answer })),
}));
vi.mock('../../../src/lib/notify.ts', () => ({ toastError: () => undefined }));
const { AttachmentTray } = await import('../../../src/pages/chat/attachments/AttachmentTray.tsx');
const { useAttachmentDraft } = await import('../../../src/pages/chat/attachments/use-attachment-draft.ts');
const { tray, trayEngine } = await import('./tray-engine.tsx');
const { hasAnyDraft } = await import('../../../src/pages/chat/drafts.ts');
const { freshDb } = await import('../sync/helpers/local-db.ts');

afterEach(cleanup);
const urls = new Map<string, Blob | MediaSource>();
const revoked = new Set<string>();
beforeEach(() => {
  lookups.length = 0;
  urls.clear();
  revoked.clear();
  let n = 0;
  URL.createObjectURL = (b: Blob | MediaSource) => {
    const url = `blob:test/${++n}`;
    urls.set(url, b);
    return url;
  };
  URL.revokeObjectURL = (url: string) => void revoked.add(url);
});

/** Resolves once the look-up of the n-th JPEG was asked (the reader module loads lazily). */
async function lookup(n: number) {
  await vi.waitFor(() => expect(lookups.length).toBeGreaterThan(n));
  return lookups[n]!;
}

const jpeg = (name: string) => new File([new Uint8Array([0xff, 0xd8, 0xff, 0xe1, 1, 2, 3])], name, { type: 'image/jpeg' });
const previewOf = (): PhotoPreview => ({ blob: new Blob([new Uint8Array([0xff, 0xd8, 9])], { type: 'image/jpeg' }), width: 3000, height: 4000 });

describe('R12.15 the tray does not wait for the EXIF look-up', () => {
  it('R12.15 a picked JPEG is in the tray and ready to send before its look-up answers, with a placeholder; the preview fills it in, the caption typed meanwhile kept', async () => {
    const { result } = renderHook(() => useAttachmentDraft(chat));
    const photo = jpeg('IMG_0003.jpg');
    act(() => result.current.add([photo]));
    // At once: before R12.15 the item joined only once the look-up had answered.
    expect(result.current.items).toHaveLength(1);
    expect(result.current.ready).toBe(true);
    const [item] = result.current.items;
    expect(item!.file).toEqual({ blob: photo, name: 'IMG_0003.jpg', type: 'image/jpeg', prepare: true });
    // No preview yet, and not the 12 MP photo either: a placeholder.
    expect(item!.thumbUrl).toBeNull();
    const tray = render(<AttachmentTray items={result.current.items} onRemove={() => {}} onUnreadable={() => {}} onCaption={() => {}} />);
    expect(screen.getByTestId('attachment-thumb-pending')).toBeTruthy();
    expect(screen.queryByTestId('attachment-thumb')).toBeNull();
    act(() => result.current.setCaption(item!.id, 'Z výletu'));

    const asked = await lookup(0);
    expect(asked.file).toBe(photo);
    const preview = previewOf();
    await act(async () => asked.answer(preview));
    const [filled] = result.current.items;
    expect(filled!.file).toMatchObject({ blob: photo, prepare: true, preview: preview.blob, width: 3000, height: 4000 });
    expect(urls.get(filled!.thumbUrl!)).toBe(preview.blob);
    expect(urls.get(filled!.fullUrl!)).toBe(photo);
    expect(filled!.caption).toBe('Z výletu');
    tray.rerender(<AttachmentTray items={result.current.items} onRemove={() => {}} onUnreadable={() => {}} onCaption={() => {}} />);
    expect(screen.getByTestId('attachment-thumb').dataset['preview']).toBe('exif');
  });

  it('R12.15 a JPEG without an EXIF thumbnail shows the picked photo once the look-up answered none', async () => {
    const { result } = renderHook(() => useAttachmentDraft(chat));
    const photo = jpeg('bez-exif.jpg');
    act(() => result.current.add([photo]));
    expect(result.current.items[0]!.thumbUrl).toBeNull();
    await act(async () => (await lookup(0)).answer(null));
    const [item] = result.current.items;
    expect(urls.get(item!.thumbUrl!)).toBe(photo);
    expect(item!.file!.preview).toBeUndefined();
  });

  it('R12.15 an item sent before its look-up answered goes as picked, without a preview; the late answer is dropped and its URLs revoked', async () => {
    const { result } = renderHook(() => useAttachmentDraft(chat));
    const photo = jpeg('IMG_0004.jpg');
    act(() => result.current.add([photo]));
    const [item] = result.current.items;
    // What the send hands the engine is the item as it is now: no preview (R12.13's path).
    expect(item!.file!.preview).toBeUndefined();
    act(() => result.current.removeSent([item!.id]));
    expect(result.current.items).toEqual([]);
    const made = urls.size;
    await act(async () => (await lookup(0)).answer(previewOf()));
    expect(result.current.items).toEqual([]);
    const late = [...urls.keys()].slice(made);
    expect(late).toHaveLength(2);
    expect(late.every((u) => revoked.has(u))).toBe(true);
  });

  it('R16.5 a look-up answering after its chat closed is kept with the file: the chat opened again shows the preview and the caption, and asks no look-up again', async () => {
    const { db } = await freshDb();
    const engine = { current: trayEngine(db) };
    const first = tray(chat, engine);
    // Node's File: fake-indexeddb keeps it (jsdom's comes back empty).
    const photo = new NodeFile([new Uint8Array([0xff, 0xd8, 0xff, 0xe1, 1, 2, 3])], 'IMG_0005.jpg', { type: 'image/jpeg' }) as unknown as File;
    act(() => first.result.current.add([photo]));
    const [item] = first.result.current.items;
    act(() => first.result.current.setCaption(item!.id, 'Plagát'));
    await waitFor(() => expect(hasAnyDraft()).toBe(false));
    first.unmount(); // another chat opened before the look-up answered
    const made = urls.size;
    const preview = new NodeBlob([new Uint8Array([0xff, 0xd8, 9])], { type: 'image/jpeg' }) as unknown as Blob;
    await act(async () => (await lookup(0)).answer({ blob: preview, width: 3000, height: 4000 }));
    // The closed chat shows nothing: the answer's URLs go, the answer itself is kept with the file.
    const late = [...urls.keys()].slice(made);
    expect(late).toHaveLength(2);
    expect(late.every((u) => revoked.has(u))).toBe(true);
    await waitFor(async () => expect((await db.draftFiles.get(item!.id))?.lookedUp).toBe(true));

    const again = tray(chat, engine);
    await waitFor(() => expect(again.result.current.items).toHaveLength(1));
    const [back] = again.result.current.items;
    expect(back).toMatchObject({ id: item!.id, caption: 'Plagát' });
    expect(back!.file).toMatchObject({ name: 'IMG_0005.jpg', prepare: true, width: 3000, height: 4000 });
    expect(new Uint8Array(await (urls.get(back!.thumbUrl!) as Blob).arrayBuffer())).toEqual(new Uint8Array([0xff, 0xd8, 9]));
    expect(lookups).toHaveLength(1);
    again.unmount();
  });
});
