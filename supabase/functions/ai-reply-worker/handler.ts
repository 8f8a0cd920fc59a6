// ai-reply-worker (service role only): drains due AI reply jobs on a hosted Supabase project, where
// no local-stack worker runs. Schedule it with Supabase Cron (pg_cron + pg_net) every few seconds,
// or call it from a database webhook on ai_reply_jobs inserts. Reply {processed, outcomes}.
// The same processOneJob runs in the local stack's worker (supabase/local/workers.ts).
import { serviceClient } from '../_shared/clients.ts';
import { handle, HttpError, json } from '../_shared/http.ts';
import type { FunctionEnv, FunctionHandler } from '../_shared/types.ts';
import { localProvider } from '../_shared/ai/local-responder.ts';
import { openAiProvider } from '../_shared/ai/openai-provider.ts';
import { processOneJob, STREAM_BOUND_MS, type JobOutcome } from '../_shared/ai/process-job.ts';
import { requireServiceRole } from './service-caller.ts';

const MAX_JOBS_PER_CALL = 20;
const BUDGET_MS = 50_000;
/** A run started near the end of the budget may still stream this long (50 s + 300 s < 400 s). */
const STREAM_AFTER_BUDGET_MS = 300_000;

function streamMaxMs(env: FunctionEnv): number {
  const s = Number(env.AI_STREAM_MAX_SECONDS);
  return Number.isFinite(s) && s > 0 ? s * 1000 : STREAM_BOUND_MS;
}

const handler: FunctionHandler = (req, env) =>
  handle(async () => {
    if (req.method !== 'POST') throw new HttpError(405, 'Use POST');
    await requireServiceRole(req, env);
    const provider =
      env.AI_BASE_URL && env.AI_API_KEY && env.AI_MODEL
        ? openAiProvider({ baseUrl: env.AI_BASE_URL, apiKey: env.AI_API_KEY, model: env.AI_MODEL })
        : localProvider();
    const db = serviceClient(env);
    const outcomes: JobOutcome[] = [];
    const end = Date.now() + BUDGET_MS;
    while (outcomes.length < MAX_JOBS_PER_CALL && Date.now() < end) {
      // Hosted Edge Functions stop at 400 s wall clock: a reply's run ends by AI_STREAM_MAX_SECONDS
      // (default 300) and the rest of the budget, and continues in a queued run (R13.3).
      const boundMs = Math.min(streamMaxMs(env), Math.max(5_000, end + STREAM_AFTER_BUDGET_MS - Date.now()));
      const outcome = await processOneJob(db, provider, `edge-${crypto.randomUUID().slice(0, 8)}`, { boundMs });
      if (outcome === 'idle') break;
      outcomes.push(outcome);
    }
    return json({ processed: outcomes.length, outcomes });
  })(req);

export default handler;
