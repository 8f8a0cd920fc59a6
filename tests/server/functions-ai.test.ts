// AI replies on a dedicated stack whose worker talks to a local fake OpenAI-compatible provider
// (POST /v1/chat/completions -> {choices:[{message:{content}}]}). The worker reaches the stack through
// a pausable gate (functions-helpers.ts), so a test can take the worker down, act as a worker that
// dies mid-job itself, and bring the stack's worker back.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  FAILURE_TEXT,
  MAX_ATTEMPTS,
  processOneJob,
  type AiJob,
} from '../../supabase/functions/_shared/ai/process-job.ts';
import { openAiProvider } from '../../supabase/functions/_shared/ai/openai-provider.ts';
import type { ReplyProvider } from '../../supabase/functions/_shared/ai/types.ts';
import { startTestStack, type TestStack } from '../helpers/stack.ts';
import {
  call,
  freshUser,
  refOf,
  repliesAfter,
  sendMessage,
  serviceDb,
  sql,
  startWorkerGate,
  waitFor,
  type Client,
  type Json,
  type StackRef,
  type WorkerGate,
} from './functions-helpers.ts';

type Mode = { kind: 'ok'; content: string } | { kind: 'status'; status: number } | { kind: 'hang' };

interface FakeProvider {
  url: string;
  mode: Mode;
  requests: { path: string; authorization: string | undefined; body: Json }[];
  stop(): Promise<void>;
}

async function startFakeProvider(): Promise<FakeProvider> {
  const fake: FakeProvider = {
    url: '',
    mode: { kind: 'ok', content: 'Ahoj' },
    requests: [],
    stop: async () => undefined,
  };
  const server: Server = createServer((req: IncomingMessage, res: ServerResponse) => {
    let raw = '';
    req.on('data', (c: Buffer) => (raw += c.toString('utf8')));
    req.on('end', () => {
      fake.requests.push({
        path: req.url ?? '',
        authorization: req.headers.authorization,
        body: JSON.parse(raw || '{}') as Json,
      });
      const mode = fake.mode;
      if (req.method !== 'POST' || req.url !== '/v1/chat/completions') res.writeHead(404).end();
      else if (mode.kind === 'hang')
        return; // never answers
      else if (mode.kind === 'status')
        res
          .writeHead(mode.status, { 'content-type': 'application/json' })
          .end('{"error":{"message":"boom"}}');
      else
        res.writeHead(200, { 'content-type': 'application/json' }).end(
          JSON.stringify({
            id: 'cmpl-1',
            object: 'chat.completion',
            choices: [{ index: 0, message: { role: 'assistant', content: mode.content } }],
          }),
        );
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  fake.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  fake.stop = () =>
    new Promise<void>((r) => {
      server.closeAllConnections();
      server.close(() => r());
    });
  return fake;
}

let fake: FakeProvider;
let gate: WorkerGate;
let stack: TestStack;
let ref: StackRef;
let service: Client;
/** A hung provider's job must end by its deadline, far below any other timeout that could end it (undici's 300 s). */
const LIVENESS_MS = 20_000;
const provider = () => openAiProvider({ baseUrl: `${fake.url}/v1`, apiKey: 'sk-test', model: 'fake-model' });

beforeAll(async () => {
  fake = await startFakeProvider();
  gate = await startWorkerGate();
  stack = await startTestStack(
    { ai: { baseUrl: `${fake.url}/v1/`, apiKey: 'sk-test', model: 'fake-model' } },
    { functionEnv: { SUPABASE_INTERNAL_URL: gate.url } },
  );
  gate.target = stack.url;
  ref = refOf(stack);
  service = serviceDb(ref);
});

afterAll(async () => {
  await stack?.destroy();
  await gate?.close();
  await fake?.stop();
});

beforeEach(() => {
  gate.resume();
  fake.mode = { kind: 'ok', content: 'Odpoveď z falošného poskytovateľa.' };
});

/** A fresh member's first conversation (with the AI assistant) and one user message in it. */
async function userMessage(text: string): Promise<{ conversationId: string; messageId: string }> {
  const u = await freshUser(ref, 'ai');
  const conversationId = (await call(u.client, 'ensure-first-conversation')).body.conversation_id as string;
  const { id } = await sendMessage(u.client, conversationId, text);
  return { conversationId, messageId: id };
}

async function job(messageId: string) {
  const [row] = await sql<{
    id: string;
    status: string;
    attempts: number;
    locked_by: string | null;
    last_error: string | null;
  }>(ref, 'select id, status, attempts, locked_by, last_error from ai_reply_jobs where message_id = $1', [
    messageId,
  ]);
  if (!row) throw new Error(`no job for ${messageId}`);
  return row;
}

const dueNow = (jobId: string) =>
  sql(ref, 'update ai_reply_jobs set run_after = now() where id = $1', [jobId]);
const requestsFor = (text: string) =>
  fake.requests.filter((r) => JSON.stringify(r.body.messages ?? []).includes(text));

describe('AI replies through the OpenAI-compatible provider', () => {
  it("the stack's worker answers with the provider's text and sends the specialist prompt", async () => {
    const text = 'Ako mám nastaviť rozpočet na kampaň? (ok)';
    const { conversationId, messageId } = await userMessage(text);
    const replies = await waitFor(async () => {
      if ((await job(messageId)).status !== 'done') return null; // a streamed row grows until then (R13.1)
      const r = await repliesAfter(ref, conversationId, messageId);
      return r.length ? r : null;
    }, 'the AI reply');
    expect(replies.map((r) => [r.direction, r.text, r.source])).toEqual([
      ['specialist', 'Odpoveď z falošného poskytovateľa.', 'ai'],
    ]);
    expect(replies[0]!.client_correlation_id).toBe((await job(messageId)).id);

    const [req] = requestsFor(text);
    expect(req).toMatchObject({
      path: '/v1/chat/completions',
      authorization: 'Bearer sk-test',
      body: { model: 'fake-model' },
    });
    const messages = req!.body.messages as { role: string; content: string }[];
    expect(messages[0]!.role).toBe('system');
    expect(messages[0]!.content).toContain('Asistent Poradne');
    expect(messages[0]!.content).toContain('po slovensky');
    expect(messages.at(-1)).toEqual({ role: 'user', content: text });
    expect(messages.some((m) => m.role === 'assistant')).toBe(true); // the welcome message is history
  });

  it('exactly one reply when a worker dies mid-job and the job is retried', async () => {
    gate.pause(); // the stack's worker is down
    const { conversationId, messageId } = await userMessage('Pomôžete mi s obsahovým plánom? (crash)');

    // A worker claims the job through the service-role RPC and dies without answering.
    const claimed = await service.rpc('claim_ai_reply_job', { p_worker: 'doomed-worker' });
    expect(claimed.error).toBeNull();
    const mine = (claimed.data as AiJob[])[0];
    expect(mine).toMatchObject({
      message_id: messageId,
      conversation_id: conversationId,
      attempts: 1,
      status: 'running',
      locked_by: 'doomed-worker',
    });

    // The stack's worker comes back, but the lease (2 minutes) still protects the dead worker's claim.
    gate.resume();
    await new Promise((r) => setTimeout(r, 1500));
    expect(await repliesAfter(ref, conversationId, messageId)).toEqual([]);
    expect((await job(messageId)).status).toBe('running');

    await dueNow(mine!.id); // the lease runs out
    // The retried answer streams (R13.1): its row exists while the job still runs, so the job's end
    // is waited for, not the row's first version.
    const replies = await waitFor(async () => {
      if ((await job(messageId)).status !== 'done') return null;
      const r = await repliesAfter(ref, conversationId, messageId);
      return r.length ? r : null;
    }, 'the retried reply, whole');
    expect(replies).toHaveLength(1);
    expect(await job(messageId)).toMatchObject({ status: 'done', attempts: 2 });

    // The dead worker "wakes up" and completes the job too, twice: still one message.
    for (let i = 0; i < 2; i++) {
      const done = await service.rpc('complete_ai_reply_job', {
        p_job_id: mine!.id,
        p_text: 'Neskorá odpoveď mŕtveho workera',
      });
      expect(done.error).toBeNull();
      expect((done.data as { id: string }).id).toBe(replies[0]!.id);
    }
    // …or reports a final failure: the job is done, no notice is added.
    const failed = await service.rpc('fail_ai_reply_job', {
      p_job_id: mine!.id,
      p_error: 'late',
      p_retry_in_ms: 0,
      p_final_text: FAILURE_TEXT,
    });
    expect(failed.error).toBeNull();
    const after = await repliesAfter(ref, conversationId, messageId);
    expect(after.map((r) => r.text)).toEqual(['Odpoveď z falošného poskytovateľa.']);
    expect(await job(messageId)).toMatchObject({ status: 'done' });
    expect(requestsFor('(crash)')).toHaveLength(1);
  });

  it('a job whose workers keep dying ends with the system notice, not in silence', async () => {
    gate.pause();
    const { conversationId, messageId } = await userMessage('Otázka, ktorá zabíja workerov (crash loop)');
    for (let i = 1; i <= MAX_ATTEMPTS; i++) {
      const claimed = await service.rpc('claim_ai_reply_job', { p_worker: `doomed-${i}` });
      expect((claimed.data as AiJob[])[0]).toMatchObject({ message_id: messageId, attempts: i });
      await dueNow((claimed.data as AiJob[])[0]!.id); // that worker died; its lease runs out
    }
    gate.resume();
    const replies = await waitFor(async () => {
      const r = await repliesAfter(ref, conversationId, messageId);
      return r.length ? r : null;
    }, 'the failure notice');
    expect(replies.map((r) => [r.direction, r.text])).toEqual([['system', FAILURE_TEXT]]);
    expect(await job(messageId)).toMatchObject({ status: 'failed', attempts: MAX_ATTEMPTS + 1 });
    expect(requestsFor('(crash loop)')).toHaveLength(0);
  });

  it(`a failing provider (500) is retried, then the conversation gets one system message after ${MAX_ATTEMPTS} attempts`, async () => {
    gate.pause();
    fake.mode = { kind: 'status', status: 500 };
    const { conversationId, messageId } = await userMessage('Čo s reklamou? (500)');
    const outcomes: string[] = [];
    for (let i = 0; i < MAX_ATTEMPTS; i++) {
      outcomes.push(await processOneJob(service, provider(), 'test-worker', 2000));
      const j = await job(messageId);
      if (j.status === 'pending') await dueNow(j.id); // skip the backoff
    }
    expect(outcomes).toEqual([...Array<string>(MAX_ATTEMPTS - 1).fill('retry'), 'failed']);
    expect(await processOneJob(service, provider(), 'test-worker', 2000)).toBe('idle');
    expect(requestsFor('(500)')).toHaveLength(MAX_ATTEMPTS);

    const replies = await repliesAfter(ref, conversationId, messageId);
    expect(replies).toHaveLength(1);
    expect(replies[0]).toMatchObject({
      direction: 'system',
      text: FAILURE_TEXT,
      payload: { system_type: 'ai_reply_failed' },
    });
    const j = await job(messageId);
    expect(j).toMatchObject({ status: 'failed', attempts: MAX_ATTEMPTS });
    expect(j.last_error).toContain('500');
  });

  it('a provider that refuses the request (400) fails at once with the system message', async () => {
    gate.pause();
    fake.mode = { kind: 'status', status: 400 };
    const { conversationId, messageId } = await userMessage('Zlý request (400)');
    expect(await processOneJob(service, provider(), 'test-worker', 2000)).toBe('failed');
    expect((await repliesAfter(ref, conversationId, messageId)).map((r) => r.text)).toEqual([FAILURE_TEXT]);
    expect(requestsFor('(400)')).toHaveLength(1);
  });

  it('a provider that does not answer times out, is retried, and the retry answers once', async () => {
    gate.pause();
    fake.mode = { kind: 'hang' };
    const { conversationId, messageId } = await userMessage('Ste tam? (timeout)');
    const t0 = Date.now();
    expect(await processOneJob(service, provider(), 'test-worker', 300)).toBe('retry');
    // Liveness, not speed: the provider never answers, so the job's return is the 300 ms deadline's
    // doing, not a later timeout (undici's 300 s). Claiming and writing the job back take seconds on
    // two loaded cores (3.5 s once in a clean-clone run with other work beside it), so the bound is wide.
    expect(Date.now() - t0).toBeLessThan(LIVENESS_MS);
    const j = await job(messageId);
    expect(j.status).toBe('pending');
    expect(j.last_error).toBe('AI provider timed out after 300 ms');
    expect(await repliesAfter(ref, conversationId, messageId)).toEqual([]);

    fake.mode = { kind: 'ok', content: 'Áno, som tu.' };
    await dueNow(j.id);
    expect(await processOneJob(service, provider(), 'test-worker', 2000)).toBe('done');
    expect((await repliesAfter(ref, conversationId, messageId)).map((r) => r.text)).toEqual(['Áno, som tu.']);
    expect(requestsFor('(timeout)')).toHaveLength(2);
  });

  it('a provider that ignores the abort signal still cannot hold the job past the deadline', async () => {
    gate.pause();
    const { messageId } = await userMessage('Počuje ma niekto? (deaf)');
    const deaf: ReplyProvider = {
      name: 'deaf',
      // eslint-disable-next-line require-yield -- a provider that never yields and never ends
      stream: async function* () {
        await new Promise<never>(() => undefined);
      },
    };
    const t0 = Date.now();
    expect(await processOneJob(service, deaf, 'test-worker', 300)).toBe('retry');
    expect(Date.now() - t0).toBeLessThan(LIVENESS_MS); // as above: the deadline ended it, no later timeout
    expect((await job(messageId)).last_error).toBe('AI provider timed out after 300 ms');
    await sql(ref, "update ai_reply_jobs set status = 'done' where message_id = $1", [messageId]); // leave no job behind
  });
});
