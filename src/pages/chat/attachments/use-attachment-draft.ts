// The files waiting in the composer (issue 38): each is checked at once (type, 25 MB, count: refused
// with a Slovak toast, the rest kept), then prepared — images downscaled and re-encoded without
// metadata with a thumbnail, other files kept as picked. Object URLs for the previews live as long
// as their item and are revoked when it goes (removed, sent, or the chat closed).
import { useCallback, useEffect, useRef, useState } from 'react';
import { toastError } from '../../../lib/notify.ts';
import { sk } from '../../../text/sk.ts';
import { isImage, isReencodedImage, MAX_ATTACHMENTS, mediaTypeOf, refusalOf, type Refusal } from './limits.ts';
import { prepareImage } from './prepare-image.ts';
import type { AttachmentFileInput } from './send-attachments.ts';

export interface DraftAttachment {
  id: string;
  /** The name sent (an image's follows its new encoding: IMG_1.HEIC → IMG_1.jpg). */
  name: string;
  kind: 'image' | 'file';
  /** Bytes that will be sent: the prepared image's, or the file's. */
  size: number;
  caption: string;
  /** Null while an image is being prepared. */
  file: AttachmentFileInput | null;
  /** The thumbnail (images), and the prepared image for the preview's lightbox. */
  thumbUrl: string | null;
  fullUrl: string | null;
}

export interface AttachmentDraft {
  items: DraftAttachment[];
  /** Every item prepared (a send waits for none). */
  ready: boolean;
  add: (files: readonly File[]) => void;
  remove: (id: string) => void;
  setCaption: (id: string, caption: string) => void;
  /** Drops the items that were sent (by id), keeping any added meanwhile. */
  removeSent: (ids: readonly string[]) => void;
}

const REFUSAL_TEXT: Record<Refusal | 'unreadable', (name: string) => string> = {
  'too-large': sk.attachments.tooLarge,
  type: sk.attachments.badType,
  empty: sk.attachments.empty,
  unreadable: sk.attachments.unreadable,
};

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

  useEffect(() => () => current.current.forEach(revoke), []);

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

  const prepare = useCallback(
    async (id: string, file: File, mediaType: string) => {
      try {
        const image = await prepareImage(file, mediaType);
        if (gone.current.has(id)) return;
        const thumbUrl = URL.createObjectURL(image.thumb);
        const fullUrl = URL.createObjectURL(image.blob);
        update(id, (item) => ({
          ...item,
          name: image.name,
          size: image.blob.size,
          thumbUrl,
          fullUrl,
          file: { blob: image.blob, name: image.name, type: image.type, width: image.width, height: image.height, thumb: image.thumb },
        }));
      } catch (err) {
        console.warn('attachment prepare:', err);
        if (!gone.current.has(id)) toastError(REFUSAL_TEXT.unreadable(file.name));
        drop([id]);
      }
    },
    [update, drop],
  );

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
        const id = crypto.randomUUID();
        const reencode = isReencodedImage(mediaType);
        accepted.push({
          id,
          name: file.name,
          kind: isImage(mediaType) ? 'image' : 'file',
          size: file.size,
          caption: '',
          file: reencode ? null : { blob: file, name: file.name, type: mediaType },
          // A GIF is sent as picked (its animation kept): its own bytes are its preview.
          thumbUrl: !reencode && isImage(mediaType) ? URL.createObjectURL(file) : null,
          fullUrl: null,
        });
        if (reencode) void prepare(id, file, mediaType);
      }
      if (accepted.length > 0) setItems((list) => [...list, ...accepted]);
    },
    [prepare],
  );

  const setCaption = useCallback((id: string, caption: string) => update(id, (item) => ({ ...item, caption })), [update]);

  return { items, ready: items.every((item) => item.file !== null), add, remove: (id) => drop([id]), setCaption, removeSent: drop };
}
