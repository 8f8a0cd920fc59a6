// One engine's send side, wired once (R1.12/R1.13): its in-memory view of the queued sends
// (send-watch.ts, fed by every write of its database connection), its writers lock and solo hold
// (writers.ts), the flush's push (push.ts) and the early request (early-send.ts). Both ways of sending
// claim under the same claimer (R9.10), and `busy` keeps the flush off the sends whose request
// started early. engine.ts decides when to flush (its session gate first) and hands `early` to the
// commands.
import type { SyncDb } from '../db/schema.ts';
import type { Clock } from '../model/clock.ts';
import type { LockManagerLike } from '../session/leader.ts';
import { createEarlySend, type EarlySend, type FastSend } from './early-send.ts';
import { flushOutbox, type Claimer, type FlushResult, type PushDeps } from './push.ts';
import { SendWatch } from './send-watch.ts';
import { createSendWriters, type SendWriters } from './writers.ts';

export interface SenderOptions {
  /** What the flush and the early request push with, but for what the sender adds (claims, busy, view). */
  push: Omit<PushDeps, 'claimer' | 'busy' | 'opaqueSends'> & { db: SyncDb };
  /** R9.10: names this engine's claims on outbox entries, and how long one holds. */
  claimer: Claimer;
  /** Leading, online, session gate ok, and the account acted in (null: no early request). */
  ready: () => string | null;
  track: <T>(p: Promise<T>) => Promise<T>;
  /** An early request's outcome is stored (`sent`: the server took it). */
  done: (sent: boolean) => void;
  /** writers.ts: the database's name, Web Locks (null: none) and whether there is a tab channel. */
  dbName: string;
  locks: LockManagerLike | null;
  channels: boolean;
  clock: Pick<Clock, 'setTimeout' | 'clearTimeout'>;
}

export interface Sender {
  /** R1.12: this engine's view of the sends in the outbox and of the conversations. */
  readonly watch: SendWatch;
  /** R1.13: the writers lock as a follower, the solo hold as the leader. */
  readonly writers: SendWriters;
  /** Pushes what is due in the outbox (push.ts flushOutbox), leaving the early requests' sends alone. */
  readonly flush: () => Promise<FlushResult>;
  readonly early: { inTransaction: EarlySend; fast: FastSend };
}

export function createSender(o: SenderOptions): Sender {
  const { db } = o.push;
  const watch = new SendWatch();
  db.writeListener = watch;
  const writers = createSendWriters({
    dbName: o.dbName,
    locks: o.locks,
    channels: o.channels,
    watch,
    reload: () => watch.reload(db),
    track: o.track,
    clock: o.clock,
  });
  /** R1.12: sends whose request started inside their write; the flush leaves them to that request. */
  const earlyBusy = new Set<string>();
  const pushDeps = (): PushDeps => ({ ...o.push, claimer: o.claimer, busy: earlyBusy, opaqueSends: (write) => watch.opaque(write) });
  const early = createEarlySend({
    push: pushDeps,
    ready: o.ready,
    claimer: o.claimer,
    now: o.push.now,
    busy: earlyBusy,
    track: o.track,
    done: o.done,
    watch,
    solo: writers.isSolo,
  });
  return { watch, writers, flush: () => flushOutbox(pushDeps()), early };
}
