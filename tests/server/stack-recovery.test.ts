// Self-healing stack: PostgreSQL killed with SIGKILL (and PostgREST killed) come back by themselves,
// and every part reconnects on its own — REST, auth, functions, a realtime subscriber and the AI
// worker. While PostgreSQL is down, requests get a clean 503 JSON quickly, never a hang or a crash.
// Runs on its own throwaway stack (it kills that stack's processes).
import { randomUUID } from 'node:crypto';
import { createClient, type RealtimeChannel } from '@supabase/supabase-js';
import pg from 'pg';
import { WebSocket } from 'ws';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestStack, type TestStack } from '../helpers/stack.ts';
import { uniqueEmail } from '../helpers/clients.ts';
import { signUpConfirmed } from '../helpers/signup.ts';
import { alive } from '../../supabase/local/process-registry.ts';
import { createSupabaseRealtimeTransport } from '../../sync/transports/supabase-realtime.ts';
import type { TransportStatus } from '../../sync/transports/transport.ts';

/** PostgreSQL is back and every part serves again within this (backoffs are 250 ms–5 s). */
const RECOVERY_MS = 20_000;
const PASSWORD = 'heslo12345';

let stack: TestStack;
const client = () =>
  createClient(stack.url, stack.keys.anonKey, {
    auth: { persistSession: false, autoRefreshToken: false, detectSessionInUrl: false },
    realtime: { transport: WebSocket as never },
  });

async function until<T>(what: string, fn: () => Promise<T | undefined>, ms = RECOVERY_MS): Promise<T> {
  const end = Date.now() + ms;
  let last: unknown;
  for (;;) {
    try {
      const v = await fn();
      if (v !== undefined) return v;
    } catch (err) {
      last = err;
    }
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}${last ? ` (last error: ${last instanceof Error ? last.message : JSON.stringify(last)})` : ''}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** fetch with a hard limit, so a hanging endpoint fails the test instead of stalling it. */
async function timed(url: string, init: RequestInit, ms = 8_000): Promise<{ status: number; body: unknown; ms: number }> {
  const t0 = Date.now();
  const res = await fetch(url, { ...init, signal: AbortSignal.timeout(ms) });
  const text = await res.text();
  let body: unknown = text;
  try {
    body = JSON.parse(text);
  } catch {
    /* not JSON */
  }
  return { status: res.status, body, ms: Date.now() - t0 };
}

const restGet = () =>
  timed(`${stack.url}/rest/v1/plans?select=code&limit=1`, { headers: { apikey: stack.keys.serviceRoleKey } });
const signIn = (email: string) =>
  timed(`${stack.url}/auth/v1/token?grant_type=password`, {
    method: 'POST',
    headers: { apikey: stack.keys.anonKey, 'content-type': 'application/json' },
    body: JSON.stringify({ email, password: PASSWORD }),
  });

async function memberWithConversation() {
  const c = client();
  const email = uniqueEmail('recovery');
  const { data, error } = await signUpConfirmed(stack, c, { email, password: PASSWORD });
  if (error || !data.session) throw error ?? new Error('no session');
  const conv = await c.rpc('ensure_first_conversation');
  const conversationId = (conv.data as { conversation_id: string }).conversation_id;
  return { c, email, userId: data.session.user.id, conversationId };
}

async function aiReplies(conversationId: string): Promise<number> {
  const db = new pg.Client({ connectionString: stack.databaseUrl });
  await db.connect();
  try {
    const { rows } = await db.query<{ n: string }>(
      `select count(*) as n from public.messages where conversation_id = $1 and source = 'ai'`,
      [conversationId],
    );
    return Number(rows[0]!.n);
  } finally {
    await db.end();
  }
}

beforeAll(async () => {
  stack = await startTestStack();
});
afterAll(async () => {
  await stack?.destroy();
});

describe('PostgreSQL down', () => {
  it('answers a clean 503 JSON at once on REST, auth and functions while it is down, and serves again after', async () => {
    const { c, email } = await memberWithConversation();
    const token = (await c.auth.getSession()).data.session!.access_token;
    await stack.faults.stopPostgres('SIGKILL');
    try {
      const rest = await until('a REST 503', async () => {
        const r = await restGet();
        return r.status === 503 ? r : undefined;
      });
      expect(rest.body).toMatchObject({ message: expect.any(String) });
      expect(rest.ms).toBeLessThan(8_000);

      const auth = await signIn(email);
      expect(auth.status).toBe(503);
      expect(auth.body).toMatchObject({ code: 'database_unavailable', msg: expect.any(String) });

      const fn = await timed(`${stack.url}/functions/v1/ensure-first-conversation`, {
        method: 'POST',
        headers: { apikey: stack.keys.anonKey, authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body: '{}',
      });
      console.log('ensure-first-conversation while PostgreSQL is down:', fn.status, JSON.stringify(fn.body), fn.ms, 'ms');
      expect(fn.status).toBeGreaterThanOrEqual(500);
      expect(typeof fn.body).toBe('object');
      expect(JSON.stringify(fn.body)).not.toMatch(/at \w+ \(|node_modules/); // no stack trace
    } finally {
      await stack.faults.startPostgres();
    }
    await until('REST 200 after restart', async () => ((await restGet()).status === 200 ? true : undefined));
    await until('sign-in after restart', async () => ((await signIn(email)).status === 200 ? true : undefined));
  });

  it('a connection held between two queries when the postmaster dies: the stack process lives, the next query fails, the pool serves again', async () => {
    // The held connection gets PostgreSQL's unasked FATAL ("terminating connection due to unexpected
    // postmaster exit") while no query runs. Without a listener pg emits 'error' into nothing: an
    // uncaught exception in this process (vitest reports it and fails the run; CI saw it kill the
    // Playwright worker of the faults journey).
    const held = await stack.pool.connect();
    await held.query('begin');
    let ended = false;
    held.once('end', () => (ended = true));
    await stack.faults.stopPostgres('SIGKILL');
    try {
      await until('the held connection ended', async () => (ended ? true : undefined));
      await expect(held.query('select 1')).rejects.toThrow();
      held.release(true);
    } finally {
      await stack.faults.startPostgres();
    }
    await until('the pool serves after restart', async () => ((await stack.pool.query<{ one: number }>('select 1 as one')).rows[0]?.one === 1 ? true : undefined));
    await until('REST 200 after restart', async () => ((await restGet()).status === 200 ? true : undefined));
  });

  it('after kill -9 of the postmaster comes back by itself: REST, sign-in, realtime and the AI worker', async () => {
    const { c, email, conversationId } = await memberWithConversation();
    const received: string[] = [];
    /** The server's word on postgres_changes ('ok' once its LISTEN connection is up again). */
    const system: { status?: string }[] = [];
    let status = '';
    const channel: RealtimeChannel = c
      .channel(`recovery-${randomUUID()}`)
      .on('postgres_changes', { event: 'INSERT', schema: 'public', table: 'messages', filter: `conversation_id=eq.${conversationId}` }, (p) => {
        received.push((p.new as { text: string }).text);
      })
      .on('system', {}, (p: { status?: string }) => system.push(p))
      .subscribe((s) => (status = s));
    await until('SUBSCRIBED', async () => (status === 'SUBSCRIBED' ? true : undefined), 10_000);
    await until('the join said Subscribed to PostgreSQL', async () => (system.some((p) => p.status === 'ok') ? true : undefined), 10_000);
    const saidBefore = system.length;

    const oldPid = stack.postgresPid;
    expect(alive(oldPid)).toBe(true);
    const killedAt = Date.now();
    process.kill(oldPid!, 'SIGKILL');

    // Nothing is done by the test to bring it back.
    const newPid = await until('a new PostgreSQL process', async () => {
      const p = stack.postgresPid;
      return p && p !== oldPid && alive(p) ? p : undefined;
    });
    expect(newPid).not.toBe(oldPid);
    await until('REST 200', async () => ((await restGet()).status === 200 ? true : undefined));
    await until('sign-in 200', async () => ((await signIn(email)).status === 200 ? true : undefined));
    const recoveredMs = Date.now() - killedAt;
    console.log(`stack-recovery: PostgreSQL SIGKILL -> REST and auth serving again in ${recoveredMs} ms`);

    // A message sent after recovery reaches the subscriber that was connected before the crash, and
    // the AI worker (whose LISTEN connection died with the server) answers it. Realtime's recovery is
    // its LISTEN connection back, which it tells each subscriber ('ok', Subscribed to PostgreSQL):
    // changes committed before that are not replayed (supabase/local/realtime/listener.ts), and REST
    // and sign-in can be back first (a send then was lost at load 17, session 31's side-by-side runs).
    await until('realtime says PostgreSQL is back', async () => (system.slice(saidBefore).some((p) => p.status === 'ok') ? true : undefined));
    const text = `po obnove ${randomUUID()}`;
    await until('send_message after recovery', async () => {
      const r = await c.rpc('send_message', { p_conversation_id: conversationId, p_text: text, p_client_correlation_id: randomUUID() });
      return r.error ? undefined : true;
    });
    await until('the realtime INSERT after recovery', async () => (received.includes(text) ? true : undefined));
    await until('an AI reply after recovery', async () => ((await aiReplies(conversationId)) >= 1 ? true : undefined));
    await c.removeChannel(channel);
  });

  it("R6.9 the engine's realtime transport is down at once when the server loses PostgreSQL (joined before or during), and up at the server's 'ok'", async () => {
    const { c, conversationId } = await memberWithConversation();
    const accountId = (await stack.pool.query<{ account_id: string }>('select account_id from public.conversations where id = $1', [conversationId])).rows[0]!.account_id;
    const statuses: { before: TransportStatus[]; during: TransportStatus[] } = { before: [], during: [] };
    const details: string[] = [];
    const watch = (into: TransportStatus[], topic: string) => {
      const t = createSupabaseRealtimeTransport({ supabase: c, accountId, topic });
      t.subscribe({ onEvent: () => undefined, onStatus: (s, detail) => (into.push(s), details.push(`${s}: ${detail ?? ''}`)) });
      return t;
    };
    const before = watch(statuses.before, `sync:${accountId}:r69a`);
    await until('joined', async () => (statuses.before.at(-1) === 'connected' ? true : undefined), 10_000);
    await stack.faults.stopPostgres('SIGKILL');
    try {
      // The server's word, not a 30 s health pull (R7.3), tells the machine: fallback and polling.
      await until('degraded on the server losing PostgreSQL', async () => (statuses.before.at(-1) === 'degraded' ? true : undefined), 10_000);
      // A join meanwhile is refused, as hosted refuses it without its database: the machine then
      // resubscribes with its back-off (R7.4).
      const during = watch(statuses.during, `sync:${accountId}:r69b`);
      await until('a join meanwhile is refused', async () => (statuses.during.at(-1) === 'error' ? true : undefined), 10_000);
      expect(statuses.during).not.toContain('connected');
      expect(details.at(-1)).toContain('Realtime was unable to connect to the project database');
      await during.close();
    } finally {
      await stack.faults.startPostgres();
    }
    await until("connected again at the server's ok", async () => (statuses.before.at(-1) === 'connected' ? true : undefined));
    expect(statuses.before.filter((s) => s === 'error' || s === 'disconnected')).toEqual([]); // the channel was kept
    await before.close();
    // And a join now is served.
    const after: TransportStatus[] = [];
    const again = watch(after, `sync:${accountId}:r69c`);
    await until('a join after recovery', async () => (after.at(-1) === 'connected' ? true : undefined));
    await again.close();
  });

  it('keeps serving after PostgREST is killed (the supervisor restarts it)', async () => {
    const oldPid = stack.postgrestPid;
    expect(alive(oldPid)).toBe(true);
    process.kill(oldPid!, 'SIGKILL');
    await until('a new PostgREST', async () => {
      const p = stack.postgrestPid;
      return p && p !== oldPid && alive(p) ? p : undefined;
    });
    await until('REST 200', async () => ((await restGet()).status === 200 ? true : undefined));
  });

  it('holds PostgREST down on request with a 503 JSON, and serves again when it is started', async () => {
    await stack.faults.stopPostgrest();
    try {
      await new Promise((r) => setTimeout(r, 1500)); // a supervisor would have restarted it by now
      expect(stack.postgrestPid).toBeUndefined();
      const r = await restGet();
      expect(r.status).toBe(503);
      expect(r.body).toMatchObject({ message: expect.any(String) });
    } finally {
      await stack.faults.startPostgrest();
    }
    expect((await restGet()).status).toBe(200);
  });
});
