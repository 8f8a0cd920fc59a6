// Messages still in this device's outbox. Sign-out deletes the local database (R1.11), so these would
// be lost: the session card asks before it signs out while this is above zero.
import type { OutboxEntry } from '../../../sync/send/outbox.ts';

/** Invariant: counts each typed text that has not reached the server, once (a send, or a start that carries one). */
export function isUnsentText(entry: OutboxEntry): boolean {
  return entry.op.kind === 'send' || (entry.op.kind === 'start' && entry.op.thenSend !== null);
}
