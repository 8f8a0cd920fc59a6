// Attacks on realtime through the real socket with unmodified supabase-js, on the product's own tables
// and rules (issue 16 items 6 and 13): another account's DELETEs, guessing filters, table probing by
// join errors, channel floods, and broadcasting into another account's topic.
import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { RealtimeChannel, RealtimePostgresChangesPayload } from '@supabase/supabase-js';
import { anonClient, serviceClient, uniqueEmail, type Client } from '../helpers/clients.ts';
import { RawSocket, realtimeUrl, waitFor } from './realtime-helpers.ts';

const stack = inject('stack');
const clients: Client[] = [];
let db: pg.Client;

interface Member {
  client: Client;
  token: string;
  accountId: string;
  conversationId: string;
}

async function member(): Promise<Member> {
  const email = uniqueEmail('rtsec');
  const admin = serviceClient(stack);
  const created = await admin.auth.admin.createUser({ email, password: 'heslo12345', email_confirm: true });
  expect(created.error).toBeNull();
  const client = anonClient(stack);
  clients.push(client);
  const { data, error } = await client.auth.signInWithPassword({ email, password: 'heslo12345' });
  expect(error).toBeNull();
  const token = data.session!.access_token;
  await client.realtime.setAuth(token);
  const conv = await client.rpc('ensure_first_conversation');
  expect(conv.error).toBeNull();
  const conversationId = (conv.data as { conversation_id: string }).conversation_id;
  const acc = await client.from('conversations').select('account_id').eq('id', conversationId).single();
  return { client, token, accountId: acc.data!.account_id as string, conversationId };
}

async function send(m: Member, text: string): Promise<string> {
  const r = await m.client.rpc('send_message', {
    p_conversation_id: m.conversationId,
    p_text: text,
    p_client_correlation_id: randomUUID(),
  });
  expect(r.error).toBeNull();
  const { rows } = await db.query<{ id: string }>(
    'select id from public.messages where conversation_id = $1 and text = $2',
    [m.conversationId, text],
  );
  return rows[0]!.id;
}

type Payload = RealtimePostgresChangesPayload<Record<string, unknown>>;

function subscribe(ch: RealtimeChannel): Promise<{ status: string; err?: Error }> {
  return new Promise((resolve) => {
    ch.subscribe((s, err) => {
      if (String(s) !== 'CLOSED') resolve({ status: String(s), ...(err ? { err } : {}) });
    });
  });
}

beforeAll(async () => {
  db = new pg.Client({ connectionString: stack.databaseUrl });
  await db.connect();
});

afterAll(async () => {
  for (const c of clients) await c.removeAllChannels();
  await db.end();
});

describe('realtime DELETE events (issue 16 item 6, issue 17 item 3)', () => {
  it('publishes the chat tables with REPLICA IDENTITY FULL', async () => {
    const { rows } = await db.query<{ relname: string; relreplident: string }>(
      `select relname, relreplident::text from pg_class
        where oid in ('public.conversations'::regclass, 'public.messages'::regclass, 'public.read_cursors'::regclass)
        order by relname`,
    );
    expect(rows.map((r) => [r.relname, r.relreplident])).toEqual([
      ['conversations', 'f'],
      ['messages', 'f'],
      ['read_cursors', 'f'],
    ]);
  });

  it("delivers an account's DELETE to its own filtered subscriber, and nothing to another account's guesses", async () => {
    const a = await member();
    const b = await member();
    const secret = `tajný text ${randomUUID()}`;
    const messageId = await send(a, secret);

    const own: Payload[] = [];
    const spy: Payload[] = [];
    const ownCh = a.client
      .channel(`sync:${a.accountId}:x`)
      .on(
        'postgres_changes',
        { event: 'DELETE', schema: 'public', table: 'messages', filter: `account_id=eq.${a.accountId}` },
        (p) => own.push(p),
      );
    // B guesses: A's account, A's text, A's message id; and one binding with no filter at all.
    const spyCh = b.client
      .channel(`spy-${randomUUID()}`)
      .on(
        'postgres_changes',
        { event: 'DELETE', schema: 'public', table: 'messages', filter: `account_id=eq.${a.accountId}` },
        (p) => spy.push(p),
      )
      .on(
        'postgres_changes',
        { event: 'DELETE', schema: 'public', table: 'messages', filter: `text=eq.${secret}` },
        (p) => spy.push(p),
      )
      .on(
        'postgres_changes',
        { event: 'DELETE', schema: 'public', table: 'messages', filter: `id=eq.${messageId}` },
        (p) => spy.push(p),
      )
      .on('postgres_changes', { event: '*', schema: 'public', table: 'messages' }, (p) => spy.push(p));
    expect((await subscribe(ownCh)).status).toBe('SUBSCRIBED');
    expect((await subscribe(spyCh)).status).toBe('SUBSCRIBED');

    // As every message writer does, the conversation is locked first (private.lock_conversation):
    // a bare delete locked the message, then its account's counter (the tombstone), the opposite
    // order to a worker marking the message read, and once got 'deadlock detected' (session 42).
    await db.query('begin');
    try {
      await db.query('select private.lock_conversation($1)', [a.conversationId]);
      await db.query('delete from public.messages where id = $1', [messageId]);
      await db.query('commit');
    } catch (err) {
      await db.query('rollback');
      throw err;
    }
    const e = await waitFor(() => own[0], "A's delete event");
    expect(e.eventType).toBe('DELETE');
    expect(e.old).toEqual({ id: messageId }); // the key only, as Supabase sends with RLS on
    await new Promise((r) => setTimeout(r, 500));
    expect(spy).toEqual([]);
  });
});

describe('realtime hygiene (issue 16 item 13)', () => {
  it('answers a missing, an unpublished and a forbidden table with the same error', async () => {
    const m = await member();
    const unpublished = `rt_unpub_${randomUUID().slice(0, 8)}`;
    const forbidden = `rt_forbidden_${randomUUID().slice(0, 8)}`;
    const missing = `rt_missing_${randomUUID().slice(0, 8)}`;
    await db.query(`create table public.${unpublished} (id uuid primary key)`);
    await db.query(`grant select on public.${unpublished} to authenticated`);
    // Published and prepared, but the member's role has no privilege on it.
    await db.query(`create table public.${forbidden} (id uuid primary key)`);
    await db.query(`revoke all on public.${forbidden} from anon, authenticated`);
    await db.query(`alter publication supabase_realtime add table public.${forbidden}`);
    await db.query('select local_stack.sync_realtime_triggers()');
    try {
      const answer = async (table: string) => {
        const ch = m.client
          .channel(`probe-${randomUUID()}`)
          .on('postgres_changes', { event: '*', schema: 'public', table }, () => undefined);
        const r = await subscribe(ch);
        await m.client.removeChannel(ch);
        expect(r.status).toBe('CHANNEL_ERROR');
        return r.err!.message.replace(table, '<table>');
      };
      const msgs = [await answer(missing), await answer(unpublished), await answer(forbidden)];
      expect(msgs[0]).toMatch(/^postgres_changes\[0\]: Unable to subscribe to changes with given parameters/);
      expect(new Set(msgs).size).toBe(1);
      // The same for schema-wide bindings: a missing schema is not revealed either.
      const ch = m.client
        .channel(`probe-${randomUUID()}`)
        .on(
          'postgres_changes',
          { event: '*', schema: `no_schema_${randomUUID().slice(0, 8)}` },
          () => undefined,
        );
      const r = await subscribe(ch);
      await m.client.removeChannel(ch);
      expect(r.err?.message).toMatch(/Unable to subscribe to changes with given parameters/);
    } finally {
      await db.query(`drop table public.${unpublished}; drop table public.${forbidden}`);
      await db.query('select local_stack.sync_realtime_triggers()');
    }
  });

  it('caps channels per socket at 100 and bindings per channel at 100', async () => {
    const m = await member();
    const first = Array.from({ length: 100 }, (_, i) =>
      m.client.channel(`cap-${i}-${randomUUID()}`).on('broadcast', { event: 'x' }, () => undefined),
    );
    // Below the per-second join limit, so only the channel cap can refuse the 101st.
    const results = [];
    for (let i = 0; i < first.length; i += 50) {
      results.push(...(await Promise.all(first.slice(i, i + 50).map((c) => subscribe(c)))));
      await new Promise((r) => setTimeout(r, 1_050));
    }
    expect(results.every((r) => r.status === 'SUBSCRIBED')).toBe(true);
    const extra = m.client.channel(`cap-extra-${randomUUID()}`);
    const r = await subscribe(extra);
    expect(r.status).toBe('CHANNEL_ERROR');
    expect(r.err?.message).toMatch(/Too many channels/);
    await m.client.removeAllChannels();

    let many = m.client.channel(`bindings-${randomUUID()}`);
    for (let i = 0; i < 101; i++)
      many = many.on(
        'postgres_changes',
        { event: 'INSERT', schema: 'public', table: 'messages', filter: `account_id=eq.${m.accountId}` },
        () => undefined,
      );
    const b = await subscribe(many);
    expect(b.status).toBe('CHANNEL_ERROR');
    expect(b.err?.message).toMatch(/Too many postgres_changes bindings/);
    await m.client.removeAllChannels();
  });

  it('refuses more than 100 joins per second on one socket', async () => {
    const raw = await RawSocket.open(realtimeUrl(stack.url, stack.anonKey));
    try {
      const refs: string[] = [];
      for (let i = 0; i < 110; i++)
        refs.push(raw.push(String(i), `realtime:flood-${i}`, 'phx_join', { config: {} }));
      const replies = await Promise.all(refs.map((ref) => raw.reply(ref)));
      const refused = replies.filter((x) => x.status === 'error');
      expect(refused.length).toBeGreaterThanOrEqual(10);
      expect(refused[0]!.response).toEqual({ reason: 'Too many joins per second; try again later' });
    } finally {
      raw.close();
    }
  });

  it("lets a member broadcast in its own account's topic, never into another account's", async () => {
    const a = await member();
    const b = await member();
    const a2 = anonClient(stack); // A's second device
    clients.push(a2);
    await a2.realtime.setAuth(a.token);
    const topic = `sync:${a.accountId}:dev`;
    const got = { a: [] as unknown[], a2: [] as unknown[], b: [] as unknown[] };
    const chA = a.client
      .channel(topic, { config: { broadcast: { ack: true } } })
      .on('broadcast', { event: 'ping' }, (p) => got.a.push(p));
    const chA2 = a2.channel(topic).on('broadcast', { event: 'ping' }, (p) => got.a2.push(p));
    const chB = b.client
      .channel(topic, { config: { broadcast: { ack: true } } })
      .on('broadcast', { event: 'ping' }, (p) => got.b.push(p));
    for (const ch of [chA, chA2, chB]) expect((await subscribe(ch)).status).toBe('SUBSCRIBED');

    // B's push into A's topic is refused and reaches nobody.
    expect(await chB.send({ type: 'broadcast', event: 'ping', payload: { from: 'B' } })).toBe('error');
    // A's own push reaches A's other device, and not B, who joined A's topic.
    expect(await chA.send({ type: 'broadcast', event: 'ping', payload: { from: 'A' } })).toBe('ok');
    await waitFor(() => got.a2[0], "A's broadcast on A's other device");
    await new Promise((r) => setTimeout(r, 300));
    expect(got.a2).toEqual([expect.objectContaining({ payload: { from: 'A' } })]);
    expect(got.b).toEqual([]);
    expect(got.a).toEqual([]);

    // A conversation topic belongs to the conversation's account the same way.
    const conv = `messages:${a.conversationId}`;
    const cB = b.client.channel(conv, { config: { broadcast: { ack: true } } });
    expect((await subscribe(cB)).status).toBe('SUBSCRIBED');
    expect(await cB.send({ type: 'broadcast', event: 'ping', payload: {} })).toBe('error');
    const cA = a.client.channel(conv, { config: { broadcast: { ack: true } } });
    expect((await subscribe(cA)).status).toBe('SUBSCRIBED');
    expect(await cA.send({ type: 'broadcast', event: 'ping', payload: {} })).toBe('ok');
  });

  it("admits a private channel only to the topic's own account", async () => {
    const a = await member();
    const b = await member();
    const topic = `sync:${a.accountId}:private`;
    const spy = b.client.channel(topic, { config: { private: true } });
    const refused = await subscribe(spy);
    expect(refused.status).toBe('CHANNEL_ERROR');
    expect(refused.err?.message).toBe(
      `Unauthorized: You do not have permissions to read from this Channel topic: ${topic}`,
    );
    await b.client.removeChannel(spy);

    const got: unknown[] = [];
    const a2 = anonClient(stack);
    clients.push(a2);
    await a2.realtime.setAuth(a.token);
    const own = a.client.channel(topic, { config: { private: true, broadcast: { ack: true } } });
    const other = a2
      .channel(topic, { config: { private: true } })
      .on('broadcast', { event: 'ping' }, (p) => got.push(p));
    expect((await subscribe(own)).status).toBe('SUBSCRIBED');
    expect((await subscribe(other)).status).toBe('SUBSCRIBED');
    expect(await own.send({ type: 'broadcast', event: 'ping', payload: { n: 1 } })).toBe('ok');
    await waitFor(() => got[0], 'private broadcast');
  });

  it("keeps a user's private relay topic to that user's own devices (R6.8): a colleague, another account and anon are refused, and a public channel of the same name hears nothing", async () => {
    const a = await member();
    const stranger = await member();
    // A colleague: a second user moved into A's account (one account per user), acting in it.
    const colleague = await member();
    const colleagueId = (await colleague.client.auth.getUser()).data.user!.id;
    await db.query('update public.account_users set account_id = $1, role = $2 where user_id = $3', [a.accountId, 'member', colleagueId]);
    const aId = (await a.client.auth.getUser()).data.user!.id;
    const topic = `user:${aId}`;
    const refusal = `Unauthorized: You do not have permissions to read from this Channel topic: ${topic}`;
    for (const intruder of [colleague, stranger]) {
      const spy = intruder.client.channel(topic, { config: { private: true } });
      const refused = await subscribe(spy);
      expect(refused.status).toBe('CHANNEL_ERROR');
      expect(refused.err?.message).toBe(refusal);
      await intruder.client.removeChannel(spy);
    }
    const anon = anonClient(stack);
    clients.push(anon);
    const anonSpy = anon.channel(topic, { config: { private: true } });
    expect((await subscribe(anonSpy)).status).toBe('CHANNEL_ERROR');

    // A's own second device joins and hears A's relay; a public channel of the same topic (A's own,
    // and the colleague's) hears nothing, and the colleague's push into it reaches nobody.
    const a2 = anonClient(stack);
    clients.push(a2);
    await a2.realtime.setAuth(a.token);
    const got = { a2: [] as unknown[], publicA: [] as unknown[], publicColleague: [] as unknown[] };
    const relay = a.client.channel(topic, { config: { private: true, broadcast: { ack: true } } });
    const device = a2.channel(topic, { config: { private: true } }).on('broadcast', { event: 'send' }, (p) => got.a2.push(p));
    const publicA = anonClient(stack);
    clients.push(publicA);
    await publicA.realtime.setAuth(a.token);
    const chPublicA = publicA.channel(topic).on('broadcast', { event: 'send' }, (p) => got.publicA.push(p));
    const chColleague = colleague.client
      .channel(topic, { config: { broadcast: { ack: true } } })
      .on('broadcast', { event: 'send' }, (p) => got.publicColleague.push(p));
    for (const ch of [relay, device, chPublicA, chColleague]) expect((await subscribe(ch)).status).toBe('SUBSCRIBED');
    expect(await chColleague.send({ type: 'broadcast', event: 'send', payload: { text: 'forged' } })).toBe('error');
    expect(await relay.send({ type: 'broadcast', event: 'send', payload: { text: 'Ahoj' } })).toBe('ok');
    await waitFor(() => got.a2[0], "A's relay on A's other device");
    await new Promise((r) => setTimeout(r, 300));
    expect(got.a2).toEqual([expect.objectContaining({ payload: { text: 'Ahoj' } })]);
    expect(got.publicA).toEqual([]);
    expect(got.publicColleague).toEqual([]);
  });

  it('refuses an anonymous broadcast into an account topic; the service role may', async () => {
    const a = await member();
    const anon = anonClient(stack);
    clients.push(anon);
    const ch = anon.channel(`sync:${a.accountId}`, { config: { broadcast: { ack: true } } });
    expect((await subscribe(ch)).status).toBe('SUBSCRIBED');
    expect(await ch.send({ type: 'broadcast', event: 'ping', payload: {} })).toBe('error');
    const service = serviceClient(stack);
    clients.push(service);
    const sc = service.channel(`sync:${a.accountId}`, { config: { broadcast: { ack: true } } });
    expect((await subscribe(sc)).status).toBe('SUBSCRIBED');
    expect(await sc.send({ type: 'broadcast', event: 'ping', payload: {} })).toBe('ok');
  });
});
