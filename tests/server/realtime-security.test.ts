// Attacks on realtime through the real socket with unmodified supabase-js, on the product's own tables
// and rules (issue 16 items 6 and 13): another account's DELETEs, guessing filters, table probing by
// join errors, channel floods, and broadcasting into another account's topic.
import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { RealtimeChannel, RealtimePostgresChangesPayload } from '@supabase/supabase-js';
import { anonClient, serviceClient, uniqueEmail, type Client } from '../helpers/clients.ts';
import { waitFor } from './realtime-helpers.ts';

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
      .on('postgres_changes', { event: 'DELETE', schema: 'public', table: 'messages', filter: `account_id=eq.${a.accountId}` }, (p) => own.push(p));
    // B guesses: A's account, A's text, A's message id; and one binding with no filter at all.
    const spyCh = b.client
      .channel(`spy-${randomUUID()}`)
      .on('postgres_changes', { event: 'DELETE', schema: 'public', table: 'messages', filter: `account_id=eq.${a.accountId}` }, (p) => spy.push(p))
      .on('postgres_changes', { event: 'DELETE', schema: 'public', table: 'messages', filter: `text=eq.${secret}` }, (p) => spy.push(p))
      .on('postgres_changes', { event: 'DELETE', schema: 'public', table: 'messages', filter: `id=eq.${messageId}` }, (p) => spy.push(p))
      .on('postgres_changes', { event: '*', schema: 'public', table: 'messages' }, (p) => spy.push(p));
    expect((await subscribe(ownCh)).status).toBe('SUBSCRIBED');
    expect((await subscribe(spyCh)).status).toBe('SUBSCRIBED');

    await db.query('delete from public.messages where id = $1', [messageId]);
    const e = await waitFor(() => own[0], "A's delete event");
    expect(e.eventType).toBe('DELETE');
    expect(e.old).toEqual({ id: messageId }); // the key only, as Supabase sends with RLS on
    await new Promise((r) => setTimeout(r, 500));
    expect(spy).toEqual([]);
  });
});
