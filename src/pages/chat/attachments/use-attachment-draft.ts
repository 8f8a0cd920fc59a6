// The files waiting in the composer (issue 38): each is checked at once (type, 25 MB, count: refused
// with a Slovak toast, the rest kept) and ready to send at once. A photo is handed to the engine as
// picked, marked `prepare`: its own bubble shows it at once and the engine prepares it (downscaled,
// upright, EXIF/GPS stripped) before anything is uploaded (R12.13; bench row 14a: preparing here,
// before the bubble existed, cost seconds on a phone). Other files go as picked. Object URLs for the
// previews live as long as their item is shown, and are revoked when it goes (removed, sent) or its
// chat closes. R16.5: the files are kept in the account's database with their captions, as the text
// is (sync/commands/draft-files.ts): a reload, an update or another chat opened in between loses none,
// and the chat opened again shows them.
// A JPEG's tray preview is its EXIF thumbnail when it has one (R12.14, exif-preview.ts). R12.15: the
// item joins the tray at once, ready to send, with a placeholder; the look-up fills it in when it
// answers (the preview, else the picked photo). A send never waits for it: an item sent before it
// answered goes without a preview (as a JPEG without one, R12.13), and the late answer is dropped.
import { useCallback, useEffect, useRef, useState } from 'react';
import type { LocalDraftFile } from '../../../../sync/model/local-types.ts';
import type { SyncEngine } from '../../../../sync/engine-api.ts';
import { useSyncEngine } from '../../../data/sync-context.ts';
import { toastError } from '../../../lib/notify.ts';
import { sk } from '../../../text/sk.ts';
import { isImage, isReencodedImage, MAX_ATTACHMENTS, mediaTypeOf, refusalOf, type Refusal } from './limits.ts';
import type * as ExifPreviewModule from './exif-preview.ts';
import { readPhotoHead } from './photo-head.ts';
import { noteTray, trackSave } from '../drafts.ts';
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
  /** The tray's order (R16.5: kept with the file). */
  position: number;
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

/** Releases an item's preview URLs (the picked bytes themselves go with the last reference). */
function revokeItem(item: DraftAttachment): void {
  if (item.thumbUrl) URL.revokeObjectURL(item.thumbUrl);
  if (item.fullUrl) URL.revokeObjectURL(item.fullUrl);
}

/**
 * R16.5: the row that keeps `item` (its file is always set once it is in the tray). A photo waiting for
 * its look-up is the one item with neither a thumbnail nor the need of none (R12.15's placeholder).
 */
function rowOf(conversationId: string, item: DraftAttachment): LocalDraftFile {
  const f = item.file!;
  return {
    id: item.id,
    conversationId,
    position: item.position,
    name: item.name,
    kind: item.kind,
    blob: f.blob,
    type: f.type,
    prepare: f.prepare === true,
    caption: item.caption,
    preview: f.preview ?? null,
    width: f.width ?? null,
    height: f.height ?? null,
    lookedUp: !looksUpPreview(f) || item.thumbUrl !== null,
  };
}

/** A kept row back in the tray, with preview URLs of its own (as `add` and `lookedUp` make them). */
function itemOf(row: LocalDraftFile): DraftAttachment {
  const file: AttachmentFileInput = {
    blob: row.blob,
    name: row.name,
    type: row.type,
    ...(row.prepare ? { prepare: true } : {}),
    ...(row.preview ? { preview: row.preview } : {}),
    ...(row.width && row.height ? { width: row.width, height: row.height } : {}),
  };
  const image = row.kind === 'image';
  const waiting = looksUpPreview(file) && !row.lookedUp;
  return {
    id: row.id,
    name: row.name,
    kind: row.kind,
    size: row.blob.size,
    caption: row.caption,
    file,
    thumbUrl: image && !waiting ? URL.createObjectURL(row.preview ?? row.blob) : null,
    fullUrl: image && row.preview ? URL.createObjectURL(row.blob) : null,
    position: row.position,
  };
}

const warn = (err: unknown) => console.warn('tray:', err);

/**
 * The tray of `conversationId`'s composer. It opens with the files kept for the conversation (R16.5)
 * and keeps every change there: added files, captions, look-up answers, removals. Sent items leave
 * it in the send's own transaction (send-with-attachments.ts `trayIds`).
 */
export function useAttachmentDraft(conversationId: string): AttachmentDraft {
  const engine = useSyncEngine();
  const [items, setItems] = useState<DraftAttachment[]>([]);
  const current = useRef(items);
  current.current = items;
  // Items removed or sent (R12.15: a look-up answering after that is dropped, its URLs revoked).
  const gone = useRef(new Set<string>());
  // Items not kept yet: added before the engine had loaded, or whose save failed. Only they exist in
  // this page alone, so only they hold an update back and make a reload ask first (drafts.ts).
  const unkept = useRef(new Set<string>());
  const engineRef = useRef<SyncEngine | null>(engine);
  engineRef.current = engine;
  const alive = useRef(true);

  const countUnkept = useCallback(() => noteTray(conversationId, unkept.current.size), [conversationId]);

  /** Saves rows; each becomes kept once its write commits (a failed one stays unkept and holds). */
  const keep = useCallback(
    (e: SyncEngine, rows: LocalDraftFile[]) => {
      if (rows.length === 0) return;
      void trackSave(e.commands.keepDraftFiles(rows)).then(() => {
        for (const r of rows) unkept.current.delete(r.id);
        if (alive.current) countUnkept();
      }, warn);
    },
    [countUnkept],
  );

  // R12.14: a JPEG's EXIF thumbnail is read aside (milliseconds; never the 12 MP decode): the tray
  // and the sending bubble show it, and it is kept with the file — if the item is still in the tray
  // when it answers (R12.15: sent or removed meanwhile, the answer is dropped). The chat closed
  // meanwhile: the kept row takes it, for when the chat opens again.
  const lookUp = useCallback(
    (item: DraftAttachment) => {
      void lookedUp(item).then((next) => {
        if (gone.current.has(item.id)) return revokeItem(next);
        const f = next.file!;
        const patch = { preview: f.preview ?? null, width: f.width ?? null, height: f.height ?? null, lookedUp: true };
        // A save still in flight commits first (IndexedDB runs overlapping writes in order); an item
        // not saved yet is saved whole, with this answer, once it can be.
        const e = engineRef.current;
        if (e) void trackSave(e.commands.updateDraftFile(item.id, patch).then(() => undefined)).catch(warn);
        if (!alive.current) return revokeItem(next);
        // The caption typed meanwhile stays.
        setItems((list) => list.map((i) => (i.id === item.id ? { ...next, caption: i.caption } : i)));
      });
    },
    [],
  );

  // The chat opens: its kept files join the tray (before any picked meanwhile), and files picked
  // before the engine had loaded are kept now.
  useEffect(() => {
    if (!engine) return;
    let live = true;
    const early = current.current.filter((i) => unkept.current.has(i.id));
    keep(engine, early.map((i) => rowOf(conversationId, i)));
    engine.commands.loadDraftFiles(conversationId).then((rows) => {
      if (!live) return;
      const shown = new Set(current.current.map((i) => i.id));
      const loaded = rows.filter((r) => !shown.has(r.id) && !gone.current.has(r.id)).map(itemOf);
      if (loaded.length === 0) return;
      setItems((list) => [...loaded, ...list].sort((a, b) => a.position - b.position));
      for (const item of loaded) if (looksUpPreview(item.file) && item.thumbUrl === null) lookUp(item);
    }, warn);
    return () => {
      live = false;
    };
  }, [engine, conversationId, keep, lookUp]);

  useEffect(() => {
    alive.current = true;
    countUnkept();
    const pending = unkept.current;
    return () => {
      alive.current = false;
      // Files still unkept (their save failed, or the engine never came) get one more try; only
      // then are they gone with the screen.
      const e = engineRef.current;
      const left = current.current.filter((i) => pending.has(i.id));
      if (e) keep(e, left.map((i) => rowOf(conversationId, i)));
      noteTray(conversationId, 0);
      // React's StrictMode (development) mounts again at once: URLs still shown are not revoked then.
      const shown = current.current;
      setTimeout(() => {
        if (!alive.current) shown.forEach(revokeItem);
      }, 0);
    };
  }, [conversationId, countUnkept, keep]);

  const update = useCallback((id: string, next: (item: DraftAttachment) => DraftAttachment) => {
    setItems((list) => list.map((item) => (item.id === id ? next(item) : item)));
  }, []);

  /** Drops items from the tray (removed, unreadable or sent) and from the kept files. */
  const drop = useCallback(
    (ids: readonly string[]) => {
      if (ids.length === 0) return;
      const set = new Set(ids);
      for (const id of ids) {
        gone.current.add(id);
        unkept.current.delete(id);
      }
      countUnkept();
      // A removal, and after a send too: the send's transaction removed its rows, and this also
      // removes a row whose save committed only after that transaction (never a sent file twice).
      if (engineRef.current) void trackSave(engineRef.current.commands.removeDraftFiles(ids)).catch(warn);
      setItems((list) => {
        list.filter((item) => set.has(item.id)).forEach(revokeItem);
        return list.filter((item) => !set.has(item.id));
      });
    },
    [countUnkept],
  );

  const add = useCallback(
    (files: readonly File[]) => {
      const room = MAX_ATTACHMENTS - current.current.length;
      const accepted: DraftAttachment[] = [];
      const at = Date.now() * 100;
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
          position: at + accepted.length,
        });
      }
      if (accepted.length === 0) return;
      for (const item of accepted) unkept.current.add(item.id);
      countUnkept();
      setItems((list) => [...list, ...accepted]);
      if (engineRef.current) keep(engineRef.current, accepted.map((i) => rowOf(conversationId, i)));
      for (const item of accepted.filter((i) => looksUpPreview(i.file))) lookUp(item);
    },
    [conversationId, countUnkept, keep, lookUp],
  );

  const setCaption = useCallback(
    (id: string, caption: string) => {
      update(id, (item) => ({ ...item, caption }));
      // After its save if that is still in flight (writes run in order); an item not saved yet is
      // saved whole, caption and all, once it can be.
      const e = engineRef.current;
      if (e) void trackSave(e.commands.updateDraftFile(id, { caption }).then(() => undefined)).catch(warn);
    },
    [update],
  );

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
