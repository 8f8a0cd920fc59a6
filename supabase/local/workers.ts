// Background workers of the local stack. The AI reply worker wakes on NOTIFY 'ai_reply_jobs' (sent by
// the job trigger) and polls once a second as a safety net, then drains due jobs one at a time
// (drain-worker.ts, the loop it shares with the push worker).
// On Supabase's hosted runtime the same processOneJob runs in supabase/functions/ai-reply-worker.
// A job streams its reply for up to aiStreamMaxMs and then continues in a queued run (R13.3).
import type pg from 'pg';
import type { StackConfig } from './config.ts';
import type { FunctionEnv } from '../functions/_shared/types.ts';
import { serviceClient } from '../functions/_shared/clients.ts';
import { processOneJob } from '../functions/_shared/ai/process-job.ts';
import { localProvider } from '../functions/_shared/ai/local-responder.ts';
import { openAiProvider } from '../functions/_shared/ai/openai-provider.ts';
import type { ReplyProvider } from '../functions/_shared/ai/types.ts';
import { startPushWorker } from './push-worker.ts';
import { startDrainWorker } from './drain-worker.ts';

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
  /** Whether to send Web Push here (false only in tests of the hosted push-dispatch). */
  pushWorker?: boolean;
}): Promise<Workers> {
  const provider = deps.provider ?? (deps.config.ai ? openAiProvider(deps.config.ai) : localProvider(deps.config.aiDemoWordMs, deps.config.aiDemoThinkMs));
  const env = deps.env();
  const db = serviceClient({ ...env, SUPABASE_URL: env.SUPABASE_INTERNAL_URL ?? env.SUPABASE_URL });
  const worker = `local-${process.pid}`;
  const ai = await startDrainWorker({
    name: 'ai worker',
    databaseUrl: deps.databaseUrl,
    channel: 'ai_reply_jobs',
    maxSteps: 100,
    step: () => processOneJob(db, provider, worker, deps.config.aiStreamMaxMs ? { boundMs: deps.config.aiStreamMaxMs } : {}),
    log: deps.log,
  });
  // Web Push (issue 20) runs beside the AI worker with its own LISTEN and poll.
  const push = await startPushWorker({ pool: deps.pool, databaseUrl: deps.databaseUrl, env: deps.env, log: deps.log, send: deps.pushWorker ?? true });

  return {
    kick: () => ai.kick(),
    reconnectNow: () => {
      push.reconnectNow();
      ai.reconnectNow();
    },
    stop: async () => {
      await push.stop();
      await ai.stop();
    },
  };
}
