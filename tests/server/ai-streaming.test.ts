// Streamed AI replies (issue 39, sync/SPEC.md R13) through the real stack: the worker reads an
// OpenAI-compatible double that streams (chunks, delays, a mid-stream error, a hang, an endless
// answer) and writes one growing message row; members see it grow over realtime, stop it from any
// of their devices, and retry an interrupted one. The stack's worker reaches the stack through a
// pausable gate (functions-helpers.ts), so a test can take it down and run the worker itself with
// short bounds.
import { randomUUID } from 'node:crypto';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { openAiProvider } from '../../supabase/functions/_shared/ai/openai-provider.ts';
import { processOneJob, type JobOutcome } from '../../supabase/functions/_shared/ai/process-job.ts';
import { CONTINUE_INSTRUCTION } from '../../supabase/functions/_shared/ai/prompt.ts';
import { startAiProviderDouble, type AiProviderDouble } from '../doubles/ai-provider.ts';
import { startTestStack, type TestStack } from '../helpers/stack.ts';
import {
  accessToken,
  call,
  freshUser,
  refOf,
  sendMessage,
  serviceDb,
  signIn,
  sql,
  startWorkerGate,
  waitFor,
  type Client,
  type FreshUser,
  type StackRef,
  type WorkerGate,
} from './functions-helpers.ts';
import { clientFor, listen, subscribed } from './realtime-helpers.ts';

let ai: AiProviderDouble;
let gate: WorkerGate;
let stack: TestStack;
let ref: StackRef;
let service: Client;

beforeAll(async () => {
  ai = await startAiProviderDouble();
  gate = await startWorkerGate();
  stack = await startTestStack(
    { ai: { baseUrl: ai.url, apiKey: 'sk-test', model: 'fake-model' } },
    { functionEnv: { SUPABASE_INTERNAL_URL: gate.url } },
  );
  gate.target = stack.url;
  ref = refOf(stack);
  service = serviceDb(ref);
});

afterAll(async () => {
  await stack?.destroy();
  await gate?.close();
  await ai?.stop();
});

beforeEach(() => gate.resume());

// Every test leaves the queue empty: a reply still streaming (an endless script) is stopped through
// the same flag Stop uses, and the stack's worker is free again before the next test's job.
afterEach(async () => {
  gate.resume();
  await sql(ref, "update ai_reply_jobs set stop_requested_at = now(), run_after = now() where status = 'running'");
  await sql(ref, "update ai_reply_jobs set status = 'done' where status = 'pending'");
  await waitFor(async () => {
    const rows = await sql(ref, "select 1 from ai_reply_jobs where status = 'running'");
    return rows.length === 0;
  }, 'no reply job running', 30_000);
});

interface Reply {
  id: string;
  text: string;
  payload: Record<string, unknown> | null;
  change_seq: string;
}

/** A fresh member's first conversation (with the AI assistant), ready for a question. */
async function member(): Promise<FreshUser & { conversationId: string }> {
  const u = await freshUser(ref, 'stream');
  const conversationId = (await call(u.client, 'ensure-first-conversation')).body.conversation_id as string;
  return { ...u, conversationId };
}

async function jobOf(messageId: string) {
  const [row] = await sql<{ id: string; status: string; last_error: string | null }>(
    ref,
    'select id, status, last_error from ai_reply_jobs where message_id = $1',
    [messageId],
  );
  if (!row) throw new Error(`no job for ${messageId}`);
  return row;
}

async function replyOf(jobId: string): Promise<Reply | undefined> {
  const [row] = await sql<Reply>(ref, 'select id, text, payload, change_seq::text from messages where client_correlation_id = $1', [jobId]);
  return row;
}

/** The streaming state flags of a reply's payload (the rest: ai_job_id, the mirrored correlation id). */
const flags = (p: Record<string, unknown> | null | undefined) =>
  Object.fromEntries(Object.entries(p ?? {}).filter(([k]) => ['streaming', 'stopped', 'interrupted'].includes(k)));

const chunksOf = (n: number, tag: string) =>
  Array.from({ length: n }, (_, i) => `${i === 0 ? '' : ' '}${tag}-${i} čučoriedka ľaľa`);

describe('R13 streamed AI replies', () => {
  it('R13.1 the reply grows in one row over realtime, at most ~5 writes a second, and ends whole and in order', async () => {
    const u = await member();
    const chunks = chunksOf(16, 'rast');
    ai.setStream({ chunks, delayMs: 80, then: 'done' });
    const rt = await clientFor(ref.url, ref.anonKey, await accessToken(u.client));
    const l = listen(rt, 'messages', '*', `conversation_id=eq.${u.conversationId}`);
    await subscribed(l);
    try {
      const sent = await sendMessage(u.client, u.conversationId, 'Ako rastie odpoveď?');
      const job = await waitFor(async () => ((await jobOf(sent.id)).status === 'done' ? jobOf(sent.id) : null), 'the job done');
      const reply = (await replyOf(job.id))!;
      const whole = chunks.join('');
      expect(reply.text).toBe(whole);
      expect(reply.payload).toMatchObject({ ai_job_id: job.id });
      expect(flags(reply.payload)).toEqual({});
      const versions = await waitFor(() => {
        const v = l.events
          .map((e) => e.new as unknown as Reply)
          .filter((r) => r.id === reply.id);
        return v.at(-1)?.text === whole && v.at(-1)?.payload?.streaming === undefined ? v : null;
      }, 'the final version over realtime');
      // One row: inserted once, then updated; each version a longer prefix of the answer.
      expect(l.events.filter((e) => e.eventType === 'INSERT' && (e.new as { id: string }).id === reply.id)).toHaveLength(1);
      for (let i = 1; i < versions.length; i++) {
        expect(whole.startsWith(versions[i]!.text)).toBe(true);
        expect(versions[i]!.text.length).toBeGreaterThanOrEqual(versions[i - 1]!.text.length);
      }
      expect(versions.slice(0, -1).every((v) => v.payload?.streaming === true)).toBe(true);
      expect(versions.length).toBeGreaterThan(2); // it grew: not one write at the end
      // Batched: 16 chunks over ≥ 1.2 s arrive in fewer writes than chunks, ≤ 5 a second (+ first and last).
      const call1 = ai.calls.at(-1)!;
      const seconds = (Date.now() - call1.at) / 1000;
      expect(versions.length).toBeLessThan(chunks.length);
      expect(versions.length).toBeLessThanOrEqual(Math.ceil(seconds * 5) + 2);
      expect(call1.body?.stream).toBe(true);
    } finally {
      await rt.removeAllChannels();
    }
  });

  it('R13.5 Stop from another device of the user aborts the provider request within 1 s; the row ends stopped with its text', async () => {
    const u = await member();
    ai.setStream({ chunks: chunksOf(5, 'stop'), delayMs: 50, then: 'repeat' });
    const sent = await sendMessage(u.client, u.conversationId, 'Píš donekonečna');
    const job = await waitFor(async () => {
      const j = await jobOf(sent.id);
      const r = await replyOf(j.id);
      return r && r.text.length > 40 ? j : null;
    }, 'the answer streaming');
    const reply = (await replyOf(job.id))!;
    expect(reply.payload).toMatchObject({ streaming: true });
    const phone = await signIn(ref, u.email); // a second device of the same user
    const providerCall = ai.calls.at(-1)!;
    const stoppedAt = Date.now();
    const { error } = await phone.rpc('stop_ai_reply', { p_message_id: reply.id });
    expect(error).toBeNull();
    await waitFor(() => providerCall.abortedAt, 'the provider request aborted', 5000);
    expect(providerCall.abortedAt! - stoppedAt).toBeLessThan(1000);
    const done = await waitFor(async () => ((await jobOf(sent.id)).status === 'done' ? replyOf(job.id) : null), 'the job finished');
    expect(flags(done.payload)).toEqual({ stopped: true });
    expect(done.text.length).toBeGreaterThanOrEqual(reply.text.length);
    expect(done.text.startsWith(reply.text)).toBe(true);
    // Final: nothing writes to it any more (a negative: watched for three of the worker's ticks).
    const seq = done.change_seq;
    await new Promise((r) => setTimeout(r, 600));
    expect((await replyOf(job.id))!.change_seq).toBe(seq);
    // A second Stop changes nothing.
    expect((await u.client.rpc('stop_ai_reply', { p_message_id: reply.id })).error).toBeNull();
    expect((await replyOf(job.id))!.change_seq).toBe(seq);
  });

  it('R13.4 a provider error mid-answer keeps the text, marked interrupted; Skúsiť znova continues the same row to the whole answer', async () => {
    const u = await member();
    const chunks = chunksOf(8, 'chyba');
    ai.setStream({ chunks: chunks.slice(0, 4), delayMs: 30, then: 'error' });
    const sent = await sendMessage(u.client, u.conversationId, 'Odpoveď, ktorá sa preruší');
    const failed = await waitFor(async () => ((await jobOf(sent.id)).status === 'failed' ? jobOf(sent.id) : null), 'the job interrupted');
    const cut = (await replyOf(failed.id))!;
    expect(cut.text).toBe(chunks.slice(0, 4).join(''));
    expect(flags(cut.payload)).toEqual({ interrupted: true });
    // No failure notice on top: the text stays, the app offers the retry.
    const [{ n }] = (await sql<{ n: string }>(ref, `select count(*)::text n from messages where conversation_id = $1 and direction = 'system'`, [u.conversationId])) as [{ n: string }];
    expect(n).toBe('0');

    ai.setStream({ chunks, delayMs: 30, then: 'done' });
    const { error } = await u.client.rpc('retry_ai_reply', { p_message_id: cut.id });
    expect(error).toBeNull();
    await waitFor(async () => ((await jobOf(sent.id)).status === 'done' ? true : null), 'the retried job done');
    const whole = (await replyOf(failed.id))!;
    expect(whole.id).toBe(cut.id);
    expect(whole.text).toBe(chunks.join(''));
    expect(flags(whole.payload)).toEqual({});
    const msgs = ai.calls.at(-1)!.body!.messages!;
    expect(msgs.at(-2)).toEqual({ role: 'assistant', content: cut.text });
    expect(msgs.at(-1)).toEqual({ role: 'user', content: CONTINUE_INSTRUCTION });
    // Retrying what is not interrupted is a 400 with a message.
    const again = await u.client.rpc('retry_ai_reply', { p_message_id: cut.id });
    expect(again.error?.message).toBe('Only an interrupted answer can be retried');
  });

  it('R13.3 a reply longer than a run bound continues in a queued run of the same row, whole and in order', async () => {
    gate.pause();
    const u = await member();
    const chunks = chunksOf(14, 'dlho');
    ai.setStream({ chunks, delayMs: 100, then: 'done' });
    const sent = await sendMessage(u.client, u.conversationId, 'Veľmi dlhá odpoveď');
    const provider = openAiProvider({ baseUrl: ai.url, apiKey: 'sk-test', model: 'fake-model' });
    const outcomes: JobOutcome[] = [];
    for (let i = 0; i < 10 && outcomes.at(-1) !== 'done'; i++) {
      const o = await processOneJob(service, provider, 'bounded-worker', { boundMs: 500, idleMs: 5000 });
      if (o !== 'idle') outcomes.push(o);
    }
    expect(outcomes.length).toBeGreaterThan(1);
    expect(outcomes.slice(0, -1).every((o) => o === 'continue')).toBe(true);
    expect(outcomes.at(-1)).toBe('done');
    const job = await jobOf(sent.id);
    const reply = (await replyOf(job.id))!;
    expect(reply.text).toBe(chunks.join(''));
    expect(reply.payload).toMatchObject({ ai_job_id: job.id });
      expect(flags(reply.payload)).toEqual({});
    const [{ n }] = (await sql<{ n: string }>(ref, 'select count(*)::text n from messages where client_correlation_id = $1', [job.id])) as [{ n: string }];
    expect(n).toBe('1');
  });

  it('R13.4 a provider that hangs mid-answer is cut after the idle timeout; the text is kept, marked interrupted', async () => {
    gate.pause();
    const u = await member();
    const chunks = chunksOf(3, 'ticho');
    ai.setStream({ chunks, delayMs: 20, then: 'hang' });
    const sent = await sendMessage(u.client, u.conversationId, 'Poskytovateľ zamrzne');
    const provider = openAiProvider({ baseUrl: ai.url, apiKey: 'sk-test', model: 'fake-model' });
    let outcome: JobOutcome = 'idle';
    for (let i = 0; i < 5 && outcome === 'idle'; i++) outcome = await processOneJob(service, provider, 'idle-worker', { idleMs: 500 });
    expect(outcome).toBe('interrupted');
    expect(ai.calls.at(-1)!.abortedAt).toBeDefined();
    const reply = (await replyOf((await jobOf(sent.id)).id))!;
    expect(reply.text).toBe(chunks.join(''));
    expect(reply.payload).toMatchObject({ interrupted: true });
  });

  it('R13.7 a write the database refuses (a human owns the conversation) ends the job quietly, without retry or notice', async () => {
    const u = await member();
    ai.setStream({ chunks: chunksOf(6, 'clovek'), delayMs: 50, then: 'repeat' });
    // Stand-in for the conversation-owner guard of another change: AI rows of this conversation are refused.
    const fn = `refuse_ai_${randomUUID().replace(/-/g, '')}`;
    await sql(ref, `create function public.${fn}() returns trigger language plpgsql as $$ begin
        if NEW.source = 'ai' and NEW.conversation_id = '${u.conversationId}' then
          raise exception 'A human specialist owns this conversation' using errcode = '42501';
        end if; return NEW; end $$`);
    await sql(ref, `create trigger t05_${fn} before insert or update on public.messages for each row execute function public.${fn}()`);
    try {
      const sent = await sendMessage(u.client, u.conversationId, 'Chcem človeka');
      const job = await waitFor(async () => ((await jobOf(sent.id)).status === 'done' ? jobOf(sent.id) : null), 'the job ended');
      expect(job.last_error).toBe('write refused');
      expect(await replyOf(job.id)).toBeUndefined();
      const rows = await sql<{ direction: string }>(ref, 'select direction from messages where conversation_id = $1 and source = $2', [u.conversationId, 'ai']);
      expect(rows).toEqual([]);
      expect(ai.calls.at(-1)!.abortedAt).toBeDefined();
    } finally {
      await sql(ref, `drop trigger t05_${fn} on public.messages`);
      await sql(ref, `drop function public.${fn}()`);
    }
  });

  it('R13.5 attack: a member of another account cannot stop or retry an answer (404), anon cannot call at all', async () => {
    const u = await member();
    ai.setStream({ chunks: chunksOf(5, 'cudzi'), delayMs: 50, then: 'repeat' });
    const sent = await sendMessage(u.client, u.conversationId, 'Moja odpoveď');
    const reply = await waitFor(async () => replyOf((await jobOf(sent.id)).id), 'the answer streaming');
    const stranger = await freshUser(ref, 'stranger');
    for (const fn of ['stop_ai_reply', 'retry_ai_reply']) {
      const r = await stranger.client.rpc(fn, { p_message_id: reply.id });
      expect(r.status).toBe(404);
      expect(r.error?.message).toBe('Message not found');
    }
    const anon = await fetch(`${ref.url}/rest/v1/rpc/stop_ai_reply`, {
      method: 'POST',
      headers: { apikey: ref.anonKey, 'content-type': 'application/json' },
      body: JSON.stringify({ p_message_id: reply.id }),
    });
    expect([401, 403]).toContain(anon.status);
    const job = await jobOf(sent.id);
    expect(job.status).toBe('running');
    expect((await replyOf(job.id))!.payload).toMatchObject({ streaming: true });
    expect((await u.client.rpc('stop_ai_reply', { p_message_id: reply.id })).error).toBeNull();
    await waitFor(async () => ((await jobOf(sent.id)).status === 'done' ? true : null), 'stopped by its owner');
  });
});
