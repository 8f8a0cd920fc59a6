// Per-event latency of the realtime path with one RLS-checked subscriber (the stack's own hop of bench
// rows 4a/4b): the server's hop NOTIFY received → frame sent (its onDelivery timing), and commit
// acknowledged → frame arrived on the socket. The server has no batching timers and one RLS query per
// event serves every subscriber, so its hop is one database round trip.
import { createServer, type Server } from 'node:http';
import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { isoToEpochMs, nodeEpoch } from '../../bench/hops.ts';
import type { DeliveryTiming } from '../../supabase/local/realtime/deps.ts';
import { createRealtimeServer } from '../../supabase/local/realtime/server.ts';
import { RawSocket, createTestTable, realtimeUrl, signToken, waitFor } from './realtime-helpers.ts';

const stack = inject('stack');
const EVENTS = 60;
let table: Awaited<ReturnType<typeof createTestTable>>;
let ws: RawSocket;
let stop: () => Promise<void>;
const owner = randomUUID();
const timings: DeliveryTiming[] = [];

beforeAll(async () => {
  table = await createTestTable(stack.databaseUrl);
  const pool = new pg.Pool({ connectionString: stack.databaseUrl, max: 4 });
  const rt = await createRealtimeServer({
    pool,
    databaseUrl: stack.databaseUrl,
    keys: { jwtSecret: stack.jwtSecret, anonKey: stack.anonKey, serviceRoleKey: stack.serviceRoleKey },
    log: () => undefined,
    onDelivery: (d) => {
      if (d.table === table.name) timings.push(d);
    },
  });
  const server: Server = createServer();
  server.on('upgrade', (req, socket, head) => rt.handleUpgrade(req, socket, head));
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const addr = server.address();
  const base = `http://127.0.0.1:${typeof addr === 'object' && addr ? addr.port : 0}`;
  stop = async () => {
    await rt.close();
    await new Promise<void>((r) => server.close(() => r()));
    await pool.end();
  };
  ws = await RawSocket.open(realtimeUrl(base, stack.anonKey));
  const token = await signToken(stack.jwtSecret, { sub: owner });
  const ref = ws.push('1', 'realtime:latency', 'phx_join', {
    config: {
      postgres_changes: [
        { event: 'INSERT', schema: 'public', table: table.name, filter: `owner=eq.${owner}` },
      ],
    },
    access_token: token,
  });
  expect((await ws.reply(ref)).status).toBe('ok');
});

afterAll(async () => {
  ws.close();
  await stop();
  await table.drop();
});

const quantile = (xs: number[], p: number) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length * p)]!;

describe('realtime latency', () => {
  it('sends a change to one RLS-checked subscriber one database round trip after its NOTIFY', async () => {
    const isEvent = (f: unknown[], n: number) =>
      f[3] === 'postgres_changes' && (f[4] as { data: { record: { n: number } } }).data.record.n === n;
    const afterCommit: number[] = [];
    for (let n = 0; n < EVENTS; n++) {
      await table.db.query(`insert into public.${table.name} (owner, n, label) values ($1, $2, 'lat')`, [
        owner,
        n,
      ]);
      const committed = performance.now();
      const at = await waitFor(() => {
        const i = ws.frames.findIndex((f) => isEvent(f, n));
        return i < 0 ? undefined : ws.arrivals[i];
      }, `event ${n}`);
      afterCommit.push(Math.max(0, at - committed));
    }
    const hop = timings.map((t) => t.sentAt - t.notifiedAt);
    expect(timings).toHaveLength(EVENTS);
    expect(timings.every((t) => t.frames === 1)).toBe(true);
    // The bench's breakdown (bench/hops.ts) puts the row written (the payload's clock_timestamp) and
    // NOTIFY received on one clock: the first must never come after the second.
    for (const t of timings) {
      expect(typeof t.pk.id).toBe('string');
      expect(isoToEpochMs(t.commitTimestamp)).toBeLessThanOrEqual(nodeEpoch(t.notifiedAt) + 1);
    }
    console.log(
      `realtime, 1 subscriber: NOTIFY→frame sent p50 ${quantile(hop, 0.5).toFixed(2)} ms ` +
        `p95 ${quantile(hop, 0.95).toFixed(2)} ms; commit ack→frame arrived p50 ` +
        `${quantile(afterCommit, 0.5).toFixed(2)} ms p95 ${quantile(afterCommit, 0.95).toFixed(2)} ms`,
    );
    // Loose bounds (a loaded 2-core machine); the printed numbers are the measurement.
    expect(quantile(hop, 0.5)).toBeLessThan(20);
    expect(quantile(afterCommit, 0.95)).toBeLessThan(100);
  });
});
