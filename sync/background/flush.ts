// The outbox flush a service worker runs for a Background Sync event, with no tab open. It reuses the
// engine's push code (push.ts) on the same IndexedDB database. Invariants:
// - never two flushes of one outbox: it takes the leader's Web Lock with ifAvailable and does nothing
//   when a tab (or another sync event) holds it;
// - it never creates a user's database (a missing one is the page's to restore, see restore.ts);
// - it only uses an unexpired access token from the mirrored session (session-store.ts);
// - it rejects when entries are still waiting, so the browser retries the sync event later.
import { createClient } from '@supabase/supabase-js';
import { SPEC_TIMINGS } from '../constants.ts';
import { userDbExists } from '../db/open.ts';
import { dbNameFor, SyncDb } from '../db/schema.ts';
import { flushOutbox } from '../push.ts';
import { createSupabaseServerApi } from '../server/supabase-api.ts';
import { readMirroredSession, usableToken, type MirroredSession } from './session-store.ts';
import { leaderLockName } from './tag.ts';

export type BackgroundOutcome = 'flushed' | 'empty' | 'busy' | 'no-session' | 'token-expired' | 'no-database';

interface LocksWithIfAvailable {
  request<T>(name: string, options: { mode: 'exclusive'; ifAvailable: true }, cb: (lock: unknown) => Promise<T>): Promise<T>;
}

export class OutboxStillQueued extends Error {
  constructor(readonly remaining: number) {
    super(`${remaining} outbox entries still queued`);
    this.name = 'OutboxStillQueued';
  }
}

async function flushHeld(session: MirroredSession, now: () => number): Promise<BackgroundOutcome> {
  const name = dbNameFor(session.userId);
  if (!(await userDbExists(session.userId))) return 'no-database';
  const db = new SyncDb(name);
  try {
    await db.open();
    if ((await db.outbox.count()) === 0) return 'empty';
    // The browser says the network is back: back-off delays of earlier failures no longer apply.
    await db.outbox.toCollection().modify({ nextAttemptAt: now() });
    const token = session.accessToken;
    const client = createClient(session.url, session.anonKey, { accessToken: async () => token });
    const server = createSupabaseServerApi(client);
    await flushOutbox({ db, server, userId: session.userId, now, timings: SPEC_TIMINGS, onPullNeeded: () => undefined });
    const remaining = await db.outbox.count();
    if (remaining > 0) throw new OutboxStillQueued(remaining);
    return 'flushed';
  } finally {
    db.close();
  }
}

export async function backgroundFlush(locks: LocksWithIfAvailable, now: () => number = Date.now): Promise<BackgroundOutcome> {
  const session = await readMirroredSession();
  if (!session) return 'no-session';
  if (!usableToken(session, now())) return 'token-expired';
  return locks.request(leaderLockName(dbNameFor(session.userId)), { mode: 'exclusive', ifAvailable: true }, async (lock) =>
    lock === null ? 'busy' : flushHeld(session, now),
  );
}
