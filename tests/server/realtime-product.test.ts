// Realtime on the product's own tables: a member's account-level subscription receives their account's
// new messages and conversation updates, and never another account's.
import { randomUUID } from 'node:crypto';
import { afterAll, describe, expect, inject, it } from 'vitest';
import type { RealtimePostgresChangesPayload } from '@supabase/supabase-js';
import { anonClient, uniqueEmail, type Client } from '../helpers/clients.ts';
import { signUpConfirmed } from '../helpers/signup.ts';

const stack = inject('stack');
const clients: Client[] = [];
afterAll(async () => {
  for (const c of clients) await c.removeAllChannels();
});

async function member(): Promise<{ client: Client; accountId: string; conversationId: string }> {
  const client = anonClient(stack);
  clients.push(client);
  const { data, error } = await signUpConfirmed(stack, client, { email: uniqueEmail('rt'), password: 'heslo12345' });
  expect(error).toBeNull();
  await client.realtime.setAuth(data.session!.access_token);
  const conv = await client.rpc('ensure_first_conversation');
  const conversationId = (conv.data as { conversation_id: string }).conversation_id;
  const acc = await client.from('conversations').select('account_id').eq('id', conversationId).single();
  return { client, accountId: acc.data!.account_id as string, conversationId };
}

async function until(cond: () => boolean, ms = 5000): Promise<void> {
  const end = Date.now() + ms;
  while (!cond() && Date.now() < end) await new Promise((r) => setTimeout(r, 25));
}

describe('realtime on product tables', () => {
  it('delivers the account\'s inserts and updates through a filter, and nothing of other accounts', async () => {
    const a = await member();
    const b = await member();
    const got: RealtimePostgresChangesPayload<Record<string, unknown>>[] = [];
    let status = '';
    a.client
      .channel(`account:${a.accountId}`)
      .on('postgres_changes', { event: '*', schema: 'public', table: 'messages', filter: `account_id=eq.${a.accountId}` }, (p) => got.push(p))
      .on('postgres_changes', { event: 'UPDATE', schema: 'public', table: 'conversations', filter: `account_id=eq.${a.accountId}` }, (p) => got.push(p))
      .subscribe((s) => (status = s));
    await until(() => status === 'SUBSCRIBED');
    expect(status).toBe('SUBSCRIBED');

    // B sends into its own account; then A sends. A must see only its own message.
    await b.client.rpc('send_message', { p_conversation_id: b.conversationId, p_text: 'od B', p_client_correlation_id: randomUUID() });
    await a.client.rpc('send_message', { p_conversation_id: a.conversationId, p_text: 'od A', p_client_correlation_id: randomUUID() });
    await until(() => got.some((p) => p.table === 'messages' && (p.new as { text?: string }).text === 'od A'));
    await a.client.from('conversations').update({ archived_at: new Date().toISOString() }).eq('id', a.conversationId);
    await until(() => got.some((p) => p.table === 'conversations'));

    const texts = got.filter((p) => p.table === 'messages').map((p) => (p.new as { text?: string }).text);
    expect(texts).toContain('od A');
    expect(texts).not.toContain('od B');
    expect(got.every((p) => (p.new as { account_id?: string }).account_id === a.accountId)).toBe(true);
    const upd = got.find((p) => p.table === 'conversations');
    expect(upd?.eventType).toBe('UPDATE');
    expect((upd?.new as { change_seq?: number }).change_seq).toEqual(expect.any(Number));
  });

  it('refuses a subscription to another account\'s rows silently by RLS (no events)', async () => {
    const a = await member();
    const b = await member();
    const got: unknown[] = [];
    let status = '';
    a.client
      .channel(`spy:${b.accountId}`)
      .on('postgres_changes', { event: 'INSERT', schema: 'public', table: 'messages', filter: `account_id=eq.${b.accountId}` }, (p) => got.push(p))
      .subscribe((s) => (status = s));
    await until(() => status === 'SUBSCRIBED');
    await b.client.rpc('send_message', { p_conversation_id: b.conversationId, p_text: 'tajné', p_client_correlation_id: randomUUID() });
    await new Promise((r) => setTimeout(r, 800));
    expect(got).toEqual([]);
  });
});
