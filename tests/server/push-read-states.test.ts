// "Read by the specialist" (issue 20, sync/SPEC.md R10.8–R10.11): messages.read_at on the user's own
// messages is set by the server only, moves forward only, and reaches clients through the change
// feed like every other row change.
import { randomUUID } from 'node:crypto';
import { afterAll, describe, expect, it } from 'vitest';
import { closeDb, createConversation, createSpecialist, createUser, one, rest, rows, rpc, service, serverMessage, type TestUser } from '../db/helpers.ts';
import { until } from './push-helpers.ts';

afterAll(closeDb);

async function send(user: TestUser, conversationId: string, text: string): Promise<{ id: string; created_at: string }> {
  const r = await rpc(user.caller, 'send_message', { p_conversation_id: conversationId, p_text: text, p_client_correlation_id: randomUUID() });
  expect(r.status, JSON.stringify(r.body)).toBe(200);
  return r.body as { id: string; created_at: string };
}

const readAt = async (id: string) => (await one<{ read_at: Date | null }>('select read_at from public.messages where id = $1', [id])).read_at;

describe('R10 queue', () => {
  it('R10.6 a message stamped more than an hour before it is stored (import, backfill) is not queued; a fresh one is', async () => {
    const user = await createUser('push-stale');
    const conv = await createConversation(user.accountId, { specialistId: (await createSpecialist({ isAi: false })).id });
    await one(`insert into public.push_subscriptions (user_id, endpoint, p256dh, auth) values ($1, $2, $3, $4) returning id`, [
      user.id,
      `https://fcm.googleapis.com/fcm/send/${randomUUID()}`,
      'B'.repeat(87),
      'A'.repeat(22),
    ]);
    const stale = await one<{ id: string }>(
      `insert into public.messages (conversation_id, direction, text, created_at) values ($1, 'specialist', 'Starý import', now() - interval '2 hours') returning id`,
      [conv],
    );
    const fresh = await serverMessage(conv, 'specialist', 'Nová');
    const queued = await rows<{ message_id: string }>('select message_id from public.push_notifications where user_id = $1', [user.id]);
    expect(queued.map((q) => q.message_id)).toEqual([fresh.id]);
    expect(queued.map((q) => q.message_id)).not.toContain(stale.id);
    await one('delete from public.push_subscriptions where user_id = $1 returning id', [user.id]); // nothing to send for real
  });
});

describe('R10 read states', () => {
  it("R10.9 a human specialist's reply marks the user's earlier messages read, not later ones, and the change feed carries it", async () => {
    const user = await createUser('read-human');
    const conv = await createConversation(user.accountId, { specialistId: (await createSpecialist({ isAi: false })).id });
    const u1 = await send(user, conv, 'Prvá');
    const u2 = await send(user, conv, 'Druhá');
    expect(await readAt(u1.id)).toBeNull();
    const cursor = (await rpc(user.caller, 'sync_pull', { p_since: 0, p_limit: 500 })).body as { cursor: number };
    const reply = await serverMessage(conv, 'specialist', 'Odpoveď');
    expect(await readAt(u1.id)).toEqual(reply.created_at);
    expect(await readAt(u2.id)).toEqual(reply.created_at);
    const u3 = await send(user, conv, 'Tretia');
    expect(await readAt(u3.id)).toBeNull();

    const page = (await rpc(user.caller, 'sync_pull', { p_since: cursor.cursor, p_limit: 500 })).body as { messages: { id: string; read_at: string | null }[] };
    const changed = new Map(page.messages.map((m) => [m.id, m.read_at]));
    expect(changed.get(u1.id)).not.toBeNull();
    expect(changed.get(u2.id)).not.toBeNull();
    expect(changed.has(u1.id) && changed.has(u2.id)).toBe(true);
  });

  it('R10.8 read_at moves forward only: never cleared, never moved, never on a non-user message; clients cannot set it', async () => {
    const user = await createUser('read-forward');
    const conv = await createConversation(user.accountId, { specialistId: (await createSpecialist({ isAi: false })).id });
    const u1 = await send(user, conv, 'Otázka');
    const reply = await serverMessage(conv, 'specialist', 'Odpoveď');
    const first = await readAt(u1.id);
    expect(first).not.toBeNull();
    const seqBefore = (await one<{ change_seq: string }>('select change_seq from public.messages where id = $1', [u1.id])).change_seq;
    expect((await rest(service, 'PATCH', `messages?id=eq.${u1.id}`, { read_at: null })).status).toBeLessThan(300);
    expect((await rest(service, 'PATCH', `messages?id=eq.${u1.id}`, { read_at: '2001-01-01T00:00:00Z' })).status).toBeLessThan(300);
    expect((await rest(service, 'PATCH', `messages?id=eq.${u1.id}`, { read_at: '2999-01-01T00:00:00Z' })).status).toBeLessThan(300);
    expect(await readAt(u1.id)).toEqual(first);
    // Attempts that changed nothing took no change number (no hole, no needless pull).
    expect((await one<{ change_seq: string }>('select change_seq from public.messages where id = $1', [u1.id])).change_seq).toBe(seqBefore);
    expect((await rest(service, 'PATCH', `messages?id=eq.${reply.id}`, { read_at: new Date().toISOString() })).status).toBeLessThan(300);
    expect(await readAt(reply.id)).toBeNull();
    // A member cannot mark their own message read (or unread).
    const u2 = await send(user, conv, 'Ďalšia');
    const own = await rest(user.caller, 'PATCH', `messages?id=eq.${u2.id}`, { read_at: new Date().toISOString() });
    expect(own.status).toBeGreaterThanOrEqual(400);
    expect(await readAt(u2.id)).toBeNull();
  });

  it('R10.10 an AI specialist has read a message when its reply job takes it (with the earlier unread ones)', async () => {
    const user = await createUser('read-ai');
    const conv = await createConversation(user.accountId, { ai: true });
    const u1 = await send(user, conv, 'Otázka pre AI');
    const taken = await until(async () => {
      const r = await rows<{ status: string; read_at: Date | null }>(
        `select j.status, m.read_at from public.ai_reply_jobs j join public.messages m on m.id = j.message_id where j.message_id = $1`,
        [u1.id],
      );
      return r[0] && r[0].status !== 'pending' ? r[0] : undefined;
    }, 'the AI job to be taken');
    expect(taken.read_at).not.toBeNull();
    const reply = await until(
      async () => (await rows<{ created_at: Date }>(`select created_at from public.messages where conversation_id = $1 and source = 'ai'`, [conv]))[0],
      'the AI reply',
    );
    expect(taken.read_at!.getTime()).toBeLessThanOrEqual(reply.created_at.getTime());
  });

  it("R10.11 Chatwoot's agent_last_seen_at marks the user messages created before it read (service role only)", async () => {
    const user = await createUser('read-agent');
    const conv = await createConversation(user.accountId, { specialistId: (await createSpecialist({ isAi: false })).id, chatwootId: Math.floor(Math.random() * 1e9) });
    const u1 = await send(user, conv, 'Pred');
    const seen = new Date(Date.now() + 5);
    await new Promise((r) => setTimeout(r, 20));
    const u2 = await send(user, conv, 'Po');
    const r = await rpc(service, 'mark_read_by_agent', { p_conversation_id: conv, p_seen_at: seen.toISOString() });
    expect(r.body).toBe(1);
    expect(await readAt(u1.id)).toEqual(seen);
    expect(await readAt(u2.id)).toBeNull();
    expect((await rpc(user.caller, 'mark_read_by_agent', { p_conversation_id: conv, p_seen_at: new Date().toISOString() })).status).toBeGreaterThanOrEqual(401);
    expect(await readAt(u2.id)).toBeNull();
    const future = await rpc(service, 'mark_read_by_agent', { p_conversation_id: conv, p_seen_at: '2999-01-01T00:00:00Z' });
    expect(future.status).toBe(400);
  });
});
