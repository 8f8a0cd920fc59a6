// @vitest-environment jsdom
// R12.13 (bench row 14a): a picked photo is ready to send the moment it is picked — the tray no
// longer prepares it (that cost seconds on a phone before the bubble could exist). It goes to the
// engine as picked, marked `prepare`, so the engine prepares it before any upload; a PDF or a GIF
// goes as picked, unmarked (a GIF keeps its animation).
import { act, cleanup, fireEvent, render, renderHook, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';

const toasts = vi.hoisted(() => [] as string[]);
vi.mock('../../../src/lib/notify.ts', () => ({ toastError: (t: string) => toasts.push(t) }));
const { AttachmentTray } = await import('../../../src/pages/chat/attachments/AttachmentTray.tsx');
import { useAttachmentDraft } from '../../../src/pages/chat/attachments/use-attachment-draft.ts';
import { cameraPhoto } from '../../helpers/camera-photo.ts';

/** A conversation of its own per test (R16.5 keeps a tray per conversation, with an engine). */
let chat = '';
beforeEach(() => {
  chat = crypto.randomUUID();
});

afterEach(cleanup);
const urls = new Map<string, Blob | MediaSource>();
beforeAll(() => {
  // jsdom has no object URLs; the tray's previews need one per image.
  let n = 0;
  URL.createObjectURL = (b: Blob | MediaSource) => {
    const url = `blob:test/${++n}`;
    urls.set(url, b);
    return url;
  };
  URL.revokeObjectURL = () => undefined;
});

describe('useAttachmentDraft', () => {
  it('R12.13 a picked photo is ready at once, handed over as picked and marked for the engine to prepare; other files unmarked', async () => {
    const { result } = renderHook(() => useAttachmentDraft(chat));
    const photo = new File([new Uint8Array([0xff, 0xd8, 0xff, 0xe1, 1, 2, 3])], 'IMG_1.jpg', { type: 'image/jpeg' });
    const pdf = new File(['%PDF-1.4'], 'zmluva.pdf', { type: 'application/pdf' });
    const gif = new File(['GIF89a'], 'smiech.gif', { type: 'image/gif' });
    act(() => result.current.add([photo, pdf, gif]));
    // R12.15: every item joins at once; a JPEG's preview follows its EXIF look-up (this one has none: the photo itself).
    expect(result.current.items).toHaveLength(3);
    expect(result.current.ready).toBe(true);
    await waitFor(() => expect(result.current.items[0]!.thumbUrl).toMatch(/^blob:/));
    const [p, d, g] = result.current.items;
    expect(p!.file).toMatchObject({ blob: photo, name: 'IMG_1.jpg', type: 'image/jpeg', prepare: true });
    expect(d!.file).toEqual({ blob: pdf, name: 'zmluva.pdf', type: 'application/pdf' });
    expect(g!.file).toEqual({ blob: gif, name: 'smiech.gif', type: 'image/gif' });
  });

  it('R12.14 a camera JPEG’s tray item gets its EXIF thumbnail as the preview, handed to the engine with the photo’s upright size; the tray’s lightbox opens the photo', async () => {
    const { result } = renderHook(() => useAttachmentDraft(chat));
    const camera = cameraPhoto({ width: 200, height: 150, orientation: 6 });
    const photo = new File([camera.bytes], 'IMG_0002.jpg', { type: 'image/jpeg' });
    act(() => result.current.add([photo]));
    await waitFor(() => expect(result.current.items[0]?.file?.preview).toBeDefined());
    const [item] = result.current.items;
    expect(item!.file).toMatchObject({ blob: photo, prepare: true, width: 150, height: 200 });
    const preview = new Uint8Array(await item!.file!.preview!.arrayBuffer());
    expect(preview.subarray(-camera.thumbnail.length + 2)).toEqual(camera.thumbnail.subarray(2));
    expect(urls.get(item!.thumbUrl!)).toBe(item!.file!.preview);
    expect(urls.get(item!.fullUrl!)).toBe(photo);
  });

  it('an image whose preview the browser cannot decode (HEIC in Chromium) leaves the tray with the Slovak toast', () => {
    const { result } = renderHook(() => useAttachmentDraft(chat));
    const heic = new File([new Uint8Array([0, 0, 0, 24, 0x66, 0x74, 0x79, 0x70])], 'IMG_2.HEIC', { type: 'image/heic' });
    const pdf = new File(['%PDF-1.4'], 'zmluva.pdf', { type: 'application/pdf' });
    act(() => result.current.add([heic, pdf]));
    const draft = result.current;
    render(<AttachmentTray items={draft.items} onRemove={draft.remove} onUnreadable={draft.unreadable} onCaption={draft.setCaption} />);
    fireEvent.error(screen.getByTestId('attachment-thumb'));
    expect(toasts).toEqual(['Obrázok IMG_2.HEIC sa v tomto zariadení nedá spracovať, nepriložil sa.']);
    expect(result.current.items.map((i) => i.name)).toEqual(['zmluva.pdf']);
  });
});
