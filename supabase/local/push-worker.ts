// The local stack's push worker (issue 20): sends due Web Push notifications with the same
// dispatchOnce the hosted push-dispatch function runs. It wakes on NOTIFY 'push_notifications' (the
// queue trigger) and polls once a second (drain-worker.ts); a notification becomes due only after the
// delay D (private.push_settings), so the poll is what sends most of them, at most a second after D.
import type pg from 'pg';
import type { FunctionEnv } from '../functions/_shared/types.ts';
import { serviceClient } from '../functions/_shared/clients.ts';
import { dispatchOnce, vapidFromEnv } from '../functions/_shared/push/dispatch.ts';
import { allowAnyHost, pushServiceHosts } from '../functions/_shared/push/endpoint.ts';
import { startDrainWorker, type DrainWorker } from './drain-worker.ts';

export type PushWorker = DrainWorker;

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
}): Promise<PushWorker> {
  const env = deps.env();
  await applyEndpointSettings(deps.pool, env);
  const vapid = vapidFromEnv(env);
  if (!vapid) {
    deps.log('push worker: no VAPID keys, notifications are not sent');
    return { kick: () => undefined, reconnectNow: () => undefined, stop: async () => undefined };
  }
  const db = serviceClient({ ...env, SUPABASE_URL: env.SUPABASE_INTERNAL_URL ?? env.SUPABASE_URL });
  const worker = `local-push-${process.pid}`;
  return startDrainWorker({
    name: 'push worker',
    databaseUrl: deps.databaseUrl,
    channel: 'push_notifications',
    maxSteps: 50,
    step: () => dispatchOnce(db, vapid, worker, env),
    log: deps.log,
  });
}
