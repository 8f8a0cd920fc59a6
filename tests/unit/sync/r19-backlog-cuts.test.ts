// R19.5–R19.7 (issue 35, bench row 5): what an initial sync's pages no longer do per page, counted
// through the database's own tables (not timed), and the writes of others during the backlog that
// must still merge as before.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { applyRemoteChanges } from '../../../sync/receive/apply.ts';
import type { SyncDb } from '../../../sync/db/schema.ts';
import { pullFeed, ROWS_PER_TX } from '../../../sync/receive/pull.ts';
import { optimisticMessage } from '../../../sync/merge/message.ts';
import type { ServerApi } from '../../../sync/server/api.ts';
import type { RemoteMessage, RemotePullPage } from '../../../sync/model/remote-types.ts';
import { SUMMARY_INTERVAL_MS } from '../../../sync/receive/backlog-summaries.ts';
import type { FakeServer } from './helpers/fake-server.ts';
import { scopedDb } from './helpers/scoped-db.ts';

let db: SyncDb;
let server: FakeServer;
const now = () => 1000;
/** A clock that does not move: R19.6's interval never passes within the pull. */
const still = () => 0;

beforeEach(async () => {
  ({ db, server } = await scopedDb());
});
afterEach(() => db.close());

/** Counts the message keys the pull reads back (every bulkGet of the messages table). */
function countKeyReads(): { keys: number } {
  const seen = { keys: 0 };
  const bulkGet = db.messages.bulkGet.bind(db.messages);
  db.messages.bulkGet = ((keys: string[]) => {
    seen.keys += keys.length;
    return bulkGet(keys);
  });
  return seen;
}

/** Counts conversation summary refreshes (each reads its conversation's read cursor once). */
function countRefreshes(): { n: number } {
  const seen = { n: 0 };
  const get = db.readCursors.get.bind(db.readCursors);
  db.readCursors.get = ((key: string) => {
    seen.n++;
    return get(key);
  }) as typeof db.readCursors.get;
  return seen;
}

/** Counts the pull's page transactions: each stores the feed row with its cursor once. */
function countFeedWrites(): { n: number } {
  const seen = { n: 0 };
  const put = db.meta.put.bind(db.meta);
  db.meta.put = ((row: Parameters<typeof put>[0]) => {
    if (row.key === 'feed') seen.n++;
    return put(row);
  });
  return seen;
}

/** The server's API, with `before` awaited ahead of every page answer after the first. */
function withHook(before: (call: number, page: RemotePullPage) => Promise<void>): ServerApi {
  const api = server.api();
  let calls = 0;
  return {
    ...api,
    pull: async (since, limit) => {
      const page = await api.pull(since, limit);
      calls++;
      await before(calls, page);
      return page;
    },
  };
}

/** A conversation already on the device: a backlog's pages bring its messages, its own row last. */
async function storedConversation() {
  const c = server.addConversation();
  await pullFeed(db, server.api(), 'user-1', now, 100, server.accountId);
  return c;
}

/**
 * R19.6's backlog: 40 stored messages of `c` that the server then rewrites (a streamed answer's
 * versions, edits): each page replaces stored rows, so R19.10's tally does not apply and the
 * summaries are recounted at R19.6's rate (a backlog that only adds rows is kept by tally).
 */
async function rewrittenBacklog(c: { id: string }) {
  const rows: RemoteMessage[] = [];
  for (let i = 0; i < 40; i++) rows.push(server.addMessage(c.id, { text: `správa ${i}` }));
  await pullFeed(db, server.api(), 'user-1', now, 100, server.accountId);
  for (const [i, m] of rows.entries()) server.messages.set(m.id, { ...m, text: `oprava ${i}`, change_seq: ++server.seq });
}

describe('R19 a backlog’s pages', () => {
  it('R19.5 a pull into a store without server rows reads none of its keys back, and stores them all', async () => {
    const c = server.addConversation();
    for (let i = 0; i < 30; i++) server.addMessage(c.id, { text: `správa ${i}` });
    const reads = countKeyReads();
    const r = await pullFeed(db, server.api(), 'user-1', now, 4, server.accountId, { monotonic: still });
    expect(r.pages).toBeGreaterThan(5);
    expect(reads.keys).toBe(0);
    expect(await db.messages.count()).toBe(30);
  });

  it('R19.5 R2.1 a realtime row stored between two pages of the backlog is read and kept over the older copy a later page brings', async () => {
    const c = server.addConversation();
    const rows: RemoteMessage[] = [];
    for (let i = 0; i < 20; i++) rows.push(server.addMessage(c.id, { text: `správa ${i}` }));
    const late = rows[19]!;
    let firstStored!: () => void;
    const stored = new Promise<void>((resolve) => (firstStored = resolve));
    const api = withHook(async (call, page) => {
      if (call < 2 || !page.messages.some((m) => m.id === late.id)) return;
      // The page carrying `late` waits until the backlog's first page is stored, then realtime
      // brings `late` edited (a newer change) before the page is stored.
      await stored;
      const edited = { ...late, text: 'upravená', change_seq: server.seq + 100 };
      await applyRemoteChanges(db, { messages: [edited] }, 'user-1', { kind: 'event', changeSeq: edited.change_seq });
    });
    const reads = countKeyReads();
    await pullFeed(db, api, 'user-1', now, 6, server.accountId, { monotonic: still, onPage: () => firstStored() });
    expect((await db.messages.get(`s:${late.id}`))?.text).toBe('upravená');
    expect(reads.keys).toBeGreaterThan(0);
    expect(await db.messages.count()).toBe(20);
  });

  it('R19.5 R3.2 the user’s own send typed during the backlog is read under its correlation key and merged, not duplicated', async () => {
    const c = server.addConversation();
    for (let i = 0; i < 10; i++) server.addMessage(c.id, { text: `správa ${i}` });
    const corr = '6a0c1a7e-0000-4000-8000-000000000001';
    const mine = server.addMessage(c.id, { text: 'moja', direction: 'user', source: 'app', client_correlation_id: corr, sender_user_id: 'user-1' });
    const api = withHook(async (call, page) => {
      if (call < 2 || !page.messages.some((m) => m.id === mine.id)) return;
      const at = mine.created_at.replace('+00:00', 'Z');
      await db.messages.put({ ...optimisticMessage({ conversationId: c.id, accountId: server.accountId, text: 'moja', correlationId: corr, createdAt: at, payload: null, userId: 'user-1' }), state: 'sending' });
    });
    await pullFeed(db, api, 'user-1', now, 4, server.accountId, { monotonic: still });
    const row = await db.messages.get(`c:${corr}`);
    expect(row?.serverId).toBe(mine.id);
    expect(row?.state).toBe('sent');
    expect(await db.messages.count()).toBe(11);
  });

  it('R19.6 a backlog refreshes its summaries on its first and last page, not per page, and the list is right when it ends', async () => {
    const c = await storedConversation();
    await rewrittenBacklog(c);
    const refreshes = countRefreshes();
    const r = await pullFeed(db, server.api(), 'user-1', now, 4, server.accountId, { monotonic: still });
    expect(r.pages).toBeGreaterThan(8);
    expect(refreshes.n).toBe(2);
    const stored = await db.conversations.get(c.id);
    expect(stored?.lastMessage?.text).toBe('oprava 39');
    expect(stored?.unreadCount).toBe(40);
    expect((await db.meta.get('feed')) as { summariesPending?: string[] }).toMatchObject({ summariesPending: [] });
  });

  it('R19.6 while a backlog arrives its summaries are refreshed once the interval passed; a pull that stops leaves none stale', async () => {
    const c = await storedConversation();
    await rewrittenBacklog(c);
    let clock = 0;
    const refreshes = countRefreshes();
    const api = withHook(async (call) => {
      if (call === 4) throw new Error('fetch failed');
    });
    // Every page moves the clock past the interval: each stored batch refreshes.
    await expect(pullFeed(db, api, 'user-1', now, 4, server.accountId, { monotonic: () => clock, onPage: () => (clock += SUMMARY_INTERVAL_MS) })).rejects.toThrow('fetch failed');
    expect(refreshes.n).toBeGreaterThanOrEqual(2);
    const all = await db.messages.where('conversationId').equals(c.id).sortBy('orderKey');
    expect(all.length).toBeGreaterThan(0);
    const stored = await db.conversations.get(c.id);
    expect(stored?.lastMessage?.text).toBe(all[all.length - 1]!.text);
    expect(stored?.unreadCount).toBe(all.length);
  });

  it('R19.7 pages already here are stored together, in order, never more than ROWS_PER_TX rows in one transaction', async () => {
    const c = server.addConversation();
    for (let i = 0; i < 60; i++) server.addMessage(c.id, { text: `správa ${i}` });
    const txs = countFeedWrites();
    const puts: number[] = [];
    const bulkPut = db.messages.bulkPut.bind(db.messages);
    db.messages.bulkPut = ((rows: Parameters<typeof bulkPut>[0]) => {
      puts.push(rows.length);
      return bulkPut(rows);
    });
    const steps: { from: number; cursor: number }[] = [];
    const r = await pullFeed(db, server.api(), 'user-1', now, 5, server.accountId, { monotonic: still, onPage: (s) => steps.push(s) });
    // One feed write per page transaction, and one for the pull's end (pulledAt).
    expect(txs.n - 1).toBeLessThan(r.pages);
    expect(steps).toHaveLength(r.pages);
    for (let i = 1; i < steps.length; i++) expect(steps[i]!.from).toBe(steps[i - 1]!.cursor);
    expect(Math.max(...puts)).toBeLessThanOrEqual(ROWS_PER_TX);
    expect(await db.messages.count()).toBe(60);
  });
});
