// R12.2/R12.3: sendWithAttachments. Every file is checked (type, size, count) and the device's free
// space asked (navigator.storage.estimate) BEFORE anything is written; then ONE transaction stores the
// message (state 'sending', shown at once, its attachments pointing at the local blobs), the blobs,
// their uploads and the job. Either all of it is stored or none: there is no half-written entry.
// The send itself is queued by the uploader (attachments/uploader.ts) after the last chunk (R12.6).
import type { SentHandle } from './send-message.ts';
import type { CommandContext } from './context.ts';
import { writeOptimisticMessage } from '../send/optimistic-message.ts';
import type { JsonObject } from '../model/json.ts';
import { isUuid } from '../model/ids.ts';
import {
  ALLOWED_TYPES,
  AttachmentRefusedError,
  baseType,
  localPreviewRef,
  localRef,
  MAX_ATTACHMENT_BYTES,
  MAX_ATTACHMENTS,
  QUOTA_MARGIN_BYTES,
  storageFileName,
  TEXT_ATTACH_COMPLETED,
  TEXT_ATTACH_EMPTY,
  TEXT_ATTACH_QUOTA,
  TEXT_ATTACH_TOO_LARGE,
  TEXT_ATTACH_TOO_MANY,
  TEXT_ATTACH_TYPE,
  type StorageEstimate,
} from '../attachments/limits.ts';
import { previewId, thumbId, type AttachmentBlobRow, type AttachmentUploadRow } from '../attachments/rows.ts';

export interface AttachmentFileInput {
  /**
   * R12.16: the attachment's id, a UUID the caller chose (as `correlationId`), else a fresh one. The
   * page names the preview it already holds in memory this way, so the sending bubble paints it
   * without waiting for the blob's read. An id already stored on this device is refused.
   */
  id?: string;
  /** Sent as it is, unless `prepare` is set (then it is the picked image, prepared by the engine). */
  blob: Blob;
  /**
   * R12.13: `blob` is an image as picked (EXIF, GPS): stored only on this device and shown at once,
   * prepared by the leading engine's `prepareImage` (downscaled, upright, no metadata), whose bytes
   * replace it before any upload. `thumb`, `width` and `height` come from that preparation.
   */
  prepare?: boolean;
  /** The name the user sees; the storage object gets a plain copy (limits.ts storageFileName). */
  name: string;
  /** MIME type (limits.ts ALLOWED_TYPES). */
  type: string;
  width?: number;
  height?: number;
  /** A small preview, uploaded beside the file and kept on the device after the file is released. */
  thumb?: Blob;
  /**
   * R12.14, with `prepare` only: the photo's own small preview (the EXIF thumbnail its camera wrote,
   * turned by its orientation), stored with the message for the bubble to paint at once; never
   * uploaded (no upload row), deleted when the photo is prepared.
   */
  preview?: Blob;
}

export interface SendWithAttachmentsInput {
  conversationId: string;
  /** The caption; may be empty. */
  text: string;
  files: AttachmentFileInput[];
  /** As sendMessage's: a UUID the caller chose, else a fresh one. */
  correlationId?: string;
  /** R16.5: the kept tray files these are; they leave the tray in the transaction that stores the message. */
  trayIds?: readonly string[];
}

function check(files: AttachmentFileInput[]): void {
  if (files.length === 0) throw new AttachmentRefusedError('empty', TEXT_ATTACH_EMPTY);
  if (files.length > MAX_ATTACHMENTS) throw new AttachmentRefusedError('too-many', TEXT_ATTACH_TOO_MANY);
  for (const f of files) {
    if (!ALLOWED_TYPES.has(baseType(f.type))) throw new AttachmentRefusedError('type', TEXT_ATTACH_TYPE, f.name);
    if (f.blob.size === 0) throw new AttachmentRefusedError('empty', TEXT_ATTACH_EMPTY, f.name);
    if (f.blob.size > MAX_ATTACHMENT_BYTES) throw new AttachmentRefusedError('too-large', TEXT_ATTACH_TOO_LARGE, f.name);
  }
}

/** R12.2: refused when the device reports less free space than the blobs plus a margin; unknown: allowed. */
async function checkQuota(estimate: StorageEstimate | null | undefined, bytes: number): Promise<void> {
  if (!estimate) return;
  const e = await estimate().catch(() => null);
  if (!e || typeof e.quota !== 'number') return;
  const free = e.quota - (e.usage ?? 0);
  if (free < bytes + QUOTA_MARGIN_BYTES) throw new AttachmentRefusedError('quota', TEXT_ATTACH_QUOTA);
}

const int = (n: number | undefined): number | null => (typeof n === 'number' && Number.isFinite(n) && n > 0 ? Math.round(n) : null);

/**
 * The message's `payload.attachments` entry R12.3 stores for file `f` under attachment id `id`. Pure
 * and exported: a page that chose the ids (R12.16) and the correlation id paints the sending bubble
 * from memory with the same entries before the transaction commits (bench row 14a), and the stored
 * row then takes its place under the same key with the same attachments.
 */
export function attachmentEntry(f: AttachmentFileInput, id: string): JsonObject {
  const type = baseType(f.type);
  const original = f.prepare === true && type.startsWith('image/');
  const preview = original && f.preview && f.preview.size > 0;
  return {
    id,
    file_type: type.startsWith('image/') ? 'image' : 'file',
    name: f.name,
    content_type: type,
    data_url: localRef(id),
    // R12.13: until prepared, the bubble shows the stored original itself (data_url); R12.14: first
    // its preview when the photo carried one.
    thumb_url: f.thumb && !original ? localRef(id, true) : preview ? localPreviewRef(id) : null,
    width: int(f.width),
    height: int(f.height),
    file_size: f.blob.size,
  };
}

export async function sendWithAttachments(ctx: CommandContext, input: SendWithAttachmentsInput): Promise<SentHandle> {
  if (input.correlationId !== undefined && !isUuid(input.correlationId)) throw new Error('correlationId must be a UUID');
  check(input.files);
  const bytes = input.files.reduce((n, f) => n + f.blob.size + (f.thumb?.size ?? 0) + (f.preview?.size ?? 0), 0);
  await checkQuota(ctx.estimate, bytes);
  const correlationId = (input.correlationId ?? ctx.newId()).toLowerCase();
  const text = input.text.trim();
  const ids = input.files.map((f) => {
    if (f.id !== undefined && !isUuid(f.id)) throw new Error('an attachment id must be a UUID');
    return (f.id ?? ctx.newId()).toLowerCase();
  });
  if (new Set(ids).size !== ids.length) throw new Error('attachment ids must differ');
  const uploads: AttachmentUploadRow[] = [];
  const blobs: AttachmentBlobRow[] = [];
  const entries: JsonObject[] = [];
  input.files.forEach((f, i) => {
    const id = ids[i]!;
    const type = baseType(f.type);
    const original = f.prepare === true && type.startsWith('image/');
    const row = { attachmentId: id, name: f.name, path: null, sent: 0, uploadUrl: null, state: original ? 'preparing' : 'waiting-network', error: null } as const;
    const file = { ...row, id, messageKey: '', role: 'file', fileName: storageFileName(f.name), contentType: type, total: f.blob.size, width: int(f.width), height: int(f.height) } as const;
    uploads.push(original ? { ...file, original: true } : file);
    blobs.push({ id, messageKey: '', blob: f.blob });
    const preview = original && f.preview && f.preview.size > 0 ? f.preview : null;
    if (preview) blobs.push({ id: previewId(id), messageKey: '', blob: preview });
    if (f.thumb && !original) {
      const thumbType = baseType(f.thumb.type) || 'image/jpeg';
      const ext = thumbType === 'image/webp' ? 'webp' : thumbType === 'image/png' ? 'png' : 'jpg';
      uploads.push({ ...row, id: thumbId(id), messageKey: '', role: 'thumb', fileName: `nahlad.${ext}`, contentType: thumbType, total: f.thumb.size, width: null, height: null });
      blobs.push({ id: thumbId(id), messageKey: '', blob: f.thumb });
    }
    entries.push(attachmentEntry(f, id));
  });
  const gate = ctx.writeGate?.();
  if (gate) await gate;
  const { db } = ctx;
  const written = await db.transaction('rw', [...db.syncTables, ...db.attachmentTables, db.draftFiles], async () => {
    // R12.16: a caller's id must be new here (bulkPut below would overwrite another message's blobs).
    if ((await db.attachmentBlobs.where('id').anyOf(ids).count()) > 0) throw new Error('an attachment id is already stored');
    const w = await writeOptimisticMessage(db, {
      conversationId: input.conversationId,
      text,
      correlationId,
      payload: { attachments: entries },
      userId: ctx.userId,
      now: ctx.now(),
      onlyIfActive: true,
      hold: true,
    });
    if (!w) return null;
    const messageKey = w.message.key;
    await Promise.all([
      db.attachmentUploads.bulkPut(uploads.map((u) => ({ ...u, messageKey }))),
      db.attachmentBlobs.bulkPut(blobs.map((b) => ({ ...b, messageKey }))),
      db.attachmentJobs.put({ messageKey, conversationId: input.conversationId, correlationId, text, attachmentIds: ids, state: 'uploading', error: null, createdAt: ctx.now() }),
      db.draftFiles.bulkDelete([...(input.trayIds ?? [])]),
    ]);
    return w;
  });
  if (!written) throw new AttachmentRefusedError('completed', TEXT_ATTACH_COMPLETED);
  ctx.notify();
  return { key: written.message.key, correlationId };
}
