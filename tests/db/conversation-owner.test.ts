// The conversation owner state and its guarantees in the database (issue 39, sync/SPEC.md R14,
// migration 20261128120000_conversation_owner.sql), through PostgREST as each caller.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  anon,
  closeDb,
  createConversation,
  createSpecialist,
  createUser,
  db,
  errorOf,
  ok,
  one,
  rest,
  rows,
  rpc,
  service,
  type TestUser,
} from './helpers.ts';

interface ConvRow {
  id: string;
  owner_state: string;
  owner_requested_at: string | null;
  owner_agent_name: string | null;
  change_seq: number;
}

let member: TestUser;
let stranger: TestUser;

/** A queued AI job of a conversation that is not due (so the stack's own worker never claims it). */
async function queuedJob(conversationId: string): Promise<string> {
  const { id } = await one<{ id: string }>(
    `with m as (insert into public.messages (conversation_id, direction, text) values ($1, 'user', 'Otázka') returning id, account_id)
     insert into public.ai_reply_jobs (message_id, conversation_id, account_id, run_after)
     select m.id, $1, m.account_id, now() + interval '1 day' from m returning id`,
    [conversationId],
  );
  return id;
}

const jobStatus = async (id: string) => (await one<{ status: string }>('select status from public.ai_reply_jobs where id = $1', [id])).status;

beforeAll(async () => {
  member = await createUser('owner');
  stranger = await createUser('stranger');
});
afterAll(closeDb);

describe('R14.1 the owner state is a synced conversation field', () => {
  it('R14.1 a new conversation is owned by the AI, and sync_pull carries the state', async () => {
    const conv = await createConversation(member.accountId);
    const pulled = ok<{ conversations: ConvRow[] }>(await rpc(member.caller, 'sync_pull', { p_since: 0 }));
    const row = pulled.conversations.find((c) => c.id === conv);
    expect(row).toMatchObject({ owner_state: 'ai', owner_requested_at: null, owner_agent_name: null });
  });

  it('R14.1 attack: a member cannot set the owner state with a table write', async () => {
    const conv = await createConversation(member.accountId);
    const r = await rest(member.caller, 'PATCH', `conversations?id=eq.${conv}`, { owner_state: 'human', owner_agent_name: 'Ja' });
    expect(r.status).toBe(403);
    expect((await one<ConvRow>('select owner_state from public.conversations where id = $1', [conv])).owner_state).toBe('ai');
  });
});

describe('R14.2 request_human', () => {
  it('R14.2 a member moves an AI conversation to waiting, with the request time; a change number is taken', async () => {
    const conv = await createConversation(member.accountId);
    const before = await one<ConvRow>('select change_seq from public.conversations where id = $1', [conv]);
    const row = ok<ConvRow>(await rpc(member.caller, 'request_human', { p_conversation_id: conv }));
    expect(row.owner_state).toBe('waiting');
    expect(Date.parse(row.owner_requested_at ?? '')).toBeGreaterThan(Date.now() - 60_000);
    expect(Number(row.change_seq)).toBeGreaterThan(Number(before.change_seq));
    // Asked again: the first request time stays.
    const again = ok<ConvRow>(await rpc(member.caller, 'request_human', { p_conversation_id: conv }));
    expect(again.owner_requested_at).toBe(row.owner_requested_at);
  });

  it('R14.2 attack: another account, anon and an unknown id are refused with 4xx, and nothing changes', async () => {
    const conv = await createConversation(member.accountId);
    const foreign = await rpc(stranger.caller, 'request_human', { p_conversation_id: conv });
    expect(foreign.status).toBe(404);
    expect(errorOf(foreign).message).toBe('Conversation not found');
    expect((await rpc(anon, 'request_human', { p_conversation_id: conv })).status).toBe(401);
    expect((await rpc(member.caller, 'request_human', { p_conversation_id: randomUUID() })).status).toBe(404);
    expect((await rpc(member.caller, 'request_human', { p_conversation_id: 'nie-je-uuid' })).status).toBe(400);
    expect((await one<ConvRow>('select owner_state from public.conversations where id = $1', [conv])).owner_state).toBe('ai');
  });

  it('R14.2 a completed conversation is a 400; a human-owned one stays with its human', async () => {
    const done = await createConversation(member.accountId, { status: 'completed' });
    expect((await rpc(member.caller, 'request_human', { p_conversation_id: done })).status).toBe(400);
    const conv = await createConversation(member.accountId);
    ok(await rpc(service, 'set_conversation_owner', { p_conversation_id: conv, p_state: 'human', p_agent_name: 'Jana Vargová' }));
    const row = ok<ConvRow>(await rpc(member.caller, 'request_human', { p_conversation_id: conv }));
    expect(row).toMatchObject({ owner_state: 'human', owner_agent_name: 'Jana Vargová' });
  });

  it('R14.2 attack: set_conversation_owner is the server\'s alone', async () => {
    const conv = await createConversation(member.accountId);
    const r = await rpc(member.caller, 'set_conversation_owner', { p_conversation_id: conv, p_state: 'ai' });
    expect([401, 403, 404]).toContain(r.status);
  });
});

describe('R14.3 a conversation the AI does not own gets no AI message', () => {
  it('R14.3 the takeover cancels queued and running jobs, and a cancelled job stays cancelled', async () => {
    const conv = await createConversation(member.accountId);
    // The running one first: a conversation holds one pending job at most (issue 36 N5's burst rule).
    const running = await queuedJob(conv);
    await db().query(`update public.ai_reply_jobs set status = 'running', locked_by = 'w' where id = $1`, [running]);
    const queued = await queuedJob(conv);
    ok(await rpc(member.caller, 'request_human', { p_conversation_id: conv }));
    expect(await jobStatus(queued)).toBe('cancelled');
    expect(await jobStatus(running)).toBe('cancelled');
    // The worker that was mid-answer reports a retryable failure: the job must not come back.
    ok(await rpc(service, 'fail_ai_reply_job', { p_job_id: running, p_error: 'timeout', p_retry_in_ms: 0 }));
    expect(await jobStatus(running)).toBe('cancelled');
    const claimed = await rows<{ id: string }>(`select id from public.ai_reply_jobs where id in ($1, $2) and status in ('pending', 'running')`, [queued, running]);
    expect(claimed).toEqual([]);
  });

  it('R14.3/R13 the takeover closes the AI\'s half-written row: no caret and Stop left forever', async () => {
    const conv = await createConversation(member.accountId);
    const job = await queuedJob(conv);
    await db().query(`update public.ai_reply_jobs set status = 'running', locked_by = 'w' where id = $1`, [job]);
    const row = await one<{ id: string }>(
      `insert into public.messages (conversation_id, direction, source, text, client_correlation_id, payload)
       values ($1, 'specialist', 'ai', 'Polovica odpovede', $2, '{"streaming": true}') returning id`,
      [conv, job],
    );
    ok(await rpc(member.caller, 'request_human', { p_conversation_id: conv }));
    const after = await one<{ text: string; payload: Record<string, unknown> }>('select text, payload from public.messages where id = $1', [row.id]);
    expect(after.text).toBe('Polovica odpovede');
    expect(after.payload).not.toHaveProperty('streaming');
    expect(after.payload).toMatchObject({ stopped: true });
  });

  it('R14.3 the AI\'s reply, failure notice and text update are refused with PT409 conversation_owned_by_human', async () => {
    const conv = await createConversation(member.accountId);
    const job = await queuedJob(conv);
    const streamed = await one<{ id: string }>(
      `insert into public.messages (conversation_id, direction, source, text, payload) values ($1, 'specialist', 'ai', 'Začiatok', '{"streaming": true}') returning id`,
      [conv],
    );
    ok(await rpc(service, 'set_conversation_owner', { p_conversation_id: conv, p_state: 'human', p_agent_name: 'Jana Vargová' }));

    const done = await rpc(service, 'complete_ai_reply_job', { p_job_id: job, p_text: 'Neskorá odpoveď' });
    expect(done.status).toBe(409);
    expect(errorOf(done)).toEqual({ code: 'PT409', message: 'conversation_owned_by_human' });
    const failed = await rpc(service, 'fail_ai_reply_job', { p_job_id: job, p_error: 'x', p_retry_in_ms: 0, p_final_text: 'Zlyhalo' });
    expect(failed.status).toBe(409);
    const grow = await rest(service, 'PATCH', `messages?id=eq.${streamed.id}`, { text: 'Začiatok a pokračovanie' });
    expect(grow.status).toBe(409);
    expect(errorOf(grow).code).toBe('PT409');
    const direct = await rest(service, 'POST', 'messages', { conversation_id: conv, direction: 'ai', text: 'Ešte ja' });
    expect(direct.status).toBe(409);
    // Closing the cut row (payload only) is allowed, so it does not stay "being written" forever.
    const close = await rest(service, 'PATCH', `messages?id=eq.${streamed.id}`, { payload: { streaming: false, stopped: true } });
    expect(close.status).toBe(200);

    const ai = await rows<{ text: string }>(`select text from public.messages where conversation_id = $1 and (source = 'ai' or direction = 'ai')`, [conv]);
    expect(ai).toEqual([{ text: 'Začiatok' }]);
    // The human's own messages are not touched by the rule.
    const agent = await rest(service, 'POST', 'messages', { conversation_id: conv, direction: 'specialist', source: 'chatwoot', text: 'Dobrý deň, tu Jana.' });
    expect(agent.status).toBe(201);
  });

  it('R14.3 handed back to the AI (resolve), the AI may write again', async () => {
    const conv = await createConversation(member.accountId);
    ok(await rpc(service, 'set_conversation_owner', { p_conversation_id: conv, p_state: 'human', p_agent_name: 'Jana' }));
    ok(await rpc(service, 'set_conversation_owner', { p_conversation_id: conv, p_state: 'ai' }));
    const row = await one<ConvRow>('select owner_state, owner_agent_name, owner_requested_at from public.conversations where id = $1', [conv]);
    expect(row).toMatchObject({ owner_state: 'ai', owner_agent_name: null, owner_requested_at: null });
    const r = await rest(service, 'POST', 'messages', { conversation_id: conv, direction: 'specialist', source: 'ai', text: 'Som späť.' });
    expect(r.status).toBe(201);
  });
});

describe('R14.4 a message delivered later goes to whoever owns the conversation then', () => {
  it('R14.4 send_message into a human-owned or waiting AI conversation is stored and queues no AI job', async () => {
    for (const state of ['human', 'waiting'] as const) {
      const conv = await createConversation(member.accountId, { specialistId: (await createSpecialist({ isAi: true })).id });
      ok(await rpc(service, 'set_conversation_owner', { p_conversation_id: conv, p_state: state, p_agent_name: 'Jana' }));
      const sent = ok<{ id: string }>(
        await rpc(member.caller, 'send_message', { p_conversation_id: conv, p_text: 'Napísané offline', p_client_correlation_id: randomUUID() }),
      );
      expect(sent.id).toBeTruthy();
      const jobs = await rows('select id from public.ai_reply_jobs where conversation_id = $1', [conv]);
      expect(jobs).toEqual([]);
    }
    // Control: the same send into an AI-owned conversation does queue a job.
    const conv = await createConversation(member.accountId, { specialistId: (await createSpecialist({ isAi: true })).id });
    ok(await rpc(member.caller, 'send_message', { p_conversation_id: conv, p_text: 'Ahoj', p_client_correlation_id: randomUUID() }));
    expect((await rows('select id from public.ai_reply_jobs where conversation_id = $1', [conv])).length).toBe(1);
  });
});
