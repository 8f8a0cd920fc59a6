// R9.6 and R9.11 (issue 18, rows 5 and 6): a device clock that is wrong, against a real stack (real
// sign-in through the auth server). The engine's clock is the device's: its wall time is skewed or
// stepped, its monotonic time is the process's (as performance.now() is in a browser).
import type pg from 'pg';
import { describe, expect, it, vi } from 'vitest';
import { dexieOptions } from '../../sync/db/open.ts';
import { dbNameFor, SCHEMA_VERSION, SyncDb } from '../../sync/db/schema.ts';
import { orderKeyOf } from '../../sync/model/ordering.ts';
import { msFromTimestamp, timestampFromMs } from '../../sync/model/timestamps.ts';
import { formatRelativeTime } from '../../src/lib/relative-time.ts';
import { sk } from '../../src/text/sk.ts';
import type { TestStack } from '../helpers/stack.ts';
import { createConversation, specialistSays, testSpecialists } from './helpers/server-db.ts';
import { Device, localMessages, newUser, serverMessages, sleep, SkewedClock, type RealUser } from './helpers/real-device.ts';
import { withRealStack } from './helpers/real-stack.ts';
import { waitFor } from '../unit/sync/helpers/wait.ts';

let stack: TestStack;
let db: pg.Pool;
const devices: Device[] = [];

withRealStack(devices, (s, p) => ((stack = s), (db = p)));

async function serverCount(conversationId: string, texts: string[]): Promise<number[]> {
  const r = await db.query<{ text: string; n: string }>(
    'select text, count(*) as n from public.messages where conversation_id = $1 and text = any($2) group by text',
    [conversationId, texts],
  );
  return texts.map((t) => Number(r.rows.find((x) => x.text === t)?.n ?? 0));
}

async function setup(clock?: SkewedClock): Promise<{ user: RealUser; conv: string; d: Device }> {
  const { humans } = await testSpecialists(db);
  const user = await newUser(stack, db, 'clock');
  const conv = await createConversation(db, user.accountId, humans[0]!);
  const d = new Device(stack, clock);
  devices.push(d);
  await d.signIn(user.email);
  return { user, conv, d };
}

/** Drains within 2 s of the network's return, each text exactly once on the server. */
async function expectDrained(d: Device, conv: string, texts: string[], label: string): Promise<void> {
  const t0 = Date.now();
  d.setOnline(true);
  await waitFor(async () => (await serverCount(conv, texts)).every((n) => n === 1), `${label}: drained`, 2000);
  console.log(`${label}: drained ${Date.now() - t0} ms after reconnect`);
  await waitFor(async () => (await d.engine!.db.outbox.count()) === 0, `${label}: outbox empty`, 2000);
  expect(await serverCount(conv, texts)).toEqual(texts.map(() => 1));
}

describe('R9.6 retries on monotonic time (issue 18, row 6)', () => {
  for (const [skewMs, name] of [
    [2 * 3600_000, '2 h'],
    [45_000, '45 s'],
  ] as const) {
    it(`R9.6 the clock ${name} ahead while sends fail and queue offline, corrected before reconnect: sent at once, running and after a restart; no deadline stored`, async () => {
      const clock = new SkewedClock(skewMs);
      const { user, conv, d } = await setup(clock);
      let engine = await d.start(user.id, { accountId: user.accountId });
      await waitFor(async () => (await engine.db.conversations.count()) === 1, 'first pull', 8000);

      // Running: one attempt fails on the network while the clock is ahead, more are typed offline.
      const running = Array.from({ length: 5 }, (_, i) => `beží ${name} ${i}`);
      d.offline = true; // requests fail, the engine still believes it is online
      await engine.commands.sendMessage({ conversationId: conv, text: running[0]! });
      await waitFor(async () => ((await engine.db.outbox.toArray())[0]?.attempts ?? 0) > 0, 'a failed attempt');
      d.setOnline(false);
      for (const t of running.slice(1)) await engine.commands.sendMessage({ conversationId: conv, text: t });
      for (const e of await engine.db.outbox.toArray()) expect(Object.keys(e)).not.toContain('nextAttemptAt');
      clock.skewMs = 0; // the user corrects the clock, then the network returns
      await expectDrained(d, conv, running, `R9.6 ${name} running`);

      // After a restart: the same, with the page reloaded between the correction and the reconnect.
      clock.skewMs = skewMs;
      const restarted = Array.from({ length: 5 }, (_, i) => `reštart ${name} ${i}`);
      d.offline = true;
      await engine.commands.sendMessage({ conversationId: conv, text: restarted[0]! });
      await waitFor(async () => ((await engine.db.outbox.toArray())[0]?.attempts ?? 0) > 0, 'a failed attempt');
      d.setOnline(false);
      for (const t of restarted.slice(1)) await engine.commands.sendMessage({ conversationId: conv, text: t });
      await d.stop();
      clock.skewMs = 0;
      engine = await d.start(user.id, { accountId: user.accountId });
      await expectDrained(d, conv, restarted, `R9.6 ${name} restart`);
    });
  }

  it('R9.6 a database an older engine left (v4: a deadline stored 50 s ahead) is upgraded without losing an entry; the send goes out at once', async () => {
    const { user, conv, d } = await setup();
    const old = new SyncDb(dbNameFor(user.id), dexieOptions(d.idb), 4);
    await old.open();
    const correlationId = crypto.randomUUID();
    const createdAt = timestampFromMs(Date.now());
    await old.meta.put({ key: 'feed', accountId: user.accountId, cursor: 0, pulledAt: null });
    await old.messages.put({
      key: `c:${correlationId}`,
      serverId: null,
      conversationId: conv,
      accountId: null,
      text: 'zo starej verzie',
      type: 'text',
      direction: 'user',
      source: 'app',
      chatwootMessageId: null,
      createdAt,
      orderKey: orderKeyOf(createdAt, correlationId),
      readAt: null,
      payload: null,
      correlationId,
      senderUserId: user.id,
      changeSeq: 0,
      state: 'sending',
      origin: 'optimistic',
      error: null,
      confirmedAt: null,
    });
    const legacy = {
      key: `send:${correlationId}`,
      op: { kind: 'send', conversationId: conv, correlationId, messageKey: `c:${correlationId}`, text: 'zo starej verzie', payload: null, accountId: user.accountId },
      rev: 0,
      attempts: 3,
      nextAttemptAt: Date.now() + 50_000,
      createdAt: Date.now(),
      lastError: 'fetch failed',
    };
    await old.table('outbox').add(legacy);
    old.close();

    d.setOnline(false);
    const engine = await d.start(user.id, { accountId: user.accountId });
    expect(engine.db.verno).toBe(SCHEMA_VERSION);
    const entries = await engine.db.outbox.toArray();
    expect(entries).toHaveLength(1);
    expect(Object.keys(entries[0]!)).not.toContain('nextAttemptAt');
    expect(entries[0]).toMatchObject({ key: legacy.key, attempts: 3, lastError: 'fetch failed', op: legacy.op });
    expect((await engine.db.messages.get(`c:${correlationId}`))?.state).toBe('sending');
    await expectDrained(d, conv, ['zo starej verzie'], 'R9.6 upgraded v4');
  });
});

describe('R9.11 the server clock (issue 18, row 5)', () => {
  it('R9.11 the clock 2 h behind: relative labels and the time of a new message follow the server clock, learnt from replies (also after a restart offline); it sorts after the reply it answers', async () => {
    const HOUR = 3600_000;
    const clock = new SkewedClock(-2 * HOUR);
    const { user, conv, d } = await setup(clock);
    const { humans } = await testSpecialists(db);
    const old = await createConversation(db, user.accountId, humans[1]!);
    const oldId = await specialistSays(db, old, 'spred troch hodín');
    await db.query(
      `begin; set local session_replication_role = replica;
       update public.messages set created_at = now() - interval '3 hours' where id = '${oldId}';
       update public.conversations set last_message_at = now() - interval '3 hours' where id = '${old}'; commit;`,
    );
    await specialistSays(db, conv, 'Dobrý deň, s čím vám pomôžem?');
    let engine = await d.start(user.id, { accountId: user.accountId });
    await waitFor(async () => (await engine.db.messages.count()) === 2, 'first pull', 8000);

    expect(Math.abs(engine.serverOffsetMs() - 2 * HOUR)).toBeLessThan(2000);
    const sortAt = async (id: string) => msFromTimestamp((await engine.db.conversations.get(id))!.sortAt);
    /** The UI's labels, read while the device's Date is the skewed clock (as on the phone). */
    const labels = async (ids: string[]) => {
      const times = await Promise.all(ids.map(sortAt));
      vi.useFakeTimers({ toFake: ['Date'], now: clock.now() });
      try {
        return times.map((t) => formatRelativeTime(t));
      } finally {
        vi.useRealTimers();
      }
    };
    expect(await labels([old, conv])).toEqual([sk.time.hours(3), sk.time.now]);

    // Answered a while after the reply, offline: the message carries the server's time, after the reply.
    await sleep(2500);
    d.setOnline(false);
    const typedAt = Date.now(); // the test process's clock is the true one
    await engine.commands.sendMessage({ conversationId: conv, text: 'odpoveď offline' });
    const rows = await engine.db.messages.where('[conversationId+orderKey]').between([conv, ''], [conv, '\uffff']).toArray();
    expect(rows.map((m) => m.text)).toEqual(['Dobrý deň, s čím vám pomôžem?', 'odpoveď offline']);
    expect(Math.abs(msFromTimestamp(rows[1]!.createdAt) - typedAt)).toBeLessThan(1000);
    expect(await labels([conv])).toEqual([sk.time.now]);

    // A restart while still offline: the learnt offset was stored.
    await d.stop();
    engine = await d.start(user.id, { accountId: user.accountId });
    expect(Math.abs(engine.serverOffsetMs() - 2 * HOUR)).toBeLessThan(2000);
    expect(await labels([old])).toEqual([sk.time.hours(3)]);
    const again = Date.now();
    await engine.commands.sendMessage({ conversationId: conv, text: 'druhá offline' });
    const second = (await engine.db.messages.toArray()).find((m) => m.text === 'druhá offline')!;
    expect(Math.abs(msFromTimestamp(second.createdAt) - again)).toBeLessThan(1000);

    await expectDrained(d, conv, ['odpoveď offline', 'druhá offline'], 'R9.11');
    await waitFor(
      async () => JSON.stringify(await localMessages(engine, conv)) === JSON.stringify(await serverMessages(db, conv)),
      'client order equals server order',
      3000,
    );
  });
});
