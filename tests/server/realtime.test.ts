// /realtime/v1 through the unmodified supabase-js (and a raw socket for the wire details): filters,
// RLS as the subscriber, DELETE with the primary key only, truncated NOTIFY payloads, token updates,
// heartbeats, bad input and the LISTEN connection coming back.
import { createServer, type Server } from 'node:http';
import { randomUUID } from 'node:crypto';
import type { SupabaseClient } from '@supabase/supabase-js';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { WebSocket } from 'ws';
import { createRealtimeServer, type RealtimeServer } from '../../supabase/local/realtime/server.ts';
import {
  RawSocket,
  clientFor,
  createTestTable,
  listen,
  realtimeUrl,
  upgradeStatus,
  signToken,
  subscribed,
  waitFor,
  type Row,
} from './realtime-helpers.ts';

const stack = inject('stack');
const userA = randomUUID();
const userB = randomUUID();
let table: Awaited<ReturnType<typeof createTestTable>>;
let tokenA: string;
let tokenB: string;
const clients: SupabaseClient[] = [];

async function client(
  token: string,
  realtime: { heartbeatIntervalMs?: number } = {},
  url = stack.url,
): Promise<SupabaseClient> {
  const c = await clientFor(url, stack.anonKey, token, realtime);
  clients.push(c);
  return c;
}

async function insert(owner: string, n: number, label = 'x'): Promise<string> {
  const { rows } = await table.db.query<{ id: string }>(
    `insert into public.${table.name} (owner, n, label) values ($1, $2, $3) returning id`,
    [owner, n, label],
  );
  return rows[0]!.id;
}

/** A realtime server of its own on a free port, against the shared stack's database. */
async function privateRealtime(
  opts: { idleTimeoutMs?: number; listenerAppName?: string } = {},
): Promise<{ base: string; close(): Promise<void> }> {
  const pool = new pg.Pool({ connectionString: stack.databaseUrl, max: 4 });
  const rt: RealtimeServer = await createRealtimeServer({
    pool,
    databaseUrl: stack.databaseUrl,
    keys: { jwtSecret: stack.jwtSecret, anonKey: stack.anonKey, serviceRoleKey: stack.serviceRoleKey, publishableKey: stack.publishableKey, secretKey: stack.secretKey },
    log: () => undefined,
    ...opts,
  });
  const server: Server = createServer();
  server.on('upgrade', (req, socket, head) => rt.handleUpgrade(req, socket, head));
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const addr = server.address();
  return {
    base: `http://127.0.0.1:${typeof addr === 'object' && addr ? addr.port : 0}`,
    async close() {
      await rt.close();
      await new Promise<void>((r) => server.close(() => r()));
      await pool.end();
    },
  };
}

const news = (events: { eventType: string; new: unknown }[]) => events.map((e) => e.new as Row);

beforeAll(async () => {
  table = await createTestTable(stack.databaseUrl);
  tokenA = await signToken(stack.jwtSecret, { sub: userA });
  tokenB = await signToken(stack.jwtSecret, { sub: userB });
});

afterAll(async () => {
  await Promise.all(clients.map((c) => c.removeAllChannels()));
  await table.drop();
});

describe('realtime postgres_changes', () => {
  it('delivers an INSERT through an eq filter, with columns typed', async () => {
    const l = listen(await client(tokenA), table.name, 'INSERT', `owner=eq.${userA}`);
    await subscribed(l);
    const id = await insert(userA, 7, 'hello');
    const e = await waitFor(() => l.events[0], 'insert event');
    expect(e.eventType).toBe('INSERT');
    expect(e.schema).toBe('public');
    expect(e.table).toBe(table.name);
    expect(e.new).toEqual({ id, owner: userA, n: 7, label: 'hello' });
    expect(e.old).toEqual({});
    expect(e.errors).toBeNull();
    expect(Date.parse(e.commit_timestamp)).toBeGreaterThan(Date.now() - 60_000);
  });

  it('delivers an UPDATE with the primary key as old record', async () => {
    const id = await insert(userA, 1);
    const l = listen(await client(tokenA), table.name, 'UPDATE', `owner=eq.${userA}`);
    await subscribed(l);
    await table.db.query(`update public.${table.name} set n = 2 where id = $1`, [id]);
    const e = await waitFor(() => l.events[0], 'update event');
    expect(e.eventType).toBe('UPDATE');
    expect(e.new).toMatchObject({ id, n: 2 });
    expect(e.old).toEqual({ id });
  });

  it("never delivers another user's row, even through a filter naming that user", async () => {
    const l = listen(await client(tokenB), table.name, '*', `owner=in.(${userA},${userB})`);
    const all = listen(await client(tokenB), table.name, '*');
    await Promise.all([subscribed(l), subscribed(all)]);
    await insert(userA, 100);
    const mine = await insert(userB, 101);
    await waitFor(() => l.events.length === 1 && all.events.length === 1, 'own row');
    expect(news(l.events).map((r) => r.id)).toEqual([mine]);
    expect(news(all.events).map((r) => r.id)).toEqual([mine]);
  });

  it('does not deliver rows a filter does not match', async () => {
    const l = listen(await client(tokenA), table.name, 'INSERT', 'n=eq.5');
    await subscribed(l);
    await insert(userA, 4);
    await insert(userA, 5);
    await waitFor(() => l.events.length === 1, 'matching row');
    expect(news(l.events).map((r) => r.n)).toEqual([5]);
  });

  it('evaluates in, gt and neq filters with the column types', async () => {
    const c = await client(tokenA);
    const inL = listen(c, table.name, 'INSERT', 'n=in.(1,3,20)');
    const gtL = listen(c, table.name, 'INSERT', 'n=gt.10');
    const neqL = listen(c, table.name, 'INSERT', 'label=neq.skip');
    const andL = listen(c, table.name, 'INSERT', 'n=gte.3,n=lt.12');
    await Promise.all([inL, gtL, neqL, andL].map(subscribed));
    for (const [n, label] of [
      [1, 'a'],
      [2, 'skip'],
      [3, 'skip'],
      [11, 'b'],
      [20, 'end'],
    ] as const)
      await insert(userA, n, label);
    await waitFor(
      () => [inL, gtL, neqL].every((l) => l.events.some((e) => (e.new as Row).n === 20)),
      'final row everywhere',
    );
    expect(news(inL.events).map((r) => r.n)).toEqual([1, 3, 20]);
    expect(news(gtL.events).map((r) => r.n)).toEqual([11, 20]);
    expect(news(neqL.events).map((r) => r.label)).toEqual(['a', 'b', 'end']);
    expect(news(andL.events).map((r) => r.n)).toEqual([3, 11]);
  });

  it.each([
    ['n=like.x', /Unsupported filter operator "like"/],
    ['nope=eq.1', /Unknown column "nope"/],
    ['n=eq.abc', /Invalid value/],
    ['n=in.1,2', /in expects a list/],
    ['garbage', /Malformed filter/],
  ])('refuses the filter %s with a reason', async (filter, reason) => {
    const l = listen(await client(tokenA), table.name, 'INSERT', filter);
    const s = await l.status;
    expect(s.status).toBe('CHANNEL_ERROR');
    expect(s.err?.message).toMatch(reason);
    await l.channel.unsubscribe();
  });

  it('refuses an unknown or unpublished table', async () => {
    // One answer for both (and for a forbidden table: realtime-security.test.ts), so joins cannot probe.
    const unknown = listen(await client(tokenA), 'no_such_table_here', '*');
    expect((await unknown.status).err?.message).toMatch(
      /Unable to subscribe to changes with given parameters/,
    );
    await unknown.channel.unsubscribe();
    await table.db.query(`create table if not exists public.${table.name}_unpub (id int primary key)`);
    const unpublished = listen(await client(tokenA), `${table.name}_unpub`, '*');
    expect((await unpublished.status).err?.message).toMatch(
      /Unable to subscribe to changes with given parameters/,
    );
    await unpublished.channel.unsubscribe();
    await table.db.query(`drop table public.${table.name}_unpub`);
  });

  it('refuses a forged or expired JWT', async () => {
    const forged = await signToken('not-the-secret-not-the-secret-not-the-secret', { sub: userA });
    const expired = await signToken(stack.jwtSecret, { sub: userA, expiresIn: -120 });
    const f = listen(await client(forged), table.name, '*');
    const e = listen(await client(expired), table.name, '*');
    expect(await f.status).toMatchObject({
      status: 'CHANNEL_ERROR',
      err: { message: expect.stringMatching(/signature/) as unknown },
    });
    expect(await e.status).toMatchObject({
      status: 'CHANNEL_ERROR',
      err: { message: expect.stringMatching(/expired/) as unknown },
    });
    await Promise.all([f.channel.unsubscribe(), e.channel.unsubscribe()]);
  });

  it('drops a filtered DELETE while the table keeps the default replica identity, as Supabase does', async () => {
    const id = await insert(userA, 49);
    const l = listen(await client(tokenA), table.name, 'DELETE', 'n=eq.49');
    const all = listen(await client(tokenA), table.name, 'DELETE');
    await Promise.all([subscribed(l), subscribed(all)]);
    await table.db.query(`delete from public.${table.name} where id = $1`, [id]);
    // The unfiltered subscriber cannot be RLS-checked either: owner is not in a key-only old row.
    await new Promise((r) => setTimeout(r, 400));
    expect(l.events).toEqual([]);
    expect(all.events).toEqual([]);
  });

  it('delivers a DELETE with only the primary key, to matching filters only', async () => {
    await table.db.query(`alter table public.${table.name} replica identity full`);
    const id = await insert(userA, 50);
    const other = await insert(userA, 51);
    const l = listen(await client(tokenA), table.name, 'DELETE', 'n=eq.50');
    await subscribed(l);
    await table.db.query(`delete from public.${table.name} where id = $1`, [other]);
    await table.db.query(`delete from public.${table.name} where id = $1`, [id]);
    const e = await waitFor(() => l.events[0], 'delete event');
    expect(e.eventType).toBe('DELETE');
    expect(e.old).toEqual({ id });
    expect(e.new).toEqual({});
    expect(l.events).toHaveLength(1);
  });

  it('judges the DELETE of a row too big for NOTIFY on its small columns', async () => {
    await table.db.query(`alter table public.${table.name} replica identity full`);
    const id = await insert(userA, 52, 'y'.repeat(9_000));
    const mine = listen(await client(tokenA), table.name, 'DELETE', `owner=eq.${userA}`);
    const spy = listen(await client(tokenB), table.name, 'DELETE', `owner=eq.${userA}`);
    await Promise.all([subscribed(mine), subscribed(spy)]);
    await table.db.query(`delete from public.${table.name} where id = $1`, [id]);
    const e = await waitFor(() => mine.events[0], 'delete event');
    expect(e.old).toEqual({ id });
    await new Promise((r) => setTimeout(r, 300));
    expect(spy.events).toEqual([]);
  });

  it('delivers a row too big for NOTIFY, read as the subscriber', async () => {
    const l = listen(await client(tokenA), table.name, 'INSERT', `owner=eq.${userA}`);
    await subscribed(l);
    const label = 'ž'.repeat(9_000);
    const id = await insert(userA, 9, label);
    const e = await waitFor(() => l.events[0], 'big insert');
    expect(e.new).toEqual({ id, owner: userA, n: 9, label });
  });

  it('switches whose rows a channel sees when its access token changes, and closes on a bad one', async () => {
    const c = await client(tokenA);
    const l = listen(c, table.name, 'INSERT');
    await subscribed(l);
    await c.realtime.setAuth(tokenB);
    // Nothing answers an access_token push (realtime-js sends it without awaiting a reply), so the
    // switch is known applied when a row only B may read arrives: such probes are inserted every
    // 100 ms until one does. Before the switch the channel sees no row of B's; a fixed pause here
    // failed on a loaded machine, where verifying the token took longer than the pause.
    const probes = new Set<string>();
    let lastProbe = 0;
    await waitFor(
      async () => {
        if (l.events.length > 0) return true;
        if (Date.now() - lastProbe >= 100) {
          lastProbe = Date.now();
          probes.add(await insert(userB, 59));
        }
        return false;
      },
      'a row of the new user (the new token applied)',
      15_000,
    );
    expect(probes).toContain((l.events[0]!.new as Row).id);
    await insert(userA, 60);
    const mine = await insert(userB, 61);
    // Each socket gets its changes in commit order, so A's row 60 would have come before 61.
    await waitFor(() => l.events.some((e) => (e.new as Row).id === mine), 'row of the new user');
    const rest = l.events.map((e) => (e.new as Row).id).filter((id) => !probes.has(id));
    expect(rest).toEqual([mine]);

    await c.realtime.setAuth('not-a-jwt');
    await waitFor(() => l.statuses.includes('CLOSED'), 'channel closed after a bad token');
  });

  it('answers the join on the wire as realtime-js expects, and sends the change frame', async () => {
    const ws = await RawSocket.open(realtimeUrl(stack.url, stack.anonKey));
    try {
      const topic = `realtime:raw-${randomUUID()}`;
      const binding = { event: 'INSERT', schema: 'public', table: table.name, filter: `owner=eq.${userA}` };
      const ref = ws.push('1', topic, 'phx_join', {
        config: { postgres_changes: [binding] },
        access_token: tokenA,
      });
      const reply = await ws.reply(ref);
      expect(reply.status).toBe('ok');
      const [echo] = reply.response.postgres_changes as Record<string, unknown>[];
      expect(echo).toEqual({ ...binding, id: expect.any(Number) as unknown });
      await waitFor(() => ws.frames.find((f) => f[3] === 'system'), 'system message');
      const id = await insert(userA, 70);
      const frame = await waitFor(() => ws.frames.find((f) => f[3] === 'postgres_changes'), 'change frame');
      expect(frame.slice(0, 4)).toEqual(['1', null, topic, 'postgres_changes']);
      expect(frame[4]).toEqual({
        ids: [echo!.id],
        data: {
          schema: 'public',
          table: table.name,
          commit_timestamp: expect.any(String) as unknown,
          type: 'INSERT',
          columns: [
            { name: 'id', type: 'uuid' },
            { name: 'owner', type: 'uuid' },
            { name: 'n', type: 'int4' },
            { name: 'label', type: 'text' },
          ],
          record: { id, owner: userA, n: 70, label: 'x' },
          errors: null,
        },
      });
      const hb = ws.push(null, 'phoenix', 'heartbeat', {});
      expect(await ws.reply(hb)).toEqual({ status: 'ok', response: {} });
      const leave = ws.push('1', topic, 'phx_leave', {});
      expect((await ws.reply(leave)).status).toBe('ok');
    } finally {
      ws.close();
    }
  });

  it('speaks vsn 1.0.0 object frames too', async () => {
    const ws = new WebSocket(realtimeUrl(stack.url, stack.anonKey, '1.0.0'));
    const frames: Record<string, unknown>[] = [];
    ws.on('message', (d) =>
      frames.push(JSON.parse((d as Buffer).toString('utf8')) as Record<string, unknown>),
    );
    await new Promise((r) => ws.once('open', r));
    try {
      ws.send(
        JSON.stringify({ topic: 'phoenix', event: 'heartbeat', payload: {}, ref: '9', join_ref: null }),
      );
      const reply = await waitFor(() => frames.find((f) => f.ref === '9'), 'vsn 1 heartbeat reply');
      expect(reply).toEqual({
        join_ref: null,
        ref: '9',
        topic: 'phoenix',
        event: 'phx_reply',
        payload: { status: 'ok', response: {} },
      });
    } finally {
      ws.terminate();
    }
  });

  it('fans broadcast out to the other members of a topic', async () => {
    const topic = `room-${randomUUID()}`;
    const got: { sender: unknown[]; receiver: unknown[] } = { sender: [], receiver: [] };
    const sender = (await client(tokenA))
      .channel(topic)
      .on('broadcast', { event: 'ping' }, (p) => got.sender.push(p));
    const receiver = (await client(tokenB))
      .channel(topic)
      .on('broadcast', { event: 'ping' }, (p) => got.receiver.push(p));
    const joined = (ch: typeof sender) =>
      new Promise<void>((r) => ch.subscribe((s) => String(s) === 'SUBSCRIBED' && r()));
    await Promise.all([joined(sender), joined(receiver)]);
    expect(await sender.send({ type: 'broadcast', event: 'ping', payload: { a: 1 } })).toBe('ok');
    const p = await waitFor(() => got.receiver[0], 'broadcast');
    expect(p).toMatchObject({ type: 'broadcast', event: 'ping', payload: { a: 1 } });
    expect(got.sender).toEqual([]);
  });

  it('survives malformed frames and closes on frames over 1 MB', async () => {
    const ws = await RawSocket.open(realtimeUrl(stack.url, stack.anonKey));
    for (const junk of [
      'nope',
      '[1,2]',
      '{"a":1}',
      '[null,"1",5,"x",{}]',
      '[null,"2","realtime:x","phx_join","str"]',
    ])
      ws.ws.send(junk);
    ws.ws.send(Buffer.from([3, 200, 1]), { binary: true });
    const unmatched = ws.push(null, 'realtime:nothing', 'broadcast', {
      type: 'broadcast',
      event: 'e',
      payload: {},
    });
    expect((await ws.reply(unmatched)).status).toBe('error');
    const hb = ws.push(null, 'phoenix', 'heartbeat', {});
    expect((await ws.reply(hb)).status).toBe('ok');
    ws.ws.send('x'.repeat(1024 * 1024 + 1));
    const closed = await waitFor(() => ws.closed, 'close after an oversized frame');
    expect(closed.code).toBe(1009);
  });

  it('refuses the upgrade without a valid API key or with an unknown vsn', async () => {
    const status = (url: string) => upgradeStatus(url);
    expect(await status(realtimeUrl(stack.url, 'wrong'))).toBe(401);
    expect(await status(realtimeUrl(stack.url, stack.anonKey, '3.0.0'))).toBe(400);
    expect(await status(realtimeUrl(stack.url, stack.serviceRoleKey))).toBe(101);
  });

  it('keeps a socket with heartbeats alive and closes a silent one', async () => {
    // Both sides judge time, so both need room for event-loop stalls of a loaded machine. The server
    // closes a socket silent for idleTimeoutMs (a 600 ms limit once closed the heartbeating client
    // too). The client (phoenix's Socket.heartbeatTimeout) tears its own socket down when a
    // heartbeat's reply is not handled within one heartbeat interval: a 150 ms interval did so in the
    // timing step beside the hostile fuzz (session 45's CI, "CHANNEL_ERROR: heartbeat timeout").
    // 1 s heartbeats against a 3 s limit leave the client 1 s of stall and the server 2 s.
    const rt = await privateRealtime({ idleTimeoutMs: 3_000 });
    try {
      const silent = await RawSocket.open(realtimeUrl(rt.base, stack.anonKey));
      const c = await client(tokenA, { heartbeatIntervalMs: 1_000 }, rt.base);
      const l = listen(c, table.name, 'INSERT', `owner=eq.${userA}`);
      await subscribed(l);
      await waitFor(() => silent.closed, 'silent socket closed', 10_000);
      // The client has now lived about one idle limit; this takes it past two.
      await new Promise((r) => setTimeout(r, 4_000));
      expect(c.realtime.isConnected()).toBe(true);
      // Never closed and rejoined in between (a reconnect would also read as connected now).
      expect(l.statuses).toEqual(['SUBSCRIBED']);
      await insert(userA, 80);
      await waitFor(() => l.events.length === 1, 'event after idle period');
      await c.removeAllChannels();
    } finally {
      await rt.close();
    }
  });

  it('comes back after its LISTEN connection is killed', async () => {
    // A private server, so killing its listener cannot disturb tests running on the shared stack; its
    // LISTEN connection has a name of its own, so another file's realtime server that starts meanwhile
    // (realtime-order's, beside in the same run) is never the one killed.
    const appName = `poradna-realtime-listener-${randomUUID().slice(0, 8)}`;
    const mine = async () =>
      (
        await table.db.query<{ pid: number }>(
          `select pid from pg_stat_activity where application_name = $1 and query ilike 'listen%' and state = 'idle'`,
          [appName],
        )
      ).rows.map((r) => r.pid);
    const rt = await privateRealtime({ listenerAppName: appName });
    try {
      const before = await waitFor(async () => ((await mine()).length ? mine() : undefined), 'its listener');
      expect(before).toHaveLength(1);
      const l = listen(await client(tokenA, {}, rt.base), table.name, 'INSERT', `owner=eq.${userA}`);
      await subscribed(l);
      await table.db.query('select pg_terminate_backend($1)', [before[0]]);
      const fresh = async () => (await mine()).filter((p) => !before.includes(p));
      await waitFor(async () => (await fresh()).length === 1, 'a new listener');
      await insert(userA, 90);
      await waitFor(() => l.events.some((e) => (e.new as Row).n === 90), 'event after reconnect');
    } finally {
      await rt.close();
    }
  });
});
