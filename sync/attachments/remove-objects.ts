// R12.9: what a cancelled message had already put on the server is removed, as the user. Cancel
// (attachment-controls.ts) deletes everything local at once and leaves the job as a 'removing'
// tombstone naming the objects the server may hold; the leading engine's uploader pass sends the
// removal when it is online and deletes the tombstone once the server has answered:
//   * stored objects: DELETE `<storage>/object/attachments` with `{ prefixes: [paths] }`, storage-js'
//     `remove()` request (supabase/storage src/http/routes/object/deleteObjects.ts). Storage's RLS
//     decides (policy attachments_delete, migration 20261128000400: a member deletes in their
//     account's folder); names it does not hold are skipped, not refused, so every path the upload
//     rows named is listed (an object committed just as the cancel stopped its upload included).
//   * unfinished TUS uploads: terminated (TUS `DELETE <upload url>`, the termination extension
//     Supabase's resumable endpoint serves), so their partial bytes do not wait for expiry.
// A failure without an answer waits (the pass's back-off and `online`); a refusal (4xx but 401, 408,
// 429) will not change by trying again, so the tombstone goes: a removal is never retried forever.
import type { UploadTarget } from './uploader.ts';

export interface RemovalJob {
  removePaths?: string[];
  removeUploadUrls?: string[];
}

/** The storage API's address: the TUS endpoint without its `/upload/resumable`. */
export function storageBase(target: UploadTarget): string {
  return target.endpoint.replace(/\/upload\/resumable\/?$/, '');
}

const retryable = (status: number) => status >= 500 || [401, 408, 429].includes(status);

/** 'done' once the server answered every request (done or refused); 'wait' when one got no answer. */
export async function removeStored(target: UploadTarget, bucket: string, job: RemovalJob): Promise<'done' | 'wait'> {
  const headers = await target.headers();
  const send = async (url: string, init: RequestInit): Promise<boolean> => {
    try {
      const res = await fetch(url, { ...init, signal: AbortSignal.timeout(30_000) });
      await res.body?.cancel();
      return !retryable(res.status);
    } catch {
      return false; // no answer
    }
  };
  const paths = job.removePaths ?? [];
  const answered = await Promise.all([
    paths.length === 0
      ? true
      : send(`${storageBase(target)}/object/${bucket}`, {
          method: 'DELETE',
          headers: { ...headers, 'content-type': 'application/json' },
          body: JSON.stringify({ prefixes: paths }),
        }),
    ...(job.removeUploadUrls ?? []).map((url) => send(url, { method: 'DELETE', headers: { ...headers, 'tus-resumable': '1.0.0' } })),
  ]);
  return answered.every(Boolean) ? 'done' : 'wait';
}
