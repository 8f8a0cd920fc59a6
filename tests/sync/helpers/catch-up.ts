// Issue 35's case, shared by tests/sync/slow-link.test.ts and bench row 11: a backlog of messages on
// the server, and a device that catches it up over an emulated slow link (sync/testing/link.ts),
// measured against the link's transfer floor (bytes down ÷ bandwidth + one round trip per page).
import type pg from 'pg';
import type { SyncStatus } from '../../../sync/status.ts';
import type { SyncEngine } from '../../../sync/engine-api.ts';
import { rng, TestDevice, waitFor, type StackInfo } from '../../../sync/testing/index.ts';
import { createAccount, createConversation, type TestAccount } from './server-db.ts';

/** `n` specialist messages of `chars` characters (one second apart, oldest first) in a fresh conversation. */
export async function seedBacklog(db: pg.Pool, jwtSecret: string, tag: string, n: number, chars: number): Promise<{ a: TestAccount; conversationId: string }> {
  const a = await createAccount(db, jwtSecret, 1, tag);
  const conversationId = await createConversation(db, a.id, a.humans[0]!);
  await db.query(
    `insert into public.messages (conversation_id, text, direction, source, created_at)
     select $1, left(repeat(md5(g::text), $3 / 32 + 1), $3), 'specialist', 'test', now() - ($2 - g) * interval '1 second'
       from generate_series(1, $2) g`,
    [conversationId, n, chars],
  );
  return { a, conversationId };
}

/** The `p_since` of a sync_pull request, or null for any other request. */
export function sinceOf(url: string, body: string): number | null {
  if (!url.includes('/rpc/sync_pull')) return null;
  const p = JSON.parse(body) as { p_since?: number };
  return typeof p.p_since === 'number' ? p.p_since : null;
}

export interface CatchUp {
  phone: TestDevice;
  engine: SyncEngine;
  conversationId: string;
  statuses: SyncStatus[];
  /** The `p_since` of every sync_pull request, in order. */
  pulls: number[];
  ms: number;
  floorMs: number;
}

export interface LinkCase {
  tag: string;
  n: number;
  chars: number;
  bytesPerSecond: number;
  rttMs: number;
}

/**
 * Seeds the backlog, starts a device on the link (no realtime: the pull alone) and waits until all
 * messages are stored. The caller stops `phone`. `ms` counts from the engine's start.
 */
export async function catchUp(stack: StackInfo & { databaseUrl?: string }, db: pg.Pool, jwtSecret: string, c: LinkCase): Promise<CatchUp> {
  const { a, conversationId } = await seedBacklog(db, jwtSecret, c.tag, c.n, c.chars);
  const phone = new TestDevice(stack, a.users[0]!, { accountId: a.id, rand: rng(35) });
  phone.net.link = { bytesPerSecond: c.bytesPerSecond, rttMs: c.rttMs };
  const statuses: SyncStatus[] = [];
  const pulls: number[] = [];
  phone.net.onRequest = (url, body) => {
    const since = sinceOf(url, body);
    if (since !== null) pulls.push(since);
  };
  const t0 = performance.now();
  const engine = await phone.start({ realtime: false });
  engine.subscribeStatus((s) => statuses.push(s));
  try {
    // Generous: a loaded machine stretches the server's side; the links' floors here are ~10 s.
    await waitFor(async () => (await engine.db.messages.where('conversationId').equals(conversationId).count()) === c.n, `${c.n} messages stored`, 90_000);
  } catch (err) {
    await phone.stop();
    throw err;
  }
  const ms = performance.now() - t0;
  const floorMs = (phone.net.line.stats.bytesDown / c.bytesPerSecond) * 1000 + pulls.length * c.rttMs;
  return { phone, engine, conversationId, statuses, pulls, ms, floorMs };
}
