// R12.12: the attachment outbox as a service worker continues it for a Background Sync event, with
// no tab open. It is the engine's own uploader (attachments/uploader.ts, R12.4–R12.9) on the same
// database, run for single passes under the leader's Web Lock that flush.ts holds, with these
// differences, each for a reason:
//   - HTTP through fetch (fetch-http-stack.ts): a worker has no XMLHttpRequest;
//   - the mirrored session's access token (never refreshed here, session-store.ts);
//   - no back-off timers: a pass that could not finish leaves its rows as they are (URL and offset
//     stored, R12.5) and flush.ts rejects, so the browser fires the event again later;
//   - online by definition: the browser fires the event when the network is back.
import { fetchHttpStack } from '../attachments/fetch-http-stack.ts';
import { createUploader } from '../attachments/uploader.ts';
import type { SyncDb } from '../db/schema.ts';
import type { Clock } from '../model/clock.ts';
import type { MirroredSession } from './session-store.ts';

/** Retries belong to the browser's next sync event, not to timers in a worker that may be stopped. */
const noTimers: Clock = {
  now: () => Date.now(),
  setTimeout: () => 0 as unknown as ReturnType<Clock['setTimeout']>,
  clearTimeout: () => undefined,
};

/**
 * Attachment jobs that still need the network: uploading (unless an upload was refused, which waits
 * for the member's retry, R12.7, or holds a photo not yet prepared, which waits for a page, R12.13),
 * sending (R12.8 settles them) and removing (R12.9 tombstones).
 */
export async function attachmentWork(db: SyncDb): Promise<number> {
  const jobs = await db.attachmentJobs.where('state').anyOf('uploading', 'sending', 'removing').toArray();
  let n = 0;
  for (const job of jobs) {
    if (job.state !== 'uploading') n++;
    else if (!(await db.attachmentUploads.where('messageKey').equals(job.messageKey).toArray()).some((u) => u.state === 'failed' || u.original === true)) n++;
  }
  return n;
}

/** One uploader pass over the stored jobs: uploads, queues the sends they complete (R12.6), settles sent ones (R12.8). */
export async function attachmentPass(
  db: SyncDb,
  session: MirroredSession,
  opts: { now?: () => number; fetch?: typeof fetch; accountId?: string | null } = {},
): Promise<void> {
  let pass: Promise<unknown> = Promise.resolve();
  const uploader = createUploader({
    db,
    target: {
      endpoint: `${session.url.replace(/\/+$/, '')}/storage/v1/upload/resumable`,
      headers: async () => ({ authorization: `Bearer ${session.accessToken}` }),
    },
    online: () => true,
    accountId: () => opts.accountId ?? null,
    now: opts.now ?? Date.now,
    clock: noTimers,
    // No tab leads while the worker holds the leader's lock, so no send of a tab's can interleave.
    writeSend: (write) => write(),
    notify: () => undefined,
    track: (p) => {
      pass = p;
      return p;
    },
    httpStack: fetchHttpStack(opts.fetch),
  });
  try {
    uploader.kick();
    await pass.catch(() => undefined);
  } finally {
    uploader.stop();
  }
}
