// R12.13: a picked photo is stored as the member picked it (the own bubble shows at once, R12.3) and
// prepared afterwards by the leading engine: downscaled, turned upright and re-encoded without its
// metadata (EXIF, GPS) by the `prepareImage` the app gives the engine (the canvas work lives in the
// app: src/pages/chat/attachments/prepare-image.ts). The invariants:
//   - an upload row with `original` set holds the picked bytes: the uploader never sends them
//     (uploader.ts checks it before every upload), so EXIF/GPS never leave the device;
//   - the prepared bytes REPLACE the original in one transaction with the upload rows and the
//     message's payload entry: the original is kept on the device only until it is prepared, and so
//     is its local preview (R12.14, the EXIF thumbnail, deleted in that transaction);
//   - a preparation that did not finish (the tab closed) leaves the original and its row as they
//     were, so the next leading engine prepares it again from the stored original: nothing picked is
//     lost; a preparation that failed (the image cannot be decoded here) marks the row `failed` with
//     a Slovak text on the bubble and keeps the original for retry or cancel (R12.7).
import type { SyncDb } from '../db/schema.ts';
import type { JsonObject } from '../model/json.ts';
import { ALLOWED_TYPES, baseType, localRef, MAX_ATTACHMENT_BYTES, storageFileName, TEXT_ATTACH_PREPARE_FAILED, TEXT_ATTACH_TOO_LARGE } from './limits.ts';
import { previewId, thumbId, type AttachmentUploadRow } from './rows.ts';

/** What preparation hands back: the bytes to upload (no metadata) and a small thumbnail. */
export interface PreparedImage {
  blob: Blob;
  name: string;
  type: string;
  width: number;
  height: number;
  thumb: Blob;
}

/** The app's image preparation (canvas work); throws when the image cannot be decoded here. */
export type ImagePreparer = (original: Blob, name: string, type: string) => Promise<PreparedImage>;

const thumbName = (type: string) => `nahlad.${type === 'image/webp' ? 'webp' : type === 'image/png' ? 'png' : 'jpg'}`;

/** The refusal of prepared bytes (R12.1's limits), or null. */
function refusalOf(p: PreparedImage): string | null {
  if (!ALLOWED_TYPES.has(baseType(p.type)) || p.blob.size === 0) return TEXT_ATTACH_PREPARE_FAILED;
  if (p.blob.size > MAX_ATTACHMENT_BYTES) return TEXT_ATTACH_TOO_LARGE;
  return null;
}

/** Marks the original's row failed (kept, R12.7's retry prepares it again); false when it is gone. */
async function fail(db: SyncDb, row: AttachmentUploadRow, error: string): Promise<boolean> {
  return (await db.attachmentUploads.where('id').equals(row.id).filter((r) => r.original === true).modify({ state: 'failed', error })) > 0;
}

/**
 * Prepares one stored original and puts the prepared bytes in its place. 'prepared' when replaced,
 * 'failed' when preparation failed (told on the row), 'gone' when the row was cancelled or already
 * prepared meanwhile (another engine's preparation won; this result is dropped).
 */
export async function prepareStored(db: SyncDb, row: AttachmentUploadRow, prepare: ImagePreparer): Promise<'prepared' | 'failed' | 'gone'> {
  const stored = await db.attachmentBlobs.get(row.id);
  if (!stored) return (await fail(db, row, TEXT_ATTACH_PREPARE_FAILED)) ? 'failed' : 'gone';
  await db.attachmentUploads.where('id').equals(row.id).filter((r) => r.original === true && r.state !== 'failed').modify({ state: 'preparing' });
  let prepared: PreparedImage;
  try {
    prepared = await prepare(stored.blob, row.name, row.contentType);
  } catch (err) {
    console.warn('attachment preparation failed:', err);
    return (await fail(db, row, TEXT_ATTACH_PREPARE_FAILED)) ? 'failed' : 'gone';
  }
  const refusal = refusalOf(prepared);
  if (refusal) return (await fail(db, row, refusal)) ? 'failed' : 'gone';
  const type = baseType(prepared.type);
  const thumbType = baseType(prepared.thumb.type) || 'image/jpeg';
  return db.transaction('rw', [db.messages, ...db.attachmentTables], async () => {
    const current = await db.attachmentUploads.get(row.id);
    if (!current?.original) return 'gone';
    const { messageKey } = current;
    const common = { attachmentId: row.attachmentId, messageKey, name: prepared.name, path: null, sent: 0, uploadUrl: null, state: 'waiting-network', error: null } as const;
    await db.attachmentUploads.put({
      ...common,
      id: row.id,
      role: 'file',
      fileName: storageFileName(prepared.name),
      contentType: type,
      total: prepared.blob.size,
      width: prepared.width,
      height: prepared.height,
    });
    await db.attachmentUploads.put({ ...common, id: thumbId(row.id), role: 'thumb', fileName: thumbName(thumbType), contentType: thumbType, total: prepared.thumb.size, width: null, height: null });
    // The original's bytes are overwritten here: from this commit only the prepared ones exist. Its
    // local preview (R12.14, the EXIF thumbnail) goes with it: the prepared thumbnail replaces it.
    await db.attachmentBlobs.delete(previewId(row.id));
    await db.attachmentBlobs.bulkPut([
      { id: row.id, messageKey, blob: prepared.blob },
      { id: thumbId(row.id), messageKey, blob: prepared.thumb },
    ]);
    const message = await db.messages.get(messageKey);
    const list = message?.payload?.['attachments'];
    if (message && Array.isArray(list)) {
      const attachments = list.map((e) =>
        (e as JsonObject)['id'] === row.attachmentId
          ? { ...(e as JsonObject), name: prepared.name, content_type: type, file_size: prepared.blob.size, width: prepared.width, height: prepared.height, thumb_url: localRef(row.attachmentId, true) }
          : e,
      );
      await db.messages.update(messageKey, { payload: { ...message.payload, attachments } });
    }
    return 'prepared';
  });
}
