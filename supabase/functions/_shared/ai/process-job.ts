// Processes durable AI reply jobs (table ai_reply_jobs, one per user message to an AI specialist on
// the direct path). Exactly one reply per user message: the reply row carries the job id as its
// client_correlation_id, unique per conversation, so a worker that crashes mid-answer and a later
// run of the same job still leave one message — the later run continues the stored text (R13.3).
// The reply streams into that row (stream-run.ts, migration 20261128110000_ai_reply_streaming.sql).
// A provider failure before any text retries with backoff and the last attempt writes a system
// message instead, never silence; a failure after some text keeps it, marked interrupted (R13.4).
import type { Db } from '../clients.ts';
import { loadContext, type AiJob } from './job-context.ts';
import { isRefusal, runStream, type RunEnd, type StreamOptions } from './stream-run.ts';
import { ProviderError, type ReplyProvider } from './types.ts';

export type { AiJob } from './job-context.ts';

export const MAX_ATTEMPTS = 4;
/** The provider's silence that counts as a timeout: before the first piece and between pieces. */
export const PROVIDER_TIMEOUT_MS = 30_000;
/** A run's wall-clock bound: below the hosted Edge Functions' 400 s, so the worker's own bookkeeping
 *  still fits; the reply continues in a queued run of the same job (R13.3). */
export const STREAM_BOUND_MS = 300_000;
/** Batched writes of a growing reply: ≤ 5 a second (R13.1). */
export const FLUSH_MS = 200;
export const FAILURE_TEXT = 'Špecialista momentálne nedokáže odpovedať. Skúste to prosím o chvíľu znova.';

export function backoffMs(attempts: number): number {
  return Math.min(60_000, 2000 * 3 ** Math.max(0, attempts - 1));
}

export type JobOutcome = 'done' | 'retry' | 'failed' | 'idle' | 'stopped' | 'interrupted' | 'continue' | 'refused' | 'lost';

async function fail(db: Db, job: AiJob, err: unknown): Promise<JobOutcome> {
  const retryable = !(err instanceof ProviderError) || err.retryable;
  const final = !retryable || job.attempts >= MAX_ATTEMPTS;
  const res = await db.rpc('fail_ai_reply_job', {
    p_job_id: job.id,
    p_error: (err as Error).message.slice(0, 500),
    p_retry_in_ms: backoffMs(job.attempts),
    p_final_text: final ? FAILURE_TEXT : null,
  });
  if (res.error) throw new Error(`fail_ai_reply_job: ${res.error.message}`, { cause: err });
  return final ? 'failed' : 'retry';
}

const FINISH: Record<Exclude<RunEnd['kind'], 'failed' | 'lost'>, 'done' | 'stopped' | 'continue' | 'refused'> = {
  done: 'done',
  stop: 'stopped',
  bound: 'continue',
  refused: 'refused',
};

async function finish(db: Db, job: AiJob, worker: string, text: string, outcome: string): Promise<JobOutcome> {
  const res = await db.rpc('finish_ai_reply_job', { p_job_id: job.id, p_worker: worker, p_text: text, p_outcome: outcome });
  if (res.error && isRefusal(res.error) && outcome !== 'refused') return finish(db, job, worker, text, 'refused');
  if (res.error) throw new Error(`finish_ai_reply_job: ${res.error.message}`);
  return res.data as JobOutcome;
}

/** Claims and processes at most one due job. `opts` bounds the provider (a number: its idle timeout,
 *  as before streaming); hosts and tests with faster deadlines pass their own. */
export async function processOneJob(
  db: Db,
  provider: ReplyProvider,
  worker: string,
  opts: number | Partial<StreamOptions> = {},
): Promise<JobOutcome> {
  const o: StreamOptions = {
    idleMs: PROVIDER_TIMEOUT_MS,
    boundMs: STREAM_BOUND_MS,
    flushMs: FLUSH_MS,
    ...(typeof opts === 'number' ? { idleMs: opts } : opts),
  };
  const claimed = await db.rpc('claim_ai_reply_job', { p_worker: worker });
  if (claimed.error) throw new Error(`claim_ai_reply_job: ${claimed.error.message}`);
  const job = (claimed.data as AiJob[] | null)?.[0];
  if (!job) return 'idle';

  let run: RunEnd;
  try {
    // A job claimed more than MAX_ATTEMPTS times never got a failure recorded: its workers died
    // (crashed or lost the lease) every time. Give up with the notice instead of trying again, or
    // the claim limit would end it in silence.
    if (job.attempts > MAX_ATTEMPTS) throw new ProviderError(`gave up after ${job.attempts - 1} attempts without an answer`, false);
    run = await runStream(db, provider, job, worker, await loadContext(db, job), o);
  } catch (err: unknown) {
    return fail(db, job, err);
  }
  if (run.kind === 'lost') return 'lost';
  if (run.kind === 'failed') {
    // Text already on the members' screens is kept and marked interrupted ('Skúsiť znova');
    // before any text the job retries as it always did.
    if (run.text.trim()) return finish(db, job, worker, run.text, 'interrupted');
    return fail(db, job, run.error);
  }
  if (run.kind === 'done' && !run.text.trim()) return fail(db, job, new ProviderError('AI provider returned no text', true));
  return finish(db, job, worker, run.text, FINISH[run.kind]);
}
