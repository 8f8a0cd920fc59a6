// The hosted push-dispatch's loop (issue 36 N3). It used to claim a batch, wait for the whole batch
// (a device that never answers: web-push's 10 s timeout) and only then claim the next, so a
// notification that became due meanwhile waited behind the slowest device of the batch before it.
// Now the sends run in the background (in-flight.ts, at most `maxInFlight` at once) and the loop
// claims again whenever a send ends or `pollMs` passed, until `claimMs` is over; then it waits for
// the sends in flight, so every answer is recorded before the call returns.
import type { Db } from '../clients.ts';
import type { FunctionEnv } from '../types.ts';
import { claimDue, type DispatchOutcome, type VapidKeys } from './dispatch.ts';
import { InFlightSends } from './in-flight.ts';
import { admit } from './per-user.ts';

export interface PumpLimits {
  /** Notifications being sent at once, at most. */
  maxInFlight: number;
  /** Claim no more after this long (the sends in flight then end within web-push's timeout). */
  claimMs: number;
  /** Notifications claimed in one call, at most. */
  maxClaimed: number;
  /** While sends are in flight and nothing is due, look again this often. */
  pollMs: number;
}

export async function pump(db: Db, vapid: VapidKeys, worker: string, env: FunctionEnv, limits: PumpLimits): Promise<DispatchOutcome & { batches: number }> {
  const errors: unknown[] = [];
  const sends = new InFlightSends(limits.maxInFlight, (err) => errors.push(err));
  const end = Date.now() + limits.claimMs;
  let batches = 0;
  let claimed = 0;
  try {
    while (Date.now() < end && claimed < limits.maxClaimed && errors.length === 0) {
      await sends.roomFree();
      const batch = await claimDue(db, worker, Math.min(20, sends.room, limits.maxClaimed - claimed));
      if (batch.length === 0) {
        if (sends.size === 0) break;
        await sends.nextEndOr(limits.pollMs);
        continue;
      }
      batches++;
      claimed += batch.length;
      for (const a of await admit(db, batch, sends.slots)) sends.launch(db, a, vapid, env);
    }
  } finally {
    await sends.settled();
  }
  if (errors.length > 0) throw errors[0];
  return { batches, ...sends.total };
}
