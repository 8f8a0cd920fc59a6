// The outbox flush a service worker runs for a Background Sync event, with no tab open. It reuses the
// engine's push code (push.ts) on the same IndexedDB database. Invariants:
// - never two flushes of one outbox: it takes the leader's Web Lock with ifAvailable and never flushes
//   while a tab (or another sync event) holds it;
// - it never creates a user's database (a missing one is the page's to restore, see restore.ts);
// - it only uses an unexpired access token from the mirrored session (session-store.ts);
// - it rejects when entries are still waiting, so the browser retries the sync event later;
// - attachment jobs (R12.12, uploads.ts) go first: their uploads complete and queue their sends, which
//   this same flush delivers; a second pass then releases the sent blobs (R12.8).
import { SPEC_TIMINGS } from '../model/constants.ts';
import { dexieOptions, userDbExists, type IdbEnvironment } from '../db/open.ts';
import { dbNameFor, SyncDb } from '../db/schema.ts';
import { readFeed } from '../receive/apply.ts';
import { flushOutbox } from '../send/push.ts';
import { createSupabaseServerApi } from '../server/supabase-api.ts';
import { createWorkerClient } from './worker-client.ts';
import { readMirroredSession, usableToken, type MirroredSession } from './session-store.ts';
import { leaderLockName } from './tag.ts';
import { attachmentPass, attachmentWork } from './uploads.ts';

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

/** Outbox entries and attachment jobs still waiting for the network. */
async function waiting(db: SyncDb): Promise<number> {
  return (await db.outbox.count()) + (await attachmentWork(db));
}

async function flushHeld(session: MirroredSession, now: () => number, env: IdbEnvironment, doFetch: typeof fetch | undefined): Promise<BackgroundOutcome> {
  const name = dbNameFor(session.userId);
  if (!(await userDbExists(session.userId, env))) return 'no-database';
  const db = new SyncDb(name, dexieOptions(env));
  try {
    await db.open();
    if ((await waiting(db)) === 0) return 'empty';
    const server = createSupabaseServerApi(createWorkerClient(session.url, session.anonKey, session.accessToken));
    // Object paths start with the account (R12.4): the feed's, else the server's (as the engine asks).
    const accountId = async () => (await readFeed(db)).accountId ?? (await server.fetchAccountId(session.userId).catch(() => null));
    const uploads = { now, accountId: (await attachmentWork(db)) > 0 ? await accountId() : null, ...(doFetch ? { fetch: doFetch } : {}) };
    await attachmentPass(db, session, uploads);
    // The browser says the network is back: every entry is due (R9.6: no stored schedule to reset).
    await flushOutbox({ db, server, userId: session.userId, now, timings: SPEC_TIMINGS, onPullNeeded: () => undefined });
    await attachmentPass(db, session, uploads);
    const remaining = await waiting(db);
    if (remaining > 0) throw new OutboxStillQueued(remaining);
    return 'flushed';
  } finally {
    db.close();
  }
}

async function outboxSize(userId: string, env: IdbEnvironment): Promise<number> {
  if (!(await userDbExists(userId, env))) return 0;
  const db = new SyncDb(dbNameFor(userId), dexieOptions(env));
  try {
    await db.open();
    return await waiting(db);
  } finally {
    db.close();
  }
}

export interface BackgroundFlushOptions {
  now?: () => number;
  /** How long one sync event waits for a leading tab to finish or close (the event itself is capped by the browser). */
  patienceMs?: number;
  pollMs?: number;
  /** Tests: the IndexedDB the databases live in, the mirrored session, and the uploads' fetch. */
  idb?: IdbEnvironment;
  session?: () => Promise<MirroredSession | null>;
  fetch?: typeof fetch;
}

/**
 * The sync event's work. While a tab leads (holds the lock), the worker does not flush: it looks
 * again every `pollMs`, resolves once the outbox is empty (the tab delivered it) or flushes itself
 * once the tab has closed; after `patienceMs` with entries still queued it rejects, and the browser
 * fires the event again later. (The event may fire while the tab that registered it is still open.)
 */
export async function backgroundFlush(locks: LocksWithIfAvailable, opts: BackgroundFlushOptions = {}): Promise<BackgroundOutcome> {
  const now = opts.now ?? Date.now;
  const patienceMs = opts.patienceMs ?? 150_000;
  const pollMs = opts.pollMs ?? 3000;
  const env = opts.idb ?? {};
  const session = await (opts.session ?? readMirroredSession)();
  if (!session) return 'no-session';
  const until = now() + patienceMs;
  const lockName = leaderLockName(dbNameFor(session.userId));
  for (;;) {
    if (!usableToken(session, now())) return 'token-expired';
    const outcome = await locks.request(lockName, { mode: 'exclusive', ifAvailable: true }, async (lock): Promise<BackgroundOutcome> =>
      lock === null ? 'busy' : flushHeld(session, now, env, opts.fetch),
    );
    if (outcome !== 'busy') return outcome;
    const remaining = await outboxSize(session.userId, env);
    if (remaining === 0) return 'empty';
    if (now() >= until) throw new OutboxStillQueued(remaining);
    await new Promise((resolve) => setTimeout(resolve, pollMs));
  }
}
