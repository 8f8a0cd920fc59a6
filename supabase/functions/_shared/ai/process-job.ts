// Processes durable AI reply jobs (table ai_reply_jobs, one per user message to an AI specialist on
// the direct path). Exactly one reply per user message: the reply is inserted with the job id as its
// client_correlation_id, which is unique per conversation, so a worker that crashes after answering
// and a retry of the same job still leave one message. Provider failures retry with backoff and the
// last attempt writes a system message instead, never silence.
import type { Db } from '../clients.ts';
import { ProviderError, type HistoryMessage, type ReplyProvider, type SpecialistProfile } from './types.ts';

export const MAX_ATTEMPTS = 4;
export const PROVIDER_TIMEOUT_MS = 30_000;
export const FAILURE_TEXT = 'Špecialista momentálne nedokáže odpovedať. Skúste to prosím o chvíľu znova.';

export interface AiJob {
  id: string;
  message_id: string;
  conversation_id: string;
  specialist_id: string;
  attempts: number;
}

export function backoffMs(attempts: number): number {
  return Math.min(60_000, 2000 * 3 ** Math.max(0, attempts - 1));
}

async function loadContext(db: Db, job: AiJob): Promise<{ specialist: SpecialistProfile; history: HistoryMessage[] }> {
  const sp = await db.from('specialists').select('id, name, role, seniority, bio, skills').eq('id', job.specialist_id).single();
  if (sp.error) throw new Error(`specialist ${job.specialist_id}: ${sp.error.message}`);
  const anchor = await db.from('messages').select('created_at').eq('id', job.message_id).single();
  if (anchor.error) throw new Error(`message ${job.message_id}: ${anchor.error.message}`);
  const hist = await db
    .from('messages')
    .select('direction, text, created_at')
    .eq('conversation_id', job.conversation_id)
    .lte('created_at', anchor.data.created_at as string)
    .order('created_at', { ascending: false })
    .limit(20);
  if (hist.error) throw new Error(`history: ${hist.error.message}`);
  const rows = (hist.data as { direction: HistoryMessage['direction']; text: string | null }[]).reverse();
  const s = sp.data as SpecialistProfile & { skills: string[] | null };
  return {
    specialist: { ...s, skills: s.skills ?? [] },
    history: rows.map((r) => ({ direction: r.direction, text: r.text ?? '' })),
  };
}

export type JobOutcome = 'done' | 'retry' | 'failed' | 'idle';

/** Runs the provider call with an abort signal and a hard deadline: a provider that ignores the
 *  signal still cannot hold the job past timeoutMs. */
async function withDeadline<T>(run: (signal: AbortSignal) => Promise<T>, timeoutMs: number): Promise<T> {
  const ctl = new AbortController();
  let timer: ReturnType<typeof setTimeout> | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      reject(new ProviderError(`AI provider timed out after ${timeoutMs} ms`, true));
      ctl.abort();
    }, timeoutMs);
  });
  try {
    return await Promise.race([run(ctl.signal), deadline]);
  } finally {
    clearTimeout(timer);
  }
}

/** Claims and processes at most one due job. timeoutMs bounds the provider call (an abort is a
 *  retryable failure); hosts and tests with faster deadlines pass their own. */
export async function processOneJob(
  db: Db,
  provider: ReplyProvider,
  worker: string,
  timeoutMs: number = PROVIDER_TIMEOUT_MS,
): Promise<JobOutcome> {
  const claimed = await db.rpc('claim_ai_reply_job', { p_worker: worker });
  if (claimed.error) throw new Error(`claim_ai_reply_job: ${claimed.error.message}`);
  const job = (claimed.data as AiJob[] | null)?.[0];
  if (!job) return 'idle';

  let text: string;
  try {
    // A job claimed more than MAX_ATTEMPTS times never got a failure recorded: its workers died
    // (crashed or lost the lease) every time. Give up with the notice instead of trying again, or
    // the claim limit would end it in silence.
    if (job.attempts > MAX_ATTEMPTS) throw new ProviderError(`gave up after ${job.attempts - 1} attempts without an answer`, false);
    const ctx = await loadContext(db, job);
    text = await withDeadline((signal) => provider.reply(ctx, signal), timeoutMs);
  } catch (err: unknown) {
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
  const done = await db.rpc('complete_ai_reply_job', { p_job_id: job.id, p_text: text });
  if (done.error) throw new Error(`complete_ai_reply_job: ${done.error.message}`);
  return 'done';
}
