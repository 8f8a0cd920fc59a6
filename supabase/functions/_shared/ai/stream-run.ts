// One run of a streaming reply (R13): reads the provider's stream and writes the growing text into
// the job's one message row through ai_reply_progress, batched: the first piece is written at once
// (first characters on screen as soon as possible), later ones at most every flushMs (≤ 5 writes a
// second at the default 200 ms). Every tick also checks the job's stop flag, so a Stop is seen
// within one tick even when the provider sends nothing.
// The run ends when the provider finishes or fails, or at the first of: a Stop, the claim lost, a
// write refused by the database, no piece for idleMs, the wall-clock bound boundMs. Each of these
// aborts the provider request (the AbortController's signal is the fetch's).
import type { Db } from '../clients.ts';
import { ProviderError, type ReplyProvider, type ReplyRequest } from './types.ts';

export interface StreamOptions {
  /** No piece from the provider for this long aborts the run as a provider timeout. */
  idleMs: number;
  /** A run's wall-clock bound (hosted Edge Functions stop at 400 s): at it the text so far is stored
   *  and the same job is queued to continue the row (R13.3). */
  boundMs: number;
  /** Batched writes: at most one per flushMs. */
  flushMs: number;
}

export type RunEnd =
  | { kind: 'done'; text: string }
  | { kind: 'failed'; text: string; error: unknown }
  | { kind: 'stop' | 'lost' | 'refused' | 'bound'; text: string };

/** A database refusal (an SQLSTATE from PostgreSQL: a guard, a policy, a trigger such as a human
 *  owning the conversation) as opposed to the database being out of reach (connection classes 08,
 *  53, 57 and PostgREST's own PGRST codes, or no code at all). */
export function isRefusal(error: { code?: string } | null | undefined): boolean {
  const code = error?.code ?? '';
  return /^[0-9A-Z]{5}$/.test(code) && !/^(08|53|57|40)/.test(code) && !code.startsWith('PGRST');
}

/** A promise that a producer can settle early (the first piece, the stream's end) or a timer. */
function nap(ms: number, wake: { now: (() => void) | undefined }): Promise<void> {
  return new Promise<void>((resolve) => {
    const t = setTimeout(done, ms);
    function done() {
      clearTimeout(t);
      wake.now = undefined;
      resolve();
    }
    wake.now = done;
  });
}

export async function runStream(
  db: Db,
  provider: ReplyProvider,
  job: { id: string },
  worker: string,
  req: ReplyRequest,
  opts: StreamOptions,
): Promise<RunEnd> {
  const ctl = new AbortController();
  const started = Date.now();
  let text = req.continueFrom ?? '';
  let written = text;
  let lastPieceAt = started;
  let settled = false;
  let failure: unknown = null;
  const wake: { now: (() => void) | undefined } = { now: undefined };

  void (async () => {
    try {
      for await (const piece of provider.stream(req, ctl.signal)) {
        if (ctl.signal.aborted) break;
        const first = written === '' && text === '';
        text += piece;
        lastPieceAt = Date.now();
        if (first) wake.now?.();
      }
    } catch (err) {
      failure = err;
    } finally {
      settled = true;
      wake.now?.();
    }
  })();

  const end = (kind: 'stop' | 'lost' | 'refused' | 'bound'): RunEnd => {
    ctl.abort();
    return { kind, text };
  };
  for (;;) {
    // Sleep one tick; the first piece (nothing written yet) and the stream's end wake it early.
    if (!settled && !(written === '' && text !== '')) await nap(opts.flushMs, wake);
    if (settled) break;
    const now = Date.now();
    if (now - lastPieceAt >= opts.idleMs) {
      ctl.abort();
      return { kind: 'failed', text, error: new ProviderError(`AI provider timed out after ${opts.idleMs} ms`, true) };
    }
    if (now - started >= opts.boundMs) return end('bound');
    const write = text !== written ? text : null;
    const res = await db.rpc('ai_reply_progress', { p_job_id: job.id, p_worker: worker, p_text: write });
    if (res.error) {
      if (isRefusal(res.error)) return end('refused');
      ctl.abort();
      throw new Error(`ai_reply_progress: ${res.error.message}`);
    }
    if (write !== null) written = write;
    if (res.data !== 'go') return end(res.data === 'stop' ? 'stop' : 'lost');
  }
  if (failure !== null && !ctl.signal.aborted) return { kind: 'failed', text, error: failure };
  return { kind: 'done', text };
}
