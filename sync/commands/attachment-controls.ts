// R12.7: cancel and retry of a message with attachments, before its send is queued.
import type { CommandContext } from './context.ts';
import { refreshSummaries } from '../db/summary-store.ts';

/**
 * Cancel: only while the job is still uploading (or failed before its send was queued); the running
 * upload is stopped first (`abort`), then the message, its blobs, uploads and job go in one
 * transaction. False once the send is queued or the server has it (then it is a sent message).
 */
export async function cancelAttachments(ctx: CommandContext, messageKey: string, abort: (key: string) => Promise<void>): Promise<boolean> {
  const { db } = ctx;
  const job = await db.attachmentJobs.get(messageKey);
  if (!job || job.state !== 'uploading') return false;
  await abort(messageKey);
  const done = await db.transaction('rw', [...db.syncTables, ...db.attachmentTables], async () => {
    const current = await db.attachmentJobs.get(messageKey);
    if (!current || current.state !== 'uploading') return false;
    await Promise.all([
      db.attachmentBlobs.where('messageKey').equals(messageKey).delete(),
      db.attachmentUploads.where('messageKey').equals(messageKey).delete(),
      db.attachmentJobs.delete(messageKey),
      db.messages.delete(messageKey),
    ]);
    await refreshSummaries(db, [current.conversationId]);
    return true;
  });
  if (done) ctx.notify();
  return done;
}

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
