// A per-user cap on notifications in flight (issue 36 N3, sync/SPEC.md R10.18). Without it one member
// with many due notifications and devices that never answer took every send slot of the local worker
// (64) for the 10 s answer timeout, and everyone else's notifications waited behind them. Now at most
// PER_USER_IN_FLIGHT notifications of one user are being sent at once; a claimed notification over
// the cap goes back to the queue (defer_push_notifications, due again after DEFER_SECONDS, not
// counted as an attempt) and holds no slot while it waits. The cap is the app's own choice: hosted
// Supabase has no push service to match. Four is above what a chat produces for one person at once
// (an AI burst is one reply, R-N5; a specialist's messages come seconds apart).
import { CappedCounts } from '../capped-counts.ts';
import type { Db } from '../clients.ts';
import type { ClaimedNotification } from './payload.ts';

export const PER_USER_IN_FLIGHT = 4;
export const DEFER_SECONDS = 1;

/** Notifications in flight per user (take() before a send, free() once its answers are recorded). */
export class UserSlots extends CappedCounts {
  constructor() {
    super(() => PER_USER_IN_FLIGHT);
  }
}

export interface Admitted {
  notification: ClaimedNotification;
  user: string;
}

/** Takes a slot for each claimed notification whose user has one free and hands the others back to
 *  the queue. The caller frees each admitted notification's slot when its send is recorded. */
export async function admit(db: Db, batch: ClaimedNotification[], slots: UserSlots): Promise<Admitted[]> {
  if (batch.length === 0) return [];
  const owners = await db.from('push_notifications').select('id, user_id').in('id', batch.map((n) => n.id));
  if (owners.error) throw new Error(`push_notifications owners: ${owners.error.message}`);
  const userOf = new Map((owners.data as { id: string; user_id: string }[]).map((r) => [r.id, r.user_id]));
  const admitted: Admitted[] = [];
  const deferred: string[] = [];
  for (const n of batch) {
    const user = userOf.get(n.id);
    if (user !== undefined && slots.take(user)) admitted.push({ notification: n, user });
    else deferred.push(n.id);
  }
  if (deferred.length > 0) {
    const back = await db.rpc('defer_push_notifications', { p_ids: deferred, p_seconds: DEFER_SECONDS });
    if (back.error) {
      // Nothing is sent from this batch; its leases run out and the queue claims it again.
      for (const a of admitted) slots.free(a.user);
      throw new Error(`defer_push_notifications: ${back.error.message}`);
    }
  }
  return admitted;
}
