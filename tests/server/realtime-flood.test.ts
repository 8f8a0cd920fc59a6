// Issue 36 N4: flooding realtime with the publishable/anon key alone. The review's attack — 30 sockets
// that join a topic and stop reading, a sender broadcasting 1 MB frames — grew the stack from 116 to
// 655 MB. Each limit of supabase/local/realtime/limits.ts is attacked here through the real socket:
// hosted's payload cap and its reply, the event/byte rate with hosted's "Too many messages per
// second", the 2 MB outbound buffer, the sockets per client address. The stack runs in this process
// (its own, so its counters and this process's memory can be read); PostgreSQL runs beside it.
import { randomUUID } from 'node:crypto';
import type { Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SupabaseClient } from '@supabase/supabase-js';
import { startAttackStack } from '../helpers/configured.ts';
import type { TestStack } from '../helpers/stack.ts';
import {
  clientFor,
  createTestTable,
  listen,
  RawSocket,
  realtimeUrl,
  signToken,
  subscribed,
  upgradeStatus,
  waitFor,
} from './realtime-helpers.ts';

let stack: TestStack;
const sockets: RawSocket[] = [];
const MB = 1024 * 1024;

beforeAll(async () => {
  stack = await startAttackStack();
});
afterAll(async () => {
  for (const s of sockets) s.close();
  await stack?.destroy();
});

async function open(): Promise<RawSocket> {
  const s = await RawSocket.open(realtimeUrl(stack.url, stack.keys.anonKey));
  sockets.push(s);
  return s;
}

/** Joins a public broadcast topic as anon, with acks; resolves once the join is answered ok. */
async function join(s: RawSocket, topic: string): Promise<string> {
  const ref = s.push(null, `realtime:${topic}`, 'phx_join', {
    config: { broadcast: { self: false, ack: true }, presence: { key: '' }, postgres_changes: [], private: false },
  });
  const reply = await s.reply(ref);
  expect(reply.status).toBe('ok');
  return ref;
}

const blobs = new Map<number, string>();

function broadcast(s: RawSocket, joinRef: string, topic: string, bytes: number): string {
  let blob = blobs.get(bytes);
  if (!blob) blobs.set(bytes, (blob = 'x'.repeat(bytes)));
  return s.push(joinRef, `realtime:${topic}`, 'broadcast', { type: 'broadcast', event: 'flood', payload: { blob } });
}

const received = (s: RawSocket, topic: string) =>
  s.frames.filter((f) => f[2] === `realtime:${topic}` && f[3] === 'broadcast').length;

describe('realtime floods with the anon key (issue 36 N4)', () => {
  it('a broadcast above hosted’s 256 KB payload limit is not delivered; an acking sender hears payload_size_exceeded', async () => {
    const topic = `cap-${randomUUID()}`;
    const [sender, receiver] = [await open(), await open()];
    const joinRef = await join(sender, topic);
    await join(receiver, topic);

    const big = await sender.reply(broadcast(sender, joinRef, topic, 300_000));
    expect(big).toEqual({ status: 'error', response: 'payload_size_exceeded' });
    const small = await sender.reply(broadcast(sender, joinRef, topic, 200_000));
    expect(small.status).toBe('ok');
    // Frames of one socket arrive in order: once the small one is there, the big one never will be.
    await waitFor(() => received(receiver, topic) === 1, 'the small broadcast');
    const payloads = receiver.frames.filter((f) => f[3] === 'broadcast').map((f) => JSON.stringify(f[4]).length);
    expect(payloads.every((n) => n < 256_000)).toBe(true);
    expect(stack.realtimeStats().payloadsRefused).toBeGreaterThanOrEqual(1);
  });

  it('a sender past 100 events a second on a topic is shut down with hosted’s “Too many messages per second”', async () => {
    const topic = `rate-${randomUUID()}`;
    const [sender, receiver] = [await open(), await open()];
    const joinRef = await join(sender, topic);
    await join(receiver, topic);
    const before = stack.realtimeStats().rateLimited;

    // 600 tiny broadcasts at once: hosted's 100 a second over its 5 s window admits 500.
    for (let i = 0; i < 600; i++) broadcast(sender, joinRef, topic, 10);
    const shutdown = await waitFor(
      () => sender.frames.find((f) => f[3] === 'system' && (f[4] as { status?: string }).status === 'error'),
      'the system error',
    );
    expect(shutdown[4]).toMatchObject({ extension: 'system', status: 'error', message: 'Too many messages per second' });
    await waitFor(() => sender.frames.find((f) => f[3] === 'phx_close' && f[2] === `realtime:${topic}`), 'phx_close');
    expect(stack.realtimeStats().rateLimited).toBeGreaterThan(before);
    // The receiver counted against the topic too (hosted counts every message a channel receives).
    expect(received(receiver, topic)).toBeLessThanOrEqual(250);
  });

  it('a client address holds at most 200 sockets (a free project\'s max_concurrent_users); the next upgrade is a 429, another address still connects', async () => {
    // The test stack trusts X-Forwarded-For (TRUST_X_FORWARDED_FOR=1), so each test names its client.
    const url = realtimeUrl(stack.url, stack.keys.anonKey);
    const address = { 'x-forwarded-for': '203.0.113.7' };
    const { WebSocket } = await import('ws');
    const open200 = Array.from({ length: 200 }, () => {
      const ws = new WebSocket(url, { headers: address });
      return new Promise<InstanceType<typeof WebSocket>>((resolve, reject) => {
        ws.once('open', () => resolve(ws));
        ws.once('error', reject);
      });
    });
    const opened = await Promise.all(open200);
    expect(await upgradeStatus(url, address)).toBe(429);
    expect(await upgradeStatus(url, { 'x-forwarded-for': '203.0.113.8' })).toBe(101);
    // A socket that closes gives its place back.
    const first = opened[0]!;
    await new Promise<void>((resolve) => {
      first.once('close', () => resolve());
      first.close();
    });
    await waitFor(async () => (await upgradeStatus(url, address)) === 101, 'a freed place');
    for (const ws of opened) ws.terminate();
  });

  it('30 sockets that stop reading and senders of large broadcasts: memory stays bounded, the idle sockets are cut off, another user still gets changes', async () => {
    const table = await createTestTable(stack.databaseUrl);
    const user = randomUUID();
    const token = await signToken(stack.keys.jwtSecret, { sub: user });
    const client: SupabaseClient = await clientFor(stack.url, stack.keys.anonKey, token);
    const l = listen(client, table.name, 'INSERT');
    await subscribed(l);
    /** Insert → event at the other user's client, in ms. */
    const latency = async (): Promise<number> => {
      const label = randomUUID();
      const t0 = performance.now();
      await table.db.query(`insert into public.${table.name} (owner, label) values ($1, $2)`, [user, label]);
      await waitFor(() => l.events.some((e) => (e.new as { label?: string }).label === label), 'the change', 15_000);
      return performance.now() - t0;
    };
    const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
    const baseline: number[] = [];
    for (let i = 0; i < 7; i++) baseline.push(await latency());

    // The attack: 30 idle sockets on 40 topics; 10 senders, each on 4 of the topics.
    const topics = Array.from({ length: 40 }, (_, i) => `flood-${i}-${randomUUID()}`);
    const idle = await Promise.all(Array.from({ length: 30 }, () => open()));
    await Promise.all(
      idle.map(async (s) => {
        for (const t of topics) await join(s, t);
      }),
    );
    for (const s of idle) (s.ws as unknown as { _socket: Socket })._socket.pause();
    const senders = await Promise.all(Array.from({ length: 10 }, () => open()));
    const refs = await Promise.all(
      senders.map(async (s, i) => Promise.all(topics.slice(i * 4, i * 4 + 4).map((t) => join(s, t)))),
    );

    const rssBefore = process.memoryUsage().rss;
    let rssPeak = rssBefore;
    const sample = setInterval(() => (rssPeak = Math.max(rssPeak, process.memoryUsage().rss)), 20);
    const statsBefore = stack.realtimeStats();
    try {
      // The review's 1 MB frames (just under the 1 MB frame cap), then 250 KB ones.
      const oneMb = senders.map((s, i) => broadcast(s, refs[i]![0]!, topics[i * 4]!, 1_000_000));
      // Then 250 KB broadcasts, every sender on each of its topics three times over.
      const last: string[] = [];
      for (let round = 0; round < 3; round++)
        for (const [i, s] of senders.entries())
          for (let k = 0; k < 4; k++) last[i] = broadcast(s, refs[i]![k]!, topics[i * 4 + k]!, 250_000);
      const during: number[] = [];
      for (let i = 0; i < 7; i++) during.push(await latency());
      // Every sender's last broadcast is answered (acks, or the channel's close): the flood is over.
      await Promise.all(senders.map((s, i) => s.reply(last[i]!)));
      const stats = stack.realtimeStats();
      rssPeak = Math.max(rssPeak, process.memoryUsage().rss);
      const grown = (rssPeak - rssBefore) / MB;
      console.log(
        `N4 flood: baseline latency ${median(baseline).toFixed(1)} ms, during ${median(during).toFixed(1)} ms; ` +
          `RSS +${grown.toFixed(1)} MB (peak, this process: stack and attackers); ` +
          `one socket's unsent peak ${(stats.bufferedPeak / MB).toFixed(2)} MB; ` +
          `stuck sockets closed ${stats.slowSocketsClosed - statsBefore.slowSocketsClosed}; ` +
          `payloads refused ${stats.payloadsRefused - statsBefore.payloadsRefused}; channels rate-limited ${stats.rateLimited - statsBefore.rateLimited}`,
      );
      // Bounded: no socket queues more than 2 MB, and the whole process grows within the 100 MB.
      expect(stats.bufferedPeak).toBeLessThanOrEqual(2 * MB);
      expect(grown).toBeLessThanOrEqual(100);
      // Each stuck socket was cut off once it held 2 MB unsent.
      expect(stats.slowSocketsClosed - statsBefore.slowSocketsClosed).toBe(30);
      for (const [i, ref] of oneMb.entries())
        expect(await senders[i]!.reply(ref)).toEqual({ status: 'error', response: 'payload_size_exceeded' });
      expect(stats.payloadsRefused - statsBefore.payloadsRefused).toBe(10);
      // The other user's channel stayed subscribed and got every change.
      expect(l.statuses).not.toContain('CLOSED');
      expect(l.events.length).toBe(14);
    } finally {
      clearInterval(sample);
      for (const s of [...idle, ...senders]) s.close();
      await client.removeAllChannels();
      await table.drop();
    }
  });
});
