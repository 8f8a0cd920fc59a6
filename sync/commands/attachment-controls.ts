// R12.7: cancel and retry of a message with attachments, before its send is queued.
import type { CommandContext } from './context.ts';
import { refreshSummaries } from '../db/summary-store.ts';

/**
 * Cancel: while the job is still uploading (R12.7), or once the server refused its send (the job
 * 'failed', R12.8: the user gives the message up). The running upload is stopped first (`abort`,
 * which terminates it), then the message, its blobs and uploads go in one transaction, and the job
 * becomes a 'removing' tombstone naming what the server may hold, removed as the user by the
 * uploader (R12.9, attachments/remove-objects.ts); a job that never reached the server just goes.
 * False once the send is queued or the server has the message (then it is a sent message).
 */
export async function cancelAttachments(ctx: CommandContext, messageKey: string, abort: (key: string) => Promise<void>): Promise<boolean> {
  const { db } = ctx;
  const job = await db.attachmentJobs.get(messageKey);
  if (!job || !cancellable(job.state)) return false;
  await abort(messageKey);
  const done = await db.transaction('rw', [...db.syncTables, ...db.attachmentTables], async () => {
    const current = await db.attachmentJobs.get(messageKey);
    if (!current || !cancellable(current.state)) return false;
    const uploads = await db.attachmentUploads.where('messageKey').equals(messageKey).toArray();
    const removePaths = uploads.flatMap((u) => (u.path ? [u.path] : []));
    const removeUploadUrls = uploads.flatMap((u) => (u.uploadUrl && u.state !== 'uploaded' ? [u.uploadUrl] : []));
    await Promise.all([
      db.attachmentBlobs.where('messageKey').equals(messageKey).delete(),
      db.attachmentUploads.where('messageKey').equals(messageKey).delete(),
      removePaths.length + removeUploadUrls.length > 0
        ? db.attachmentJobs.put({ ...current, state: 'removing', text: '', error: null, removePaths, removeUploadUrls })
        : db.attachmentJobs.delete(messageKey),
      db.messages.delete(messageKey),
    ]);
    await refreshSummaries(db, [current.conversationId]);
    return true;
  });
  if (done) ctx.notify();
  return done;
}

const cancellable = (state: string) => state === 'uploading' || state === 'failed';

/** Retry: uploads the server refused (state 'failed') are tried again; false when none was. */
export async function retryAttachments(ctx: CommandContext, messageKey: string): Promise<boolean> {
  const { db } = ctx;
  const n = await db.transaction('rw', db.attachmentTables, async () => {
    const job = await db.attachmentJobs.get(messageKey);
    if (!job || job.state !== 'uploading') return 0;
    return db.attachmentUploads
      .where('messageKey')
      .equals(messageKey)
      .filter((r) => r.state === 'failed')
      .modify({ state: 'waiting-network', error: null });
  });
  if (n > 0) ctx.notify();
  return n > 0;
}
