// The files waiting in the composer (issue 38): each is checked at once (type, 25 MB, count: refused
// with a Slovak toast, the rest kept) and ready to send at once. A photo is handed to the engine as
// picked, marked `prepare`: its own bubble shows it at once and the engine prepares it (downscaled,
// upright, EXIF/GPS stripped) before anything is uploaded (R12.13; bench row 14a: preparing here,
// before the bubble existed, cost seconds on a phone). Other files go as picked. Object URLs for the
// previews live as long as their item and are revoked when it goes (removed, sent, or its kept tray dropped: kept-trays.ts).
// A JPEG's tray preview is its EXIF thumbnail when it has one (R12.14, exif-preview.ts). R12.15: the
// item joins the tray at once, ready to send, with a placeholder; the look-up fills it in when it
// answers (the preview, else the picked photo). A send never waits for it: an item sent before it
// answered goes without a preview (as a JPEG without one, R12.13), and the late answer is dropped.
import { useCallback, useEffect, useRef, useState } from 'react';
import { toastError } from '../../../lib/notify.ts';
import { sk } from '../../../text/sk.ts';
import { isImage, isReencodedImage, MAX_ATTACHMENTS, mediaTypeOf, refusalOf, type Refusal } from './limits.ts';
import type * as ExifPreviewModule from './exif-preview.ts';
import { readPhotoHead } from './photo-head.ts';
import { noteTray } from '../drafts.ts';
import { keepTray, revokeItem, takeTray, trayGeneration, updateKeptItem } from './kept-trays.ts';
import type { AttachmentFileInput } from './send-attachments.ts';

export interface DraftAttachment {
  id: string;
  /** The name sent (an image's follows its new encoding: IMG_1.HEIC → IMG_1.jpg). */
  name: string;
  kind: 'image' | 'file';
  /** The picked file's bytes (a photo's prepared bytes are fewer). */
  size: number;
  caption: string;
  file: AttachmentFileInput | null;
  /**
   * The preview (images: the picked file itself, or a JPEG's EXIF thumbnail; the browser turns it
   * upright from its EXIF). Null while a JPEG's EXIF look-up runs (R12.15: a placeholder).
   */
  thumbUrl: string | null;
  fullUrl: string | null;
}

export interface AttachmentDraft {
  items: DraftAttachment[];
  /** Every item prepared (a send waits for none). */
  ready: boolean;
  add: (files: readonly File[]) => void;
  remove: (id: string) => void;
  /** The browser could not show the image's preview (HEIC in Chromium): refused as before, with the toast. */
  unreadable: (id: string) => void;
  setCaption: (id: string, caption: string) => void;
  /** Drops the items that were sent (by id), keeping any added meanwhile. */
  removeSent: (ids: readonly string[]) => void;
}

const REFUSAL_TEXT: Record<Refusal, (name: string) => string> = {
  'too-large': sk.attachments.tooLarge,
  type: sk.attachments.badType,
  empty: sk.attachments.empty,
};

/** A JPEG to be prepared: its EXIF thumbnail is looked up (R12.14). */
const looksUpPreview = (file: AttachmentFileInput | null) => file?.prepare === true && file.type === 'image/jpeg';

/** The reader's module (and exifr), loaded on the first photo; a failed load is asked again next time. */
let reader: Promise<typeof ExifPreviewModule> | null = null;

/**
 * The item once its look-up answered (R12.14): its photo's preview as the tray's thumbnail and handed
 * to the engine, with the photo's real size; without one, the picked photo itself (as before R12.14).
 * The head's read starts in the pick's own task, beside the reader's import, and after the first photo
 * the import is a settled promise: an import() of the loaded module still answered a task later,
 * behind the tray's first frame (bench row 14a, 2026-11-29: pick → read asked 30 ms p50, the read 11).
 */
async function lookedUp(item: DraftAttachment): Promise<DraftAttachment> {
  const file = item.file!;
  reader ??= import('./exif-preview.ts').catch((err: unknown) => {
    reader = null;
    throw err;
  });
  const head = readPhotoHead(file.blob);
  head.catch(() => undefined); // exifPreview answers null for it; none if the reader did not load
  const preview = await reader.then(({ exifPreview }) => exifPreview(file.blob, head)).catch(() => null);
  if (!preview) return { ...item, thumbUrl: URL.createObjectURL(file.blob) };
  const size = preview.width && preview.height ? { width: preview.width, height: preview.height } : {};
  // The tray shows the preview; its lightbox the picked photo itself.
  return { ...item, file: { ...file, preview: preview.blob, ...size }, fullUrl: URL.createObjectURL(file.blob), thumbUrl: URL.createObjectURL(preview.blob) };
}

/**
 * The tray of `conversationId`'s composer. It starts with what the chat held when it was last closed
 * (kept-trays.ts) and, closed with files in it, leaves them there: nothing picked or captioned is lost
 * by opening another chat in between. Sent or removed items are gone for good.
 */
export function useAttachmentDraft(conversationId: string): AttachmentDraft {
  const [items, setItems] = useState<DraftAttachment[]>(() => takeTray(conversationId));
  const [since] = useState(trayGeneration);
  const current = useRef(items);
  current.current = items;
  // Items removed or sent (R12.15: a look-up answering after that is dropped, its URLs revoked).
  const gone = useRef(new Set<string>());

  const alive = useRef(true);
  useEffect(() => {
    alive.current = true;
    return () => {
      alive.current = false;
      keepTray(conversationId, current.current, since);
    };
  }, [conversationId, since]);
  // Files in the tray exist only in this page: the update gate waits for them, and a reload or a
  // closed tab asks first (drafts.ts); closed with files, keepTray goes on counting them.
  useEffect(() => noteTray(conversationId, items.length), [conversationId, items.length]);

  const update = useCallback((id: string, next: (item: DraftAttachment) => DraftAttachment) => {
    setItems((list) => list.map((item) => (item.id === id ? next(item) : item)));
  }, []);

  const drop = useCallback((ids: readonly string[]) => {
    const set = new Set(ids);
    for (const id of ids) gone.current.add(id);
    setItems((list) => {
      list.filter((item) => set.has(item.id)).forEach(revokeItem);
      return list.filter((item) => !set.has(item.id));
    });
  }, []);

  const add = useCallback(
    (files: readonly File[]) => {
      const room = MAX_ATTACHMENTS - current.current.length;
      const accepted: DraftAttachment[] = [];
      for (const file of files) {
        const refusal = refusalOf(file);
        if (refusal) {
          toastError(REFUSAL_TEXT[refusal](file.name));
          continue;
        }
        if (accepted.length >= room) {
          toastError(sk.attachments.tooMany(MAX_ATTACHMENTS));
          break;
        }
        const mediaType = mediaTypeOf(file);
        // A GIF is sent as picked (its animation kept); JPEG, PNG, HEIC… are prepared by the engine.
        const input: AttachmentFileInput = { blob: file, name: file.name, type: mediaType, ...(isReencodedImage(mediaType) ? { prepare: true } : {}) };
        accepted.push({
          id: crypto.randomUUID(),
          name: file.name,
          kind: isImage(mediaType) ? 'image' : 'file',
          size: file.size,
          caption: '',
          file: input,
          // R12.15: a JPEG waits for its look-up with a placeholder (not the 12 MP photo, whose decode
          // the look-up's preview makes needless); other images show the picked file at once.
          thumbUrl: isImage(mediaType) && !looksUpPreview(input) ? URL.createObjectURL(file) : null,
          fullUrl: null,
        });
      }
      if (accepted.length === 0) return;
      setItems((list) => [...list, ...accepted]);
      // R12.14: a JPEG's EXIF thumbnail is read aside (milliseconds; never the 12 MP decode): the tray
      // and the sending bubble show it, and the engine stores it with the message — if the item is
      // still in the tray when it answers (R12.15: sent or removed meanwhile, the answer is dropped).
      for (const item of accepted.filter((i) => looksUpPreview(i.file))) {
        void lookedUp(item).then((next) => {
          if (gone.current.has(item.id)) return revokeItem(next);
          // The chat closed meanwhile: its kept item takes the answer, if it is still kept.
          if (!alive.current) return updateKeptItem(conversationId, next) ? undefined : revokeItem(next);
          // The caption typed meanwhile stays.
          setItems((list) => list.map((i) => (i.id === item.id ? { ...next, caption: i.caption } : i)));
        });
      }
    },
    [conversationId],
  );

  const setCaption = useCallback((id: string, caption: string) => update(id, (item) => ({ ...item, caption })), [update]);

  // An image this browser cannot decode would only fail later, in the engine's preparation: its
  // preview failing to load says so at once, and it leaves the tray with the Slovak toast.
  const unreadable = useCallback(
    (id: string) => {
      const item = current.current.find((i) => i.id === id);
      if (!item) return;
      toastError(sk.attachments.unreadable(item.name));
      drop([id]);
    },
    [drop],
  );

  return { items, ready: items.every((item) => item.file !== null), add, remove: (id) => drop([id]), unreadable, setCaption, removeSent: drop };
}
