// Idempotent sends (ARCHITECTURE.md invariant 2): one row per (conversation, client_correlation_id)
// however a client repeats the send: send_message, a supabase-js upsert on the correlation key, or
// both at once; repeats return the stored row unchanged and take no change number.
import { randomUUID } from 'node:crypto';
import { createClient } from '@supabase/supabase-js';
import { WebSocket } from 'ws';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { closeDb, createConversation, createUser, errorOf, ok, one, rest, rows, rpc, stack, type TestUser } from './helpers.ts';

interface MessageRow {
  id: string;
  text: string;
  change_seq: number;
  client_correlation_id: string;
  payload: Record<string, unknown> | null;
}

let user: TestUser;

function userSupabase(token: string) {
  return createClient(stack.url, stack.anonKey, {
    auth: { persistSession: false, autoRefreshToken: false, detectSessionInUrl: false },
    global: { headers: { Authorization: `Bearer ${token}` } },
    realtime: { transport: WebSocket as never },
  });
}

const accountSeq = async (accountId: string) =>
  Number((await one<{ change_seq: string }>('select change_seq from public.accounts where id = $1', [accountId])).change_seq);

beforeAll(async () => {
  user = await createUser('idem');
});
afterAll(closeDb);

describe('send_message', () => {
  it('20 concurrent sends with one correlation id store one row and all answer with it', async () => {
    const conv = await createConversation(user.accountId);
    const cid = randomUUID();
    const before = await accountSeq(user.accountId);
    const results = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        rpc(user.caller, 'send_message', { p_conversation_id: conv, p_text: `Ahoj ${i}`, p_client_correlation_id: cid }),
      ),
    );
    const bodies = results.map((r) => ok<MessageRow>(r));
    const stored = await rows<{ id: string; text: string; change_seq: string }>(
      'select id, text, change_seq from public.messages where conversation_id = $1',
      [conv],
    );
    expect(stored).toHaveLength(1);
    for (const b of bodies) expect({ id: b.id, text: b.text, seq: Number(b.change_seq) }).toEqual({ id: stored[0]!.id, text: stored[0]!.text, seq: Number(stored[0]!.change_seq) });
    // One number for the message, one for the conversation's last_message_at: no holes from the 19 repeats.
    expect(await accountSeq(user.accountId)).toBe(before + 2);
  });

  it('a later repeat with different text returns the original row unchanged', async () => {
    const conv = await createConversation(user.accountId);
    const cid = randomUUID();
    const first = ok<MessageRow>(await rpc(user.caller, 'send_message', { p_conversation_id: conv, p_text: 'original', p_client_correlation_id: cid }));
    const again = ok<MessageRow>(await rpc(user.caller, 'send_message', { p_conversation_id: conv, p_text: 'changed', p_client_correlation_id: cid }));
    expect(again).toEqual(first);
  });
});

describe('table inserts', () => {
  it('supabase-js upsert on (conversation_id, client_correlation_id) returns the existing row unchanged', async () => {
    const supabase = userSupabase(user.token);
    const conv = await createConversation(user.accountId);
    const cid = randomUUID();
    const row = { conversation_id: conv, direction: 'user', source: 'app', type: 'text', text: 'prvý', client_correlation_id: cid };
    const first = await supabase.from('messages').upsert(row, { onConflict: 'conversation_id,client_correlation_id' }).select().single<MessageRow>();
    expect(first.error).toBeNull();
    const before = await accountSeq(user.accountId);
    const repeat = await supabase
      .from('messages')
      .upsert({ ...row, text: 'druhý' }, { onConflict: 'conversation_id,client_correlation_id' })
      .select()
      .single<MessageRow>();
    expect(repeat.error).toBeNull();
    expect(repeat.data).toEqual(first.data);
    expect(await accountSeq(user.accountId)).toBe(before);
    expect(await rows('select 1 from public.messages where conversation_id = $1', [conv])).toHaveLength(1);
  });

  it('the correlation id may come only in the payload, as the spec client sends it', async () => {
    const supabase = userSupabase(user.token);
    const conv = await createConversation(user.accountId);
    const cid = randomUUID();
    const row = { conversation_id: conv, direction: 'user', source: 'app', type: 'text', text: 'z payloadu', payload: { client_correlation_id: cid } };
    const a = await supabase.from('messages').upsert(row, { onConflict: 'conversation_id,client_correlation_id' }).select().single<MessageRow>();
    const b = await supabase.from('messages').upsert(row, { onConflict: 'conversation_id,client_correlation_id' }).select().single<MessageRow>();
    expect(a.data?.client_correlation_id).toBe(cid);
    expect(b.data).toEqual(a.data);
  });

  it('concurrent upserts and RPC sends of one correlation id store one row', async () => {
    const supabase = userSupabase(user.token);
    const conv = await createConversation(user.accountId);
    const cid = randomUUID();
    const before = await accountSeq(user.accountId);
    const calls = Array.from({ length: 20 }, (_, i) =>
      i % 2
        ? supabase
            .from('messages')
            .upsert({ conversation_id: conv, direction: 'user', text: `u${i}`, client_correlation_id: cid }, { onConflict: 'conversation_id,client_correlation_id' })
            .select()
            .single<MessageRow>()
            .then((r) => {
              if (r.error) throw new Error(r.error.message);
              return r.data;
            })
        : rpc(user.caller, 'send_message', { p_conversation_id: conv, p_text: `r${i}`, p_client_correlation_id: cid }).then((r) => ok<MessageRow>(r)),
    );
    const answers = await Promise.all(calls);
    expect(new Set(answers.map((a) => a.id)).size).toBe(1);
    expect(new Set(answers.map((a) => a.text)).size).toBe(1);
    expect(await rows('select 1 from public.messages where conversation_id = $1', [conv])).toHaveLength(1);
    expect(await accountSeq(user.accountId)).toBe(before + 2);
  });

  it('a plain insert repeated answers 409 and still leaves one row', async () => {
    const conv = await createConversation(user.accountId);
    const body = { conversation_id: conv, direction: 'user', text: 'plain', client_correlation_id: randomUUID() };
    ok(await rest(user.caller, 'POST', 'messages', body));
    const again = await rest(user.caller, 'POST', 'messages', body);
    expect(again.status).toBe(409);
    expect(errorOf(again).code).toBe('23505');
    expect(await rows('select 1 from public.messages where conversation_id = $1', [conv])).toHaveLength(1);
  });

  it('a member cannot edit a message', async () => {
    const conv = await createConversation(user.accountId);
    const m = ok<MessageRow>(await rpc(user.caller, 'send_message', { p_conversation_id: conv, p_text: 'keep me', p_client_correlation_id: randomUUID() }));
    const res = await rest(user.caller, 'PATCH', `messages?id=eq.${m.id}`, { text: 'edited', direction: 'specialist' });
    expect(res.status).toBe(403);
    expect(errorOf(res).message).toBe('Messages cannot be changed from the app');
    const stored = await one<{ text: string; direction: string; change_seq: string }>('select text, direction, change_seq from public.messages where id = $1', [m.id]);
    expect(stored).toEqual({ text: 'keep me', direction: 'user', change_seq: String(m.change_seq) });
  });
});
