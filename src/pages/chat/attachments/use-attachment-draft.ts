// The files waiting in the composer (issue 38): each is checked at once (type, 25 MB, count: refused
// with a Slovak toast, the rest kept) and ready to send at once. A photo is handed to the engine as
// picked, marked `prepare`: its own bubble shows it at once and the engine prepares it (downscaled,
// upright, EXIF/GPS stripped) before anything is uploaded (R12.13; bench row 14a: preparing here,
// before the bubble existed, cost seconds on a phone). Other files go as picked. Object URLs for the
// previews live as long as their item and are revoked when it goes (removed, sent, or the chat closed).
// A JPEG's tray preview is its EXIF thumbnail when it has one (R12.14, exif-preview.ts), read before
// the item joins the tray; the item is ready then.
import { useCallback, useEffect, useRef, useState } from 'react';
import { toastError } from '../../../lib/notify.ts';
import { sk } from '../../../text/sk.ts';
import { isImage, isReencodedImage, MAX_ATTACHMENTS, mediaTypeOf, refusalOf, type Refusal } from './limits.ts';
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
  /** The preview (images: the picked file itself; the browser turns it upright from its EXIF). */
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

/**
 * The item with its photo's preview (R12.14) as the tray's thumbnail and handed to the engine, and its
 * real size; as it was when the photo has none. The reader (and exifr) load here, on the first photo.
 */
async function withExifPreview(item: DraftAttachment): Promise<DraftAttachment> {
  if (item.file?.prepare !== true || item.file.type !== 'image/jpeg') return item;
  const preview = await import('./exif-preview.ts').then(({ exifPreview }) => exifPreview(item.file!.blob)).catch(() => null);
  if (!preview) return item;
  const size = preview.width && preview.height ? { width: preview.width, height: preview.height } : {};
  // The tray shows the preview; its lightbox the picked photo itself.
  return { ...item, file: { ...item.file, preview: preview.blob, ...size }, fullUrl: item.thumbUrl, thumbUrl: URL.createObjectURL(preview.blob) };
}

function revoke(item: DraftAttachment): void {
  if (item.thumbUrl) URL.revokeObjectURL(item.thumbUrl);
  if (item.fullUrl) URL.revokeObjectURL(item.fullUrl);
}

export function useAttachmentDraft(): AttachmentDraft {
  const [items, setItems] = useState<DraftAttachment[]>([]);
  const current = useRef(items);
  current.current = items;
  // Items removed while still being prepared: their result is dropped (and its URLs never made).
  const gone = useRef(new Set<string>());

  const alive = useRef(true);
  useEffect(
    () => () => {
      alive.current = false;
      current.current.forEach(revoke);
    },
    [],
  );

  const update = useCallback((id: string, next: (item: DraftAttachment) => DraftAttachment) => {
    setItems((list) => list.map((item) => (item.id === id ? next(item) : item)));
  }, []);

  const drop = useCallback((ids: readonly string[]) => {
    const set = new Set(ids);
    for (const id of ids) gone.current.add(id);
    setItems((list) => {
      list.filter((item) => set.has(item.id)).forEach(revoke);
      return list.filter((item) => !set.has(item.id));
    });
  }, []);

  // Items whose preview is still being read (R12.14): they count against the room already.
  const reading = useRef(0);

  const add = useCallback(
    (files: readonly File[]) => {
      const room = MAX_ATTACHMENTS - current.current.length - reading.current;
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
        accepted.push({
          id: crypto.randomUUID(),
          name: file.name,
          kind: isImage(mediaType) ? 'image' : 'file',
          size: file.size,
          caption: '',
          // A GIF is sent as picked (its animation kept); JPEG, PNG, HEIC… are prepared by the engine.
          file: { blob: file, name: file.name, type: mediaType, ...(isReencodedImage(mediaType) ? { prepare: true } : {}) },
          thumbUrl: isImage(mediaType) ? URL.createObjectURL(file) : null,
          fullUrl: null,
        });
      }
      if (accepted.length === 0) return;
      // R12.14: a JPEG's EXIF thumbnail is read first (milliseconds; never the 12 MP decode): the tray
      // and the sending bubble show it, and the engine stores it with the message.
      if (!accepted.some((item) => item.file?.prepare === true && item.file.type === 'image/jpeg')) {
        setItems((list) => [...list, ...accepted]);
        return;
      }
      reading.current += accepted.length;
      void Promise.all(accepted.map(withExifPreview)).then((ready) => {
        reading.current -= accepted.length;
        if (alive.current) setItems((list) => [...list, ...ready]);
        else ready.forEach(revoke);
      });
    },
    [],
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
