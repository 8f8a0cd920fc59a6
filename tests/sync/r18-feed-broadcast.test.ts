// R18.4: the engine's realtime transport joins the private `account:<id>` channel of Broadcast from the
// database on the real local stack (unmodified supabase-js), hands on the feed numbers of its own
// account, and a refused private join shows as an error (the machine then polls, R6.3), never silence.
import { createClient, type SupabaseClient } from '@supabase/supabase-js';
import type pg from 'pg';
import { afterAll, afterEach, beforeAll, describe, expect, inject, it } from 'vitest';
import { WebSocket } from 'ws';
import { createSupabaseRealtimeTransport } from '../../sync/transports/supabase-realtime.ts';
import type { Transport, TransportEvent, TransportStatus } from '../../sync/transports/transport.ts';
import { rng, TestDevice, waitFor } from '../../sync/testing/index.ts';
import type { ProvidedStack } from '../helpers/global-stack.ts';
import { createAccount, createConversation, pool, specialistSays } from './helpers/server-db.ts';

let stack: ProvidedStack;
let db: pg.Pool;
const open: { t: Transport; s: SupabaseClient }[] = [];

beforeAll(() => {
  stack = inject('stack');
  db = pool(stack.databaseUrl);
});
afterEach(async () => {
  for (const { t, s } of open.splice(0)) {
    await t.close();
    await s.realtime.disconnect();
  }
});
afterAll(async () => {
  await db.end();
});

function device(token: string, accountId: string) {
  const s = createClient(stack.url, stack.anonKey, {
    auth: { persistSession: false, autoRefreshToken: false },
    global: { headers: { Authorization: `Bearer ${token}` } },
    realtime: { transport: WebSocket as never },
  });
  void s.realtime.setAuth(token);
  const t = createSupabaseRealtimeTransport({ supabase: s, accountId, topic: `sync:${accountId}:r18`, feedBroadcast: true });
  open.push({ t, s });
  const events: TransportEvent[] = [];
  const statuses: { status: TransportStatus; detail?: string }[] = [];
  t.subscribe({ onEvent: (e) => events.push(e), onStatus: (status, detail) => statuses.push({ status, ...(detail ? { detail } : {}) }) });
  return { events, statuses };
}

describe('R18.4 the feed broadcast on the engine transport', () => {
  it("R18.4 a specialist's reply reaches the account's device as its feed number on the private account channel", async () => {
    const a = await createAccount(db, stack.jwtSecret, 1, 'r18');
    const conv = await createConversation(db, a.id, a.humans[0]!);
    const d = device(a.users[0]!.token, a.id);
    await waitFor(() => d.statuses.some((s) => s.status === 'connected'), 'both channels joined', 20_000); // the file's cold start
    const id = await specialistSays(db, conv, 'Dobrý deň');
    const seq = (await db.query<{ change_seq: string }>('select change_seq from public.messages where id = $1', [id])).rows[0]!.change_seq;
    // R18.1: the reply's transaction is announced once, with its last number (the conversation's
    // last_message_at took the one after the message's). (The conversation's creation may still be
    // announced after the join: look for that number.)
    const last = Number((await db.query<{ change_seq: string }>('select change_seq from public.accounts where id = $1', [a.id])).rows[0]!.change_seq);
    expect(last).toBe(Number(seq) + 1);
    const feed = await waitFor(() => d.events.find((e) => e.kind === 'feed' && e.changeSeq === last), 'the feed broadcast');
    expect(feed).toEqual({ kind: 'feed', accountId: a.id, changeSeq: last });
    expect(d.events.some((e) => e.kind === 'feed' && e.changeSeq === Number(seq))).toBe(false); // not the message's own
    expect(d.events.every((e) => e.kind !== 'feed' || e.accountId === a.id)).toBe(true);
  });

  it("R18.4 a device joining another account's feed is refused and says so (error status), it is not left deaf", async () => {
    const a = await createAccount(db, stack.jwtSecret, 1, 'r18');
    const b = await createAccount(db, stack.jwtSecret, 1, 'r18');
    const d = device(b.users[0]!.token, a.id);
    const err = await waitFor(() => d.statuses.find((s) => s.status === 'error'), 'the refusal');
    expect(err.detail).toBe(`Unauthorized: You do not have permissions to read from this Channel topic: account:${a.id}`);
    expect(d.statuses.some((s) => s.status === 'connected')).toBe(false);
  });
});

// R18.6/R18.7 on whole engines (TestDevice: unmodified supabase-js over ws, fake-indexeddb). Each
// device does no health pull (healthIdleMs) and polls only while realtime is down, so a row that
// reaches its IndexedDB while its link is up came by a realtime message.
describe('R18.6 R18.7 devices learn of changes through Broadcast from the database', () => {
  const devices: TestDevice[] = [];
  const timers: ReturnType<typeof setInterval>[] = [];
  afterEach(async () => {
    for (const t of timers.splice(0)) clearInterval(t);
    await Promise.all(devices.splice(0).map((d) => d.stop()));
  });
  const QUIET = { timings: { healthIdleMs: 600_000 } };

  function sim(user: TestDevice['user'], accountId: string, seed: number): TestDevice {
    const d = new TestDevice(stack, user, { accountId, rand: rng(seed) });
    devices.push(d);
    return d;
  }
  /** Every frame the device's realtime sockets received, as text (JSON and binary frames alike). */
  function frames(d: TestDevice): string[] {
    const seen: string[] = [];
    const hooked = new WeakSet<object>();
    const hook = () => {
      for (const s of d.net.sockets) {
        if (hooked.has(s)) continue;
        hooked.add(s);
        s.on('message', (data: Buffer) => seen.push(Buffer.from(data).toString('latin1')));
      }
    };
    hook();
    timers.push(setInterval(hook, 5)); // a socket the client opens later (a reconnect) is heard too
    return seen;
  }
  const joined = (d: TestDevice, topic: string) => d.supabase!.getChannels().some((c) => c.topic === `realtime:${topic}` && c.state === 'joined');
  const online = (d: TestDevice) => waitFor(() => d.engine!.status().loaded && d.engine!.status().connection === 'online', 'loaded and online', 10_000);

  it('R18.6 a device whose realtime channel has no postgres_changes at all still gets a specialist reply: the private account broadcast asks for the pull', async () => {
    const a = await createAccount(db, stack.jwtSecret, 1, 'r18e');
    const conv = await createConversation(db, a.id, a.humans[0]!);
    const d = sim(a.users[0]!, a.id, 1);
    // A stack whose postgres_changes would deliver nothing: the channel subscribes to no table.
    const realtime = (accountId: string) => createSupabaseRealtimeTransport({ supabase: d.supabase!, accountId, feedBroadcast: true, rowTables: [] });
    await d.start({ ...QUIET, engine: { transports: { realtime } } });
    await online(d);
    await waitFor(() => joined(d, `account:${a.id}`), 'the private account channel joined', 10_000);
    const id = await specialistSays(db, conv, 'Odpoveď cez broadcast');
    const got = await waitFor(async () => d.engine!.db.messages.where('serverId').equals(id).first(), 'the reply pulled after the broadcast', 10_000);
    expect(got.text).toBe('Odpoveď cez broadcast');
    expect(d.engine!.status().connection).toBe('online');
  });

  it("R18.7 the default device takes its own read cursors from the user topic's broadcast (no postgres_changes on read_cursors): a read on the user's other device arrives", async () => {
    const a = await createAccount(db, stack.jwtSecret, 1, 'r18e');
    const conv = await createConversation(db, a.id, a.humans[0]!);
    const msg = await specialistSays(db, conv, 'Prečítaj ma');
    const laptop = sim(a.users[0]!, a.id, 2);
    await laptop.start(QUIET);
    await online(laptop);
    await waitFor(async () => (await laptop.engine!.db.messages.count()) === 1, 'first pull', 10_000);
    await waitFor(() => joined(laptop, `user:${a.users[0]!.id}`) && joined(laptop, `account:${a.id}`), 'user and account channels joined', 10_000);
    // The default transport left read_cursors to the user topic (R18.6).
    const sync = laptop.supabase!.getChannels().find((c) => c.topic.startsWith(`realtime:sync:${a.id}`))!;
    const tables = (sync.bindings.postgres_changes ?? []).map((b) => (b.filter as { table?: string }).table);
    expect(tables.sort()).toEqual(['conversations', 'messages']);
    // The user's phone reads the message (the RPC the app calls, with the user's own token).
    const phone = createClient(stack.url, stack.anonKey, {
      auth: { persistSession: false, autoRefreshToken: false },
      global: { headers: { Authorization: `Bearer ${a.users[0]!.token}` } },
      realtime: { transport: WebSocket as never },
    });
    const { error } = await phone.rpc('mark_read', { p_conversation_id: conv, p_message_id: msg });
    expect(error).toBeNull();
    const cursor = await waitFor(async () => laptop.engine!.db.readCursors.get(conv), "the phone's read on the laptop", 10_000);
    expect(cursor.messageId).toBe(msg);
    expect(laptop.engine!.status().connection).toBe('online');
  });

  it("R18.2 attack: a device acting for another account hears none of that account's broadcasts and stores none of its rows; its refused join shows as realtime down", async () => {
    const a = await createAccount(db, stack.jwtSecret, 1, 'r18e');
    const b = await createAccount(db, stack.jwtSecret, 1, 'r18e');
    const convA = await createConversation(db, a.id, a.humans[0]!);
    const convB = await createConversation(db, b.id, b.humans[0]!);
    const msgB = await specialistSays(db, convB, 'Správa pre B');
    // B's client claims account A (a tampered app): the engine joins `account:<A>` with B's token.
    const spy = sim(b.users[0]!, a.id, 3);
    await spy.start(QUIET);
    const heard = frames(spy);
    await waitFor(() => joined(spy, `user:${b.users[0]!.id}`), "B's own user channel joined", 10_000);
    // The server has answered its join of A's topic (whatever it said) before A's reply is written.
    const joinReply = (f: string) => f.includes(`account:${a.id}`) && f.includes('phx_reply');
    await waitFor(() => heard.some(joinReply), "the answer to the join of A's topic", 10_000);
    const hooked = heard.length;
    await specialistSays(db, convA, 'Tajné pre A');
    // B's own read, broadcast on B's user topic after A's reply: once it reached the spy's socket, so
    // would have anything of A's sent to it before (one socket, messages in commit order).
    const bClient = createClient(stack.url, stack.anonKey, {
      auth: { persistSession: false, autoRefreshToken: false },
      global: { headers: { Authorization: `Bearer ${b.users[0]!.token}` } },
      realtime: { transport: WebSocket as never },
    });
    expect((await bClient.rpc('mark_read', { p_conversation_id: convB, p_message_id: msgB })).error).toBeNull();
    await waitFor(() => heard.slice(hooked).some((f) => f.includes(`user:${b.users[0]!.id}`) && f.includes('changed')), "B's own broadcast", 10_000);
    // (the refused joins' replies, repeated by the machine's resubscribe, name A's topic; no broadcast does)
    expect(heard.slice(hooked).filter((f) => f.includes(a.id) && (f.includes('changed') || f.includes('Tajné')))).toEqual([]);
    expect(heard.find(joinReply)).toContain(`Unauthorized: You do not have permissions to read from this Channel topic: account:${a.id}`);
    // The refused join is reported, not necessarily at this instant: until the first subscription
    // attempt has failed the link reads online (status.ts: realtime is still connecting), and the
    // refusal reaches the status through the machine and the status debounce after its reply reached
    // the socket (read online once in a clean-clone run). Traced in session 25: online until the
    // refusal, then down, and never online again through 15 s of the machine's resubscribes. R18.4's
    // own test checks the error status; here it must come, without a broadcast of A.
    await waitFor(() => spy.engine!.status().connection !== 'online', 'the refused join shown as realtime down', 10_000);
    expect(await spy.engine!.db.messages.where('conversationId').equals(convA).count()).toBe(0);
  });
});
