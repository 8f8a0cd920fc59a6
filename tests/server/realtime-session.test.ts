// Issue 36 F15: after a logout the old access token still verifies (signature and exp) until it
// expires, on hosted Realtime as here. The app's topic rule (public.realtime_topic_allowed, migration
// 20261128000220) also asks that the token's session still exists, so an attacker holding a signed-out
// token can no longer join, re-join or refresh into the app's private topics, through the real socket
// with unmodified supabase-js.
import { afterAll, describe, expect, inject, it } from 'vitest';
import type { RealtimeChannel } from '@supabase/supabase-js';
import { anonClient, serviceClient, uniqueEmail, type Client } from '../helpers/clients.ts';
import { RawSocket, realtimeUrl, waitFor } from './realtime-helpers.ts';

const stack = inject('stack');
const clients: Client[] = [];

function client(): Client {
  const c = anonClient(stack);
  clients.push(c);
  return c;
}

function subscribe(ch: RealtimeChannel): Promise<{ status: string; err?: Error }> {
  return new Promise((resolve) => {
    ch.subscribe((s, err) => {
      if (String(s) !== 'CLOSED') resolve({ status: String(s), ...(err ? { err } : {}) });
    });
  });
}

async function signedIn(): Promise<{ token: string; userId: string; accountId: string }> {
  const email = uniqueEmail('rtsession');
  const created = await serviceClient(stack).auth.admin.createUser({ email, password: 'heslo12345', email_confirm: true });
  expect(created.error).toBeNull();
  const c = client();
  const { data, error } = await c.auth.signInWithPassword({ email, password: 'heslo12345' });
  expect(error).toBeNull();
  const conv = await c.rpc('ensure_first_conversation');
  expect(conv.error).toBeNull();
  const acc = await c.from('account_users').select('account_id').eq('user_id', data.user!.id).single();
  expect(acc.error).toBeNull();
  return { token: data.session!.access_token, userId: data.user!.id, accountId: acc.data!.account_id as string };
}

/** A fresh client that knows only the (stolen) access token. */
async function holding(token: string): Promise<Client> {
  const c = client();
  await c.realtime.setAuth(token);
  return c;
}

async function logout(token: string): Promise<void> {
  const res = await fetch(`${stack.url}/auth/v1/logout`, { method: 'POST', headers: { apikey: stack.anonKey, authorization: `Bearer ${token}` } });
  expect(res.status).toBe(204);
}

afterAll(async () => {
  for (const c of clients) await c.removeAllChannels();
});

describe('issue 36 F15: a signed-out session on realtime', () => {
  it("a join and a re-join with a signed-out session's token are refused on the app's private topics", async () => {
    const u = await signedIn();
    const topics = [`sync:${u.accountId}`, `user:${u.userId}`, `account:${u.accountId}`];
    const before = await holding(u.token);
    const open = topics.map((t) => before.channel(t, { config: { private: true } }));
    for (const ch of open) expect((await subscribe(ch)).status).toBe('SUBSCRIBED');

    await logout(u.token);

    const after = await holding(u.token);
    for (const t of topics) {
      const r = await subscribe(after.channel(t, { config: { private: true } }));
      expect(r.status, t).toBe('CHANNEL_ERROR');
      expect(r.err?.message).toBe(`Unauthorized: You do not have permissions to read from this Channel topic: ${t}`);
    }
    // Re-join on the socket that was admitted before the logout.
    await before.removeChannel(open[0]!);
    const again = await subscribe(before.channel(topics[0]!, { config: { private: true } }));
    expect(again.status).toBe('CHANNEL_ERROR');
  });

  it('an open channel that is handed the signed-out token again (access_token) is closed', async () => {
    const u = await signedIn();
    const topic = `realtime:sync:${u.accountId}`;
    const sock = await RawSocket.open(realtimeUrl(stack.url, stack.anonKey));
    try {
      const joined = await sock.reply(sock.push('1', topic, 'phx_join', { config: { private: true }, access_token: u.token }));
      expect(joined.status).toBe('ok');
      await logout(u.token);
      sock.push('1', topic, 'access_token', { access_token: u.token });
      await waitFor(() => sock.frames.find((f) => f[2] === topic && f[3] === 'phx_close'), 'the channel to be closed');
    } finally {
      sock.close();
    }
  });

  it('a live session still joins, and anon keeps its answers', async () => {
    const u = await signedIn();
    const live = await holding(u.token);
    expect((await subscribe(live.channel(`sync:${u.accountId}`, { config: { private: true } }))).status).toBe('SUBSCRIBED');
    const anon = client();
    expect((await subscribe(anon.channel(`sync:${u.accountId}`, { config: { private: true } }))).status).toBe('CHANNEL_ERROR');
    expect((await subscribe(anon.channel('lobby', { config: {} }))).status).toBe('SUBSCRIBED');
  });
});
