// The local stack's push worker (issue 20): sends due Web Push notifications with the same
// claimDue/deliver the hosted push-dispatch function runs (dispatchOnce). It wakes on NOTIFY
// 'push_notifications' (the queue trigger) and polls once a second (drain-worker.ts); a notification
// becomes due only after the delay D (private.push_settings), so the poll is what sends most of them,
// at most a second after D.
import type pg from 'pg';
import type { FunctionEnv } from '../functions/_shared/types.ts';
import { serviceClient } from '../functions/_shared/clients.ts';
import { claimDue, vapidFromEnv } from '../functions/_shared/push/dispatch.ts';
import { InFlightSends } from '../functions/_shared/push/in-flight.ts';
import { admit } from '../functions/_shared/push/per-user.ts';
import { allowAnyHost, pushServiceHosts } from '../functions/_shared/push/endpoint.ts';
import { startDrainWorker, type DrainWorker } from './drain-worker.ts';

export type PushWorker = DrainWorker;

/** A worker that sends nothing (no VAPID keys, or push-dispatch sends). */
const IDLE: PushWorker = { kick: () => undefined, reconnectNow: () => undefined, stop: async () => undefined };

/** Notifications being sent at once, at most (issue 36 N3). */
const MAX_IN_FLIGHT = 64;

/** The push services push_subscribe accepts (private.push_endpoint_allowed, issue 36 N2) are this
 *  run's PUSH_ENDPOINT_HOSTS and PUSH_ALLOW_PRIVATE_ENDPOINTS, the same the sender checks. */
async function applyEndpointSettings(pool: pg.Pool, env: FunctionEnv): Promise<void> {
  await pool.query('update private.push_settings set endpoint_hosts = $1, allow_any_endpoint_host = $2', [pushServiceHosts(env), allowAnyHost(env)]);
}

export async function startPushWorker(deps: {
  pool: pg.Pool;
  databaseUrl: string;
  env: () => FunctionEnv;
  log: (line: string) => void;
  /** false: only the endpoint settings are applied and nothing is sent here (push-dispatch does). */
  send?: boolean;
}): Promise<PushWorker> {
  const env = deps.env();
  await applyEndpointSettings(deps.pool, env);
  const vapid = vapidFromEnv(env);
  if (deps.send === false) return IDLE;
  if (!vapid) {
    deps.log('push worker: no VAPID keys, notifications are not sent');
    return IDLE;
  }
  const db = serviceClient({ ...env, SUPABASE_URL: env.SUPABASE_INTERNAL_URL ?? env.SUPABASE_URL });
  const worker = `local-push-${process.pid}`;
  // Issue 36 N3: a claimed notification is sent in the background and the loop claims the next ones
  // at once, so a device that never answers (up to web-push's timeout) delays only its own
  // notification, never another user's. The queue's lease (claim_push_notifications: due_at + 2 min)
  // keeps a notification in flight from being claimed again.
  // A user has at most PER_USER_IN_FLIGHT of them in flight (per-user.ts); the rest go back to the queue.
  let lastError = '';
  // An error is logged once while it repeats, and again after a send was recorded meanwhile.
  const sends = new InFlightSends(
    MAX_IN_FLIGHT,
    (err) => {
      const msg = (err as Error).message;
      if (msg !== lastError) deps.log(`push worker: ${msg}`);
      lastError = msg;
    },
    () => void (lastError = ''),
  );
  const drain = await startDrainWorker({
    name: 'push worker',
    databaseUrl: deps.databaseUrl,
    channel: 'push_notifications',
    maxSteps: 50,
    step: async () => {
      await sends.roomFree();
      const batch = await claimDue(db, worker, Math.min(20, sends.room));
      if (batch.length === 0) return 'idle';
      for (const a of await admit(db, batch, sends.slots)) sends.launch(db, a, vapid, env);
      return batch.length;
    },
    log: deps.log,
  });
  return {
    kick: () => drain.kick(),
    reconnectNow: () => drain.reconnectNow(),
    stop: async () => {
      await drain.stop();
      await sends.settled(); // every send's answer is recorded before the pool closes
    },
  };
}
