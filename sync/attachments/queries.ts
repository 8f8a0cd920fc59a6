// R12.3: what the UI reads of the attachment outbox (use with useLiveQuery). A message's
// payload.attachments[i].data_url is `local-attachment:<id>` (thumb_url `…#thumb`) until the server
// has the message; then the server's `storage:attachments/<path>`, and only the thumbnail stays here.
import type { SyncDb } from '../db/schema.ts';
import { LOCAL_REF } from './limits.ts';
import { previewId, thumbId, type JobState, type UploadState } from './rows.ts';

/** The attachment a `local-attachment:` reference names, or null for any other address. */
export function localAttachmentRef(url: string): { attachmentId: string; thumb: boolean; preview?: true } | null {
  if (!url.startsWith(LOCAL_REF)) return null;
  const rest = url.slice(LOCAL_REF.length);
  if (rest.endsWith('#preview')) {
    const attachmentId = rest.slice(0, -'#preview'.length);
    return attachmentId ? { attachmentId, thumb: false, preview: true } : null;
  }
  const thumb = rest.endsWith('#thumb');
  const attachmentId = thumb ? rest.slice(0, -'#thumb'.length) : rest;
  return attachmentId ? { attachmentId, thumb } : null;
}

/** The full blob while it is held, else the thumbnail, else null. */
export async function attachmentBlob(db: SyncDb, attachmentId: string): Promise<Blob | null> {
  const rows = await db.attachmentBlobs.bulkGet([attachmentId, thumbId(attachmentId)]);
  return rows[0]?.blob ?? rows[1]?.blob ?? null;
}

/** The thumbnail (kept after the send, R12.8), or null. */
export async function attachmentThumb(db: SyncDb, attachmentId: string): Promise<Blob | null> {
  return (await db.attachmentBlobs.get(thumbId(attachmentId)))?.blob ?? null;
}

/** R12.14: a photo's local preview while it is prepared (its EXIF thumbnail), or null. */
export async function attachmentPreview(db: SyncDb, attachmentId: string): Promise<Blob | null> {
  return (await db.attachmentBlobs.get(previewId(attachmentId)))?.blob ?? null;
}

export interface AttachmentUpload {
  attachmentId: string;
  /** The attachment id, or `<id>#thumb` for its thumbnail. */
  uploadId: string;
  messageKey: string;
  name: string;
  role: 'file' | 'thumb';
  /** Bytes the server holds (at chunk boundaries; subscribeUploadProgress has the bytes on the wire). */
  sent: number;
  total: number;
  state: UploadState;
  /** Slovak, when failed. */
  error: string | null;
}

/** The uploads of a message's attachments; empty once the server has the message. */
export async function attachmentUploads(db: SyncDb, messageKey: string): Promise<AttachmentUpload[]> {
  const rows = await db.attachmentUploads.where('messageKey').equals(messageKey).toArray();
  return rows.map((r) => ({ attachmentId: r.attachmentId, uploadId: r.id, messageKey, name: r.name, role: r.role, sent: r.sent, total: r.total, state: r.state, error: r.error }));
}

/** The message's attachment job: 'uploading' → 'sending' → 'sent' (or 'failed'); null when none. */
export async function attachmentJob(db: SyncDb, messageKey: string): Promise<{ state: JobState; error: string | null } | null> {
  const job = await db.attachmentJobs.get(messageKey);
  return job ? { state: job.state, error: job.error } : null;
}
