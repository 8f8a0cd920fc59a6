// The local stack's push worker (issue 20): sends due Web Push notifications with the same
// dispatchOnce the hosted push-dispatch function runs. It wakes on NOTIFY 'push_notifications' (the
// queue trigger) and polls once a second; a notification becomes due only after the delay D
// (private.push_settings), so the poll is what sends most of them, at most a second after D.
import pg from 'pg';
import type { FunctionEnv } from '../functions/_shared/types.ts';
import { serviceClient } from '../functions/_shared/clients.ts';
import { dispatchOnce, vapidFromEnv } from '../functions/_shared/push/dispatch.ts';

export interface PushWorker {
  kick(): void;
  reconnectNow(): void;
  stop(): Promise<void>;
}

export async function startPushWorker(deps: {
  databaseUrl: string;
  env: () => FunctionEnv;
  log: (line: string) => void;
}): Promise<PushWorker> {
  const env = deps.env();
  const vapid = vapidFromEnv(env);
  const db = serviceClient({ ...env, SUPABASE_URL: env.SUPABASE_INTERNAL_URL ?? env.SUPABASE_URL });
  const worker = `local-push-${process.pid}`;
  let stopped = false;
  let running: Promise<void> | undefined;
  let again = false;
  let lastError = '';

  const drain = async () => {
    if (!vapid) return;
    for (let i = 0; i < 50 && !stopped; i++) {
      try {
        const outcome = await dispatchOnce(db, vapid, worker, env);
        lastError = '';
        if (outcome === 'idle') return;
      } catch (err) {
        const msg = (err as Error).message;
        if (msg !== lastError) deps.log(`push worker: ${msg}`);
        lastError = msg;
        return;
      }
    }
  };
  // Invariant: one drain at a time; a kick during a drain runs one more after it.
  const kick = () => {
    if (stopped) return;
    if (running) {
      again = true;
      return;
    }
    running = drain().finally(() => {
      running = undefined;
      if (again) {
        again = false;
        kick();
      }
    });
  };

  // LISTEN on a dedicated connection, reconnecting every second while PostgreSQL is down (the poll
  // keeps working meanwhile). Invariant: at most one connection or retry timer.
  let listener: pg.Client | undefined;
  let retry: NodeJS.Timeout | undefined;
  const scheduleListen = (ms: number) => {
    if (stopped || retry) return;
    retry = setTimeout(() => {
      retry = undefined;
      void listen();
    }, ms);
  };
  const listen = async (): Promise<void> => {
    if (stopped) return;
    const c = new pg.Client({ connectionString: deps.databaseUrl, application_name: 'poradna-push-worker' });
    let lost = false;
    const onLost = () => {
      if (lost) return;
      lost = true;
      if (listener === c) listener = undefined;
      void c.end().catch(() => undefined);
      scheduleListen(1000);
    };
    c.on('error', onLost);
    c.on('end', onLost);
    c.on('notification', () => kick());
    try {
      await c.connect();
      await c.query('listen push_notifications');
      if (lost || stopped) return void c.end().catch(() => undefined);
      listener = c;
      kick();
    } catch {
      onLost();
    }
  };
  if (vapid) await listen();
  else deps.log('push worker: no VAPID keys, notifications are not sent');
  const poll = vapid ? setInterval(kick, 1000) : undefined;

  return {
    kick,
    reconnectNow: () => {
      if (listener || !retry) return;
      clearTimeout(retry);
      retry = undefined;
      void listen();
    },
    stop: async () => {
      stopped = true;
      clearInterval(poll);
      clearTimeout(retry);
      await listener?.end().catch(() => undefined);
      await running;
    },
  };
}
