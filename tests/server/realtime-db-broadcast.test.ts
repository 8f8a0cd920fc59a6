// Broadcast from the database on private channels (issue 41 part 2, sync/SPEC.md R18), through the
// real stack with unmodified supabase-js: the change feed's triggers (20261130100000) call
// realtime.send onto `account:<id>` / `user:<id>`; the local realtime delivers committed
// realtime.messages rows and admits private joins by realtime.messages' RLS, as hosted does.
// Attacks: another account's topic, a colleague on a user topic, anon, an expired token and a forged
// public join of a private topic — each refused or deaf. Negative deliveries are proven by order, not
// by waiting: the local realtime hands database broadcasts out in commit order, so once a later
// broadcast reached the same socket an earlier one would have too.
import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { RealtimeChannel } from '@supabase/supabase-js';
import { anonClient, serviceClient, uniqueEmail, type Client } from '../helpers/clients.ts';
import { signToken, waitFor } from './realtime-helpers.ts';

const stack = inject('stack');
const clients: Client[] = [];
let db: pg.Client;

interface Member {
  client: Client;
  token: string;
  userId: string;
  accountId: string;
  conversationId: string;
}

type Heard = { event: string; payload: Record<string, unknown> }[];

async function member(): Promise<Member> {
  const email = uniqueEmail('rtbcast');
  const created = await serviceClient(stack).auth.admin.createUser({ email, password: 'heslo12345', email_confirm: true });
  expect(created.error).toBeNull();
  const client = device();
  const { data, error } = await client.auth.signInWithPassword({ email, password: 'heslo12345' });
  expect(error).toBeNull();
  const token = data.session!.access_token;
  await client.realtime.setAuth(token);
  const conv = await client.rpc('ensure_first_conversation');
  expect(conv.error).toBeNull();
  const conversationId = (conv.data as { conversation_id: string }).conversation_id;
  const acc = await client.from('conversations').select('account_id').eq('id', conversationId).single();
  return { client, token, userId: created.data.user!.id, accountId: acc.data!.account_id as string, conversationId };
}

/** Another device: its own supabase-js client (own socket). */
function device(): Client {
  const c = anonClient(stack);
  clients.push(c);
  return c;
}

async function deviceOf(m: Member): Promise<Client> {
  const c = device();
  await c.realtime.setAuth(m.token);
  return c;
}

function join(ch: RealtimeChannel): Promise<{ status: string; err?: Error }> {
  return new Promise((resolve) => {
    ch.subscribe((s, err) => {
      if (String(s) !== 'CLOSED') resolve({ status: String(s), ...(err ? { err } : {}) });
    });
  });
}

function listen(c: Client, topic: string, heard: Heard, isPrivate = true): RealtimeChannel {
  return c
    .channel(topic, { config: { private: isPrivate } })
    .on('broadcast', { event: 'changed' }, (m) => heard.push({ event: m.event, payload: m.payload as Record<string, unknown> }));
}

async function send(m: Member, text: string): Promise<void> {
  const r = await m.client.rpc('send_message', {
    p_conversation_id: m.conversationId,
    p_text: text,
    p_client_correlation_id: randomUUID(),
  });
  expect(r.error).toBeNull();
}

const refusal = (topic: string) => `Unauthorized: You do not have permissions to read from this Channel topic: ${topic}`;

beforeAll(async () => {
  db = new pg.Client({ connectionString: stack.databaseUrl });
  await db.connect();
});

afterAll(async () => {
  for (const c of clients) await c.removeAllChannels();
  await db.end();
});

describe('Broadcast from the database on private channels (R18)', () => {
  it("R18.1: a message sent by one device reaches the account's other devices through the private account broadcast, and the pull brings it", async () => {
    const a = await member();
    const colleague = await member();
    await db.query('update public.account_users set account_id = $1, role = $2 where user_id = $3', [a.accountId, 'member', colleague.userId]);
    const { data: before } = await colleague.client.rpc('sync_pull', { p_since: 0, p_limit: 1000 });
    const cursor = (before as { cursor: number }).cursor;

    const heard = { second: [] as Heard, colleague: [] as Heard };
    const second = listen(await deviceOf(a), `account:${a.accountId}`, heard.second);
    const col = listen(colleague.client, `account:${a.accountId}`, heard.colleague);
    expect((await join(second)).status).toBe('SUBSCRIBED');
    expect((await join(col)).status).toBe('SUBSCRIBED');

    await send(a, 'Ahoj z prvého zariadenia');
    const got = await waitFor(() => heard.colleague[0], 'the account broadcast on the colleague device');
    await waitFor(() => heard.second[0], "the account broadcast on A's second device");
    expect(got.payload).toMatchObject({ v: 1, account_id: a.accountId, change_seq: expect.any(Number) });
    expect(got.payload.change_seq as number).toBeGreaterThan(cursor);
    // "Pull now": the row itself comes from the gap-free feed.
    const { data } = await colleague.client.rpc('sync_pull', { p_since: cursor, p_limit: 1000 });
    const texts = (data as { messages: { text: string }[] }).messages.map((m) => m.text);
    expect(texts).toContain('Ahoj z prvého zariadenia');
  });

  it('R18.1: a send is announced once, at commit, with the transaction\'s last number (its conversation\'s), and so is a transaction of several rows', async () => {
    const a = await member();
    const topic = `account:${a.accountId}`;
    const announced = async () =>
      (await db.query<{ seq: string }>(`select payload->>'change_seq' as seq from realtime.messages where topic = $1 and event = 'changed' order by inserted_at, payload->>'change_seq'`, [topic])).rows.map((r) => Number(r.seq));
    const counter = async () => Number((await db.query<{ s: string }>('select change_seq as s from public.accounts where id = $1', [a.accountId])).rows[0]!.s);
    const before = (await announced()).length;
    await send(a, 'jedno oznámenie');
    // The message took one number and its conversation's last_message_at the next: one broadcast, the last.
    const conv = await db.query<{ s: string }>('select change_seq as s from public.conversations where id = $1', [a.conversationId]);
    expect((await announced()).slice(before)).toEqual([Number(conv.rows[0]!.s)]);
    expect(Number(conv.rows[0]!.s)).toBe(await counter());

    // Three messages in one transaction (a server-side write, as the AI worker's): one broadcast, the last number.
    const mid = (await announced()).length;
    await db.query('begin');
    for (const t of ['a', 'b', 'c'])
      await db.query(`insert into public.messages (conversation_id, text, type, direction, source) values ($1, $2, 'text', 'ai', 'app')`, [a.conversationId, t]);
    await db.query('commit');
    expect((await announced()).slice(mid)).toEqual([await counter()]);
  });

  it("R18.2: another account's member, a colleague on a user topic, anon and an expired token are refused at the private join", async () => {
    const a = await member();
    const stranger = await member();
    const colleague = await member();
    await db.query('update public.account_users set account_id = $1, role = $2 where user_id = $3', [a.accountId, 'member', colleague.userId]);
    const expired = device();
    await expired.realtime.setAuth(await signToken(stack.jwtSecret, { sub: a.userId, expiresIn: -120 }));
    const anon = device();
    const cases: [Client, string][] = [
      [stranger.client, `account:${a.accountId}`],
      [stranger.client, `user:${a.userId}`],
      [colleague.client, `user:${a.userId}`],
      [anon, `account:${a.accountId}`],
      [anon, `user:${a.userId}`],
    ];
    for (const [c, topic] of cases) {
      const r = await join(listen(c, topic, []));
      expect(r.status, topic).toBe('CHANNEL_ERROR');
      expect(r.err?.message, topic).toBe(refusal(topic));
    }
    const late = await join(listen(expired, `account:${a.accountId}`, []));
    expect(late.status).toBe('CHANNEL_ERROR');
    expect(late.err?.message).toMatch(/Token has expired/);
    // The colleague does join the account topic: the member rule, not a blanket refusal.
    expect((await join(listen(colleague.client, `account:${a.accountId}`, []))).status).toBe('SUBSCRIBED');
  });

  it("R18.3: a forged public join of another account's topic, or of a colleague's user topic, hears none of its database broadcasts", async () => {
    const a = await member();
    const stranger = await member();
    const colleague = await member();
    await db.query('update public.account_users set account_id = $1, role = $2 where user_id = $3', [a.accountId, 'member', colleague.userId]);
    const heard = {
      forgedAccount: [] as Heard,
      forgedUser: [] as Heard,
      witness: [] as Heard,
      colleagueWitness: [] as Heard,
      publicOwn: [] as Heard,
      ownWitness: [] as Heard,
    };
    // Even a member's own public channel of the topic hears nothing: database broadcasts are private
    // (hosted publishes them under the private tenant topic only).
    const colleague2 = await deviceOf(colleague);
    const publicOwn = listen(colleague2, `account:${a.accountId}`, heard.publicOwn, false);
    const ownWitness = listen(colleague2, `user:${colleague.userId}`, heard.ownWitness);
    // On one socket each: the forged public channel, then a private channel of the intruder's own
    // account whose broadcast comes later; order per socket makes the witness proof enough.
    const forgedAccount = listen(stranger.client, `account:${a.accountId}`, heard.forgedAccount, false);
    const witness = listen(stranger.client, `account:${stranger.accountId}`, heard.witness);
    const forgedUser = listen(colleague.client, `user:${a.userId}`, heard.forgedUser, false);
    const colleagueWitness = listen(colleague.client, `account:${a.accountId}`, heard.colleagueWitness);
    for (const ch of [forgedAccount, witness, forgedUser, colleagueWitness, publicOwn, ownWitness]) expect((await join(ch)).status).toBe('SUBSCRIBED');

    // A reads (a user-topic broadcast for A), then sends (account topic); then the stranger sends.
    const { data: msg } = await a.client.from('messages').select('id').eq('conversation_id', a.conversationId).limit(1).single();
    const read = await a.client.rpc('mark_read', { p_conversation_id: a.conversationId, p_message_id: msg!.id });
    expect(read.error).toBeNull();
    await send(a, 'pre kolegu');
    await send(stranger, 'svedok');
    const seen = await colleague.client.rpc('mark_read', { p_conversation_id: a.conversationId, p_message_id: msg!.id });
    expect(seen.error).toBeNull();
    await waitFor(() => heard.colleagueWitness[0], "A's account broadcast on the colleague's private channel");
    await waitFor(() => heard.witness[0], "the stranger's own account broadcast");
    await waitFor(() => heard.ownWitness[0], "the colleague's own user broadcast");
    expect(heard.forgedAccount).toEqual([]);
    expect(heard.forgedUser).toEqual([]);
    expect(heard.publicOwn).toEqual([]);
  });
});
