// Issue 21 item 12: 'Žiadosť odoslaná {name}' only once the request message reached the server. The
// request is an ordinary message in the assistant's conversation (R1.10); this watches its state:
// 'sent' → the spec's success toast; 'failed' → the spec's failure toast; still queued after
// QUEUED_AFTER_MS (offline, a slow server) → say it waits, rather than claim it was sent.
import { REQUEST_SPECIALIST_PREFIX } from '../../../sync/model/texts.ts';
import type { SyncDb } from '../../../sync/db/schema.ts';

export const QUEUED_AFTER_MS = 6_000;
const POLL_MS = 200;

export type RequestDelivery = 'sent' | 'failed' | 'queued';

export async function requestDelivery(db: SyncDb, conversationId: string, name: string, since: number): Promise<RequestDelivery> {
  const text = `${REQUEST_SPECIALIST_PREFIX}${name}`;
  const deadline = Date.now() + QUEUED_AFTER_MS;
  for (;;) {
    const mine = await db.messages
      .where('conversationId')
      .equals(conversationId)
      .filter((m) => m.direction === 'user' && m.text === text && Date.parse(m.createdAt) >= since - 60_000)
      .toArray();
    const latest = mine.sort((a, b) => (a.createdAt < b.createdAt ? 1 : -1))[0];
    if (latest?.state === 'sent') return 'sent';
    if (latest?.state === 'failed') return 'failed';
    if (Date.now() >= deadline) return 'queued';
    await new Promise((r) => setTimeout(r, POLL_MS));
  }
}
