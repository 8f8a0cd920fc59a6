// Background workers of the local stack. The AI reply worker wakes on NOTIFY 'ai_reply_jobs' (sent by
// the job trigger) and polls once a second as a safety net, then drains due jobs one at a time.
// On Supabase's hosted runtime the same processOneJob would run in a scheduled function (cron or
// database webhook); none is in supabase/functions yet.
import pg from 'pg';
import type { StackConfig } from './config.ts';
import type { FunctionEnv } from '../functions/_shared/types.ts';
import { serviceClient } from '../functions/_shared/clients.ts';
import { processOneJob } from '../functions/_shared/ai/process-job.ts';
import { localProvider } from '../functions/_shared/ai/local-responder.ts';
import { openAiProvider } from '../functions/_shared/ai/openai-provider.ts';
import type { ReplyProvider } from '../functions/_shared/ai/types.ts';
import { startPushWorker } from './push-worker.ts';

export interface Workers {
  stop(): Promise<void>;
  /** Wakes the AI worker now (tests and NOTIFY use it). */
  kick(): void;
  /** PostgreSQL is back: LISTEN again now rather than at the next retry. */
  reconnectNow(): void;
}

export async function startWorkers(deps: {
  pool: pg.Pool;
  databaseUrl: string;
  config: StackConfig;
  env: () => FunctionEnv;
  log: (line: string) => void;
  provider?: ReplyProvider;
}): Promise<Workers> {
  const provider = deps.provider ?? (deps.config.ai ? openAiProvider(deps.config.ai) : localProvider);
  const env = deps.env();
  const db = serviceClient({ ...env, SUPABASE_URL: env.SUPABASE_INTERNAL_URL ?? env.SUPABASE_URL });
  const worker = `local-${process.pid}`;
  let stopped = false;
  let running: Promise<void> | undefined;
  let again = false;
  let lastError = '';

  const drain = async () => {
    for (let i = 0; i < 100 && !stopped; i++) {
      try {
        const outcome = await processOneJob(db, provider, worker);
        lastError = '';
        if (outcome === 'idle') return;
      } catch (err) {
        // A persistent problem (database down) would repeat every second: say it once until it changes.
        const msg = (err as Error).message;
        if (msg !== lastError) deps.log(`ai worker: ${msg}`);
        lastError = msg;
        return;
      }
    }
  };
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

  // LISTEN on a dedicated connection; reconnect if PostgreSQL restarts (every 1 s while it is down;
  // the 1 s poll below keeps jobs moving meanwhile). Invariant: at most one connection or retry timer.
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
    const c = new pg.Client({ connectionString: deps.databaseUrl, application_name: 'poradna-ai-worker' });
    let lost = false;
    const onLost = () => {
      if (lost) return;
      lost = true;
      if (listener === c) listener = undefined;
      void c.end().catch(() => undefined);
      scheduleListen(1000);
    };
    c.on('error', onLost); // an unhandled 'error' on a pg client would crash the stack
    c.on('end', onLost);
    c.on('notification', () => kick());
    try {
      await c.connect();
      await c.query('listen ai_reply_jobs');
      if (lost || stopped) return void c.end().catch(() => undefined);
      listener = c;
      kick(); // jobs queued while the connection was down
    } catch {
      onLost();
    }
  };
  await listen();
  const poll = setInterval(kick, 1000);
  kick();
  // Web Push (issue 20) runs beside the AI worker with its own LISTEN and poll.
  const push = await startPushWorker({ databaseUrl: deps.databaseUrl, env: deps.env, log: deps.log });

  return {
    kick,
    reconnectNow: () => {
      push.reconnectNow();
      if (listener || !retry) return;
      clearTimeout(retry);
      retry = undefined;
      void listen();
    },
    stop: async () => {
      await push.stop();
      stopped = true;
      clearInterval(poll);
      clearTimeout(retry);
      await listener?.end().catch(() => undefined);
      await running;
    },
  };
}
