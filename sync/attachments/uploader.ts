// R12.4–R12.8: the attachment outbox's way to the server, run by the leading engine. One pass at a
// time (kick() while a pass runs asks for another one after it):
//   1. jobs 'uploading': their objects go up one after another through TUS (tus-js-client, 6 MB
//      chunks) to {account}/{conversation}/{attachment}/{file}. The upload URL is stored as soon as
//      the server made it and the accepted offset after each chunk, so a restarted engine resumes at
//      the server's offset (a HEAD), never from zero (R12.5). Offline nothing is tried: the rows say
//      'waiting-network' (R12.4). A failure without an answer (link lost, 5xx, 409/423 offset races)
//      waits and is tried again with back-off; a 4xx refusal marks the upload 'failed' with a Slovak
//      text until retry() (R12.7).
//   R12.13: before any of that, a job's picked originals are prepared (prepare.ts) — offline too —
//      and only their prepared bytes are ever uploaded; without a preparer (the service worker)
//      such a job waits for a page.
//   2. once every object of a job is uploaded: the send is queued in the ordinary outbox in one
//      transaction with the job's move to 'sending' (R12.6), so it goes exactly once by R1's rules
//      (the same correlation id across retries, the server's idempotent send_message).
//   3. jobs 'sending': once the server has the message (its row carries a server id) the full blobs
//      are deleted and the thumbnails kept (R12.8); a refused send marks the job 'failed'.
import { Dexie } from 'dexie';
import * as tus from 'tus-js-client';
import type { SyncDb } from '../db/schema.ts';
import type { Clock, TimerId } from '../model/clock.ts';
import type { JsonObject } from '../model/json.ts';
import { queue, type OutboxOp } from '../send/outbox.ts';
import { withWrittenAt } from '../send/written-at.ts';
import { blobReader } from './blob-reader.ts';
import { prepareStored, type ImagePreparer } from './prepare.ts';
import { removeStored } from './remove-objects.ts';
import { TEXT_ATTACH_SEND_REFUSED, TEXT_ATTACH_TOO_LARGE, TEXT_ATTACH_TYPE, TEXT_ATTACH_UPLOAD_REFUSED, TUS_CHUNK_BYTES } from './limits.ts';
import { thumbId, type AttachmentJobRow, type AttachmentUploadRow } from './rows.ts';

/** Where uploads go and with which credentials (asked before every upload: tokens are refreshed). */
export interface UploadTarget {
  /** The TUS endpoint: `<project url>/storage/v1/upload/resumable`. */
  endpoint: string;
  headers(): Promise<Record<string, string>>;
}

export interface UploadProgress {
  attachmentId: string;
  /** The upload's id: the attachment id, or `<id>#thumb`. */
  uploadId: string;
  sent: number;
  total: number;
}

export interface UploaderDeps {
  db: SyncDb;
  target: UploadTarget;
  online: () => boolean;
  accountId: () => string | null;
  now: () => number;
  clock: Clock;
  /** Writes that queue a send (the writers lock, R1.13: send/writers.ts opaque). */
  writeSend: <T>(write: () => Promise<T>) => Promise<T>;
  /** The outbox changed: flush it. */
  notify: () => void;
  track: <T>(p: Promise<T>) => Promise<T>;
  /** Bytes on the wire, as tus reports them (the engine's subscribeUploadProgress). */
  onProgress?: (p: UploadProgress) => void;
  chunkSize?: number;
  /** Back-off after failures without an answer (ms), the last one repeated. */
  retryDelaysMs?: readonly number[];
  /** tus-js-client's HTTP stack; its default (XMLHttpRequest in browsers) when absent. The service
   *  worker, which has no XMLHttpRequest, passes fetch-http-stack.ts (R12.12). */
  httpStack?: tus.HttpStack;
  /** R12.13: prepares picked photos before upload; absent (the service worker): their jobs wait for a page. */
  prepare?: ImagePreparer | null;
}

export interface Uploader {
  kick(): void;
  /** Stops the running upload of this message (cancel): its rows stay as they are. */
  abortMessage(messageKey: string): Promise<void>;
  /** stop(): the running request is aborted; what was stored stays for the next engine (R12.5). */
  stop(): void;
}

const DEFAULT_RETRY_MS = [1000, 3000, 10_000, 30_000];
const BUCKET = 'attachments';

/** The HTTP status of a tus-js-client failure, 0 when there was no answer. */
function statusOf(err: unknown): number {
  const res = (err as { originalResponse?: { getStatus(): number } | null }).originalResponse;
  return res ? res.getStatus() : 0;
}

/** R12.7: refusals that will not change by trying again; everything else is waited out. */
function refusalText(status: number): string | null {
  if (status === 413) return TEXT_ATTACH_TOO_LARGE;
  if (status === 415) return TEXT_ATTACH_TYPE;
  if (status >= 400 && status < 500 && ![401, 408, 409, 423, 429].includes(status)) return TEXT_ATTACH_UPLOAD_REFUSED;
  return null;
}

export function createUploader(d: UploaderDeps): Uploader {
  const { db } = d;
  /** The upload on the wire; `end` settles its wait (tus-js-client calls nothing back after abort()). */
  let running: { upload: tus.Upload; messageKey: string; end: () => void } | null = null;
  let pass: Promise<void> | null = null;
  let again = false;
  let stopped = false;
  let failures = 0;
  let timer: TimerId | null = null;
  /** A job waits for its message's server row (R12.8): every committed write to messages asks again. */
  let awaitingServer = false;
  const messagesPrefix = `idb://${db.name}/messages/`;
  const onStorage = (parts: Record<string, unknown>) => {
    if (awaitingServer && Object.keys(parts).some((k) => k.startsWith(messagesPrefix))) kick();
  };
  Dexie.on('storagemutated', onStorage);

  const emit = (p: UploadProgress) => d.onProgress?.(p);

  function later() {
    if (timer !== null || stopped) return;
    const delays = d.retryDelaysMs ?? DEFAULT_RETRY_MS;
    const ms = delays[Math.min(failures, delays.length - 1)] ?? 1000;
    failures++;
    timer = d.clock.setTimeout(() => {
      timer = null;
      kick();
    }, ms);
  }

  function kick() {
    if (stopped) return;
    if (pass) {
      again = true;
      return;
    }
    pass = d.track(
      (async () => {
        do {
          again = false;
          await onePass();
        } while (again && !stopped);
      })(),
    )
      .catch(() => later())
      .finally(() => {
        pass = null;
      });
  }

  async function onePass() {
    const jobs = await db.attachmentJobs.where('state').anyOf('uploading', 'sending', 'removing').sortBy('createdAt');
    awaitingServer = jobs.some((j) => j.state === 'sending');
    // R12.9 first: a cancelled message's objects are removed whatever waits behind an upload.
    for (const job of jobs.filter((j) => j.state === 'removing')) {
      if (stopped || !d.online()) break;
      if ((await removeStored(d.target, BUCKET, job)) === 'done') await db.attachmentJobs.delete(job.messageKey);
      else later();
    }
    for (const job of jobs) {
      if (stopped) return;
      if (job.state === 'sending') await settleSending(job);
      else if (job.state === 'uploading' && !(await uploadJob(job))) return; // waiting: the later jobs wait too (their order is the user's)
    }
  }

  /** True when the job needs nothing more from this pass. */
  async function uploadJob(job: AttachmentJobRow): Promise<boolean> {
    const rows = await db.attachmentUploads.where('messageKey').equals(job.messageKey).toArray();
    if (rows.some((r) => r.state === 'failed')) return true; // R12.7: until retry
    const originals = rows.filter((r) => r.original === true);
    if (originals.length > 0) {
      if (!d.prepare) return false; // R12.13: kept as picked until a page prepares it
      for (const row of originals) {
        if (stopped) return false;
        if ((await prepareStored(db, row, d.prepare)) === 'failed') return true;
      }
      return uploadJob(job); // the rows as prepared (or gone, when cancelled meanwhile)
    }
    const pending = rows.filter((r) => r.state !== 'uploaded');
    if (pending.length === 0) {
      await queueSend(job);
      return true;
    }
    if (!d.online()) {
      await markWaiting(pending);
      return false;
    }
    for (const row of order(job, pending)) {
      if (stopped) return false;
      const outcome = await uploadOne(job, row);
      if (outcome === 'wait') {
        later();
        return false;
      }
      if (outcome === 'failed') return true;
    }
    failures = 0;
    const after = await db.attachmentUploads.where('messageKey').equals(job.messageKey).toArray();
    if (after.every((r) => r.state === 'uploaded')) await queueSend(job);
    return true;
  }

  /** The files in the user's order, each thumbnail right after its file. */
  function order(job: AttachmentJobRow, rows: AttachmentUploadRow[]): AttachmentUploadRow[] {
    const byId = new Map(rows.map((r) => [r.id, r]));
    return job.attachmentIds.flatMap((id) => [byId.get(id), byId.get(thumbId(id))]).filter((r): r is AttachmentUploadRow => r !== undefined);
  }

  async function markWaiting(rows: AttachmentUploadRow[]) {
    const ids = rows.filter((r) => r.state !== 'waiting-network').map((r) => r.id);
    if (ids.length) await db.attachmentUploads.where('id').anyOf(ids).modify({ state: 'waiting-network' });
  }

  async function pathFor(job: AttachmentJobRow, row: AttachmentUploadRow): Promise<string | null> {
    if (row.path) return row.path;
    const account = (await db.conversations.get(job.conversationId))?.accountId ?? d.accountId();
    if (!account) return null;
    const path = `${account}/${job.conversationId}/${row.attachmentId}/${row.fileName}`;
    await db.attachmentUploads.update(row.id, { path });
    return path;
  }

  async function uploadOne(job: AttachmentJobRow, row: AttachmentUploadRow): Promise<'done' | 'wait' | 'failed'> {
    // R12.13: the picked original never leaves the device, whatever a caller passed here.
    if (row.original || (await db.attachmentUploads.get(row.id))?.original) return 'wait';
    const [stored, path] = await Promise.all([db.attachmentBlobs.get(row.id), pathFor(job, row)]);
    if (!stored) {
      await db.attachmentUploads.update(row.id, { state: 'failed', error: TEXT_ATTACH_UPLOAD_REFUSED });
      return 'failed';
    }
    if (!path) return 'wait'; // the account is not known yet (first start offline)
    const headers = await d.target.headers();
    await db.attachmentUploads.update(row.id, { state: 'uploading', error: null });
    let lastSent = row.sent;
    const result = await new Promise<{ ok: true } | { ok: false; status: number }>((resolve) => {
      const upload = new tus.Upload(stored.blob, {
        endpoint: d.target.endpoint,
        uploadUrl: row.uploadUrl,
        chunkSize: d.chunkSize ?? TUS_CHUNK_BYTES,
        retryDelays: [], // the back-off is ours (later()), measured on the engine's clock
        headers: { ...headers, 'x-upsert': 'true' },
        metadata: { bucketName: BUCKET, objectName: path, contentType: row.contentType, cacheControl: '3600' },
        fileReader: blobReader,
        ...(d.httpStack ? { httpStack: d.httpStack } : {}),
        storeFingerprintForResuming: false, // R12.5: the URL is stored in the upload's own row instead
        onUploadUrlAvailable: () => {
          if (upload.url && upload.url !== row.uploadUrl) void db.attachmentUploads.update(row.id, { uploadUrl: upload.url }).catch(() => undefined);
        },
        onChunkComplete: (_size, accepted) => {
          lastSent = accepted;
          void db.attachmentUploads.update(row.id, { sent: accepted }).catch(() => undefined);
        },
        onProgress: (sent, total) => emit({ attachmentId: row.attachmentId, uploadId: row.id, sent, total }),
        onSuccess: () => resolve({ ok: true }),
        onError: (err) => resolve({ ok: false, status: statusOf(err) }),
      });
      running = { upload, messageKey: job.messageKey, end: () => resolve({ ok: false, status: 0 }) };
      if (stopped) resolve({ ok: false, status: 0 });
      else upload.start();
    });
    running = null;
    if (stopped) return 'wait';
    if (result.ok) {
      await db.attachmentUploads.update(row.id, { state: 'uploaded', sent: row.total, error: null });
      emit({ attachmentId: row.attachmentId, uploadId: row.id, sent: row.total, total: row.total });
      return 'done';
    }
    const refusal = refusalText(result.status);
    if (refusal) {
      await db.attachmentUploads.update(row.id, { state: 'failed', error: refusal, sent: lastSent });
      return 'failed';
    }
    await db.attachmentUploads.update(row.id, { state: 'waiting-network', sent: lastSent });
    return 'wait';
  }

  /** R12.6: the send, queued once, in the same transaction as the job's move to 'sending'. */
  async function queueSend(job: AttachmentJobRow) {
    const queued = await d.writeSend(() =>
      db.transaction('rw', [...db.syncTables, ...db.attachmentTables], async () => {
        const current = await db.attachmentJobs.get(job.messageKey);
        if (current?.state !== 'uploading') return false;
        const [rows, conversation, message] = await Promise.all([
          db.attachmentUploads.where('messageKey').equals(job.messageKey).toArray(),
          db.conversations.get(job.conversationId),
          db.messages.get(job.messageKey),
        ]);
        const byId = new Map(rows.map((r) => [r.id, r]));
        const attachments: JsonObject[] = current.attachmentIds.map((id) => {
          const file = byId.get(id);
          const thumb = byId.get(thumbId(id));
          return { id, path: file?.path ?? null, thumb_path: thumb?.path ?? null, name: file?.name ?? null, width: file?.width ?? null, height: file?.height ?? null };
        });
        const op: OutboxOp = {
          kind: 'send',
          conversationId: job.conversationId,
          correlationId: job.correlationId,
          messageKey: job.messageKey,
          text: job.text,
          // R1.14: when the message was written (its local time), not when its files finished uploading.
          payload: message ? withWrittenAt({ attachments }, message.createdAt) : { attachments },
          accountId: conversation?.accountId ?? null,
        };
        await queue(db, op, d.now());
        await db.attachmentJobs.update(job.messageKey, { state: 'sending' });
        return true;
      }),
    );
    if (!queued) return;
    awaitingServer = true;
    d.notify();
  }

  /** R12.8: the server has the message: the full blobs go, the thumbnails stay. */
  async function settleSending(job: AttachmentJobRow) {
    await db.transaction('rw', [db.messages, ...db.attachmentTables], async () => {
      const m = await db.messages.get(job.messageKey);
      if (m?.serverId) {
        await db.attachmentBlobs.where('id').anyOf(job.attachmentIds).delete();
        await db.attachmentUploads.where('messageKey').equals(job.messageKey).delete();
        await db.attachmentJobs.update(job.messageKey, { state: 'sent' });
      } else if (!m || m.state === 'failed') {
        await db.attachmentJobs.update(job.messageKey, { state: 'failed', error: m?.error ?? TEXT_ATTACH_SEND_REFUSED });
      }
    });
  }

  return {
    kick,
    async abortMessage(messageKey) {
      const r = running;
      if (!r || r.messageKey !== messageKey) return;
      r.end();
      await r.upload.abort(true).catch(() => undefined);
    },
    stop() {
      stopped = true;
      Dexie.on('storagemutated').unsubscribe(onStorage);
      if (timer !== null) d.clock.clearTimeout(timer);
      timer = null;
      const r = running;
      running = null;
      // Not terminated: the server keeps the bytes it has, the next engine resumes there (R12.5).
      if (!r) return;
      r.end();
      void r.upload.abort(false).catch(() => undefined);
    },
  };
}
