// /rest/v1 as supabase-js uses it, through the real PostgREST and the real migrations: embeds,
// filters, order, limit, single (PGRST116), counts, insert, update, upsert, delete, rpc, and RLS.
import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, inject, it } from 'vitest';
import { anonClient, serviceClient, uniqueEmail, type Client } from '../helpers/clients.ts';
import { signUpConfirmed } from '../helpers/signup.ts';

const stack = inject('stack');

async function signedIn(email: string, password = 'poradna123'): Promise<Client> {
  const c = anonClient(stack);
  const { error } = await c.auth.signInWithPassword({ email, password });
  expect(error).toBeNull();
  return c;
}

async function freshMember(): Promise<Client> {
  const c = anonClient(stack);
  const { error } = await signUpConfirmed(stack, c, { email: uniqueEmail('rest'), password: 'heslo12345' });
  expect(error).toBeNull();
  return c;
}

describe('REST through supabase-js', () => {
  let demo: Client;
  let other: Client;
  beforeAll(async () => {
    demo = await signedIn('demo@poradna.test');
    other = await signedIn('druhy@poradna.test');
  });

  it('selects with an embed, filters, order and limit', async () => {
    const { data, error } = await demo
      .from('conversations')
      .select('id, status, last_message_at, specialist:specialists(id, name, is_ai)')
      .eq('status', 'active')
      .order('last_message_at', { ascending: false })
      .limit(3);
    expect(error).toBeNull();
    expect(data!.length).toBeGreaterThan(0);
    expect(data!.length).toBeLessThanOrEqual(3);
    for (const row of data!) {
      expect(row.status).toBe('active');
      expect(row.specialist).toMatchObject({ name: expect.any(String) });
    }
    const times = data!.map((r) => r.last_message_at as string);
    expect([...times].sort().reverse()).toEqual(times);
  });

  it('filters with in, ilike and gt, and counts exactly', async () => {
    const { data, error, count } = await demo
      .from('specialists')
      .select('name, seniority', { count: 'exact' })
      .in('seniority', ['Senior', 'Lead'])
      .ilike('name', '%a%')
      .gt('name', 'A');
    expect(error).toBeNull();
    expect(count).toBe(data!.length);
    expect(data!.every((s) => ['Senior', 'Lead'].includes(s.seniority as string))).toBe(true);
    const head = await demo.from('plans').select('*', { count: 'exact', head: true });
    expect(head.count).toBe(3);
  });

  it('answers .single() with no row with PGRST116', async () => {
    const { data, error } = await demo.from('conversations').select('id').eq('id', randomUUID()).single();
    expect(data).toBeNull();
    expect(error?.code).toBe('PGRST116');
  });

  it('hides another account\'s rows (RLS)', async () => {
    const mine = await demo.from('conversations').select('id, account_id');
    const theirs = await other.from('conversations').select('id, account_id');
    expect(mine.data!.length).toBeGreaterThan(0);
    const myAccounts = new Set(mine.data!.map((r) => r.account_id as string));
    expect(theirs.data!.some((r) => myAccounts.has(r.account_id as string))).toBe(false);
    const direct = await other.from('messages').select('id').in('conversation_id', mine.data!.map((r) => r.id as string));
    expect(direct.data).toEqual([]);
  });

  it('inserts, upserts idempotently, updates, and refuses what RLS forbids', async () => {
    const member = await freshMember();
    const first = await member.rpc('ensure_first_conversation');
    expect(first.error).toBeNull();
    const conversationId = (first.data as { conversation_id: string }).conversation_id;

    const correlation = randomUUID();
    const row = { conversation_id: conversationId, direction: 'user', source: 'app', type: 'text', text: 'Ahoj', client_correlation_id: correlation };
    const inserted = await member.from('messages').insert(row).select().single();
    expect(inserted.error).toBeNull();
    const insertedId: string = inserted.data?.id;
    const again = await member
      .from('messages')
      .upsert({ ...row, text: 'iný text' }, { onConflict: 'conversation_id,client_correlation_id' })
      .select()
      .single();
    expect(again.error).toBeNull();
    expect(again.data?.id).toBe(insertedId);
    expect(again.data!.text).toBe('Ahoj');

    const archived = await member.from('conversations').update({ archived_at: new Date().toISOString() }).eq('id', conversationId).select('archived_at').single();
    expect(archived.error).toBeNull();
    expect(archived.data!.archived_at).not.toBeNull();

    // A member may not change the status or delete messages: no row changes.
    const status = await member.from('conversations').update({ status: 'completed' }).eq('id', conversationId).select();
    expect(status.error !== null || status.data.length === 0).toBe(true);
    const del = await member.from('messages').delete().eq('id', insertedId).select();
    expect(del.error !== null || del.data.length === 0).toBe(true);
    const still = await member.from('messages').select('id').eq('id', insertedId);
    expect(still.data).toHaveLength(1);
  });

  it('deletes with the service role and calls an rpc', async () => {
    const svc = serviceClient(stack);
    const ins = await svc.from('integration_events').insert({ kind: 'rest.contract', data: { probe: true } }).select('id').single();
    expect(ins.error).toBeNull();
    const eventId: string = ins.data?.id;
    const del = await svc.from('integration_events').delete().eq('id', eventId).select('id');
    expect(del.data).toEqual([{ id: eventId }]);
    const counts = await demo.rpc('get_unread_counts');
    expect(counts.error).toBeNull();
    expect(Array.isArray(counts.data)).toBe(true);
  });

  it('gives anon nothing', async () => {
    const anon = anonClient(stack);
    const { data } = await anon.from('conversations').select('id');
    expect(data ?? []).toEqual([]);
    const specialists = await anon.from('specialists').select('id');
    expect(specialists.data ?? []).toEqual([]);
  });
});
