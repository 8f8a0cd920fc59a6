// Issue 21 item 12: 'Žiadosť odoslaná {name}' only once the request message reached the server. The
// request is an ordinary message in the assistant's conversation (R1.10); this watches its state:
// 'sent' → the spec's success toast; 'failed' → the spec's failure toast; still queued after
// QUEUED_AFTER_MS (offline, a slow server) → say it waits, rather than claim it was sent, and keep
// watching: a request that waited is still told 'sent' (or 'failed') when it gets there, so the
// user never keeps 'it waits' as the last word about a request that went out.
import { REQUEST_SPECIALIST_PREFIX } from '../../../sync/model/texts.ts';
import type { SyncDb } from '../../../sync/db/schema.ts';

export const QUEUED_AFTER_MS = 6_000;
const POLL_MS = 200;
/** After 'queued' the request may wait for hours (offline); a slower look is enough then. */
const WAITING_POLL_MS = 1_000;

export type RequestDelivery = 'sent' | 'failed' | 'queued';

/**
 * Tells `report` what became of the request: at most one 'queued' (after `queuedAfterMs`), then
 * 'sent' or 'failed' when it gets there. Returns a stop function; it also stops by itself when the
 * local database closes (sign-out).
 */
export function watchRequestDelivery(
  db: SyncDb,
  conversationId: string,
  name: string,
  since: number,
  report: (d: RequestDelivery) => void,
  queuedAfterMs = QUEUED_AFTER_MS,
): () => void {
  const text = `${REQUEST_SPECIALIST_PREFIX}${name}`;
  const deadline = Date.now() + queuedAfterMs;
  let stopped = false;
  let toldQueued = false;
  const look = async (): Promise<void> => {
    if (stopped) return;
    const mine = await db.messages
      .where('conversationId')
      .equals(conversationId)
      .filter((m) => m.direction === 'user' && m.text === text && Date.parse(m.createdAt) >= since - 60_000)
      .toArray();
    if (stopped) return;
    const latest = mine.sort((a, b) => (a.createdAt < b.createdAt ? 1 : -1))[0];
    if (latest?.state === 'sent' || latest?.state === 'failed') {
      stopped = true;
      report(latest.state);
      return;
    }
    if (!toldQueued && Date.now() >= deadline) {
      toldQueued = true;
      report('queued');
    }
    setTimeout(() => void look().catch(() => (stopped = true)), toldQueued ? WAITING_POLL_MS : POLL_MS);
  };
  void look().catch(() => (stopped = true));
  return () => {
    stopped = true;
  };
}
