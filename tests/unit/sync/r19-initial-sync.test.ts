// R19 (issue 35, bench row 5): the initial sync's throughput. What a page's transaction does once
// per chat rather than once per row, the feed identity read once per pull without missing a restore
// (R9.7), and the search index holding its full passes while a backlog arrives.
import { Dexie } from 'dexie';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { applyRemoteChanges, readFeed } from '../../../sync/receive/apply.ts';
import type { SyncDb } from '../../../sync/db/schema.ts';
import type { MetaRow } from '../../../sync/model/local-types.ts';
import { pullFeed } from '../../../sync/receive/pull.ts';
import { historyComplete, markPartialHistory } from '../../../sync/receive/history.ts';
import type { ServerApi } from '../../../sync/server/api.ts';
import { BACKLOG_STALL_MS, BacklogHold, backlogArriving } from '../../../sync/search/backlog-hold.ts';
import { ALL_CHANGED } from '../../../sync/search/changes.ts';
import type { FakeServer } from './helpers/fake-server.ts';
import { scopedDb } from './helpers/scoped-db.ts';

let db: SyncDb;
let server: FakeServer;
const now = () => 1000;

beforeEach(async () => {
  ({ db, server } = await scopedDb());
});
afterEach(() => db.close());

describe('R19 initial sync throughput', () => {
  it('R19.1 a page holding many replies of one chat names that chat once, and its typing indicator is cleared', async () => {
    const c = server.addConversation();
    const replies = Array.from({ length: 300 }, (_, i) => server.addMessage(c.id, { text: `odpoveď ${i}`, direction: 'specialist' }));
    await db.typing.put({ conversationId: c.id, startedAt: 1 });
    const r = await applyRemoteChanges(db, { conversations: [server.conversations.get(c.id)!], messages: replies }, 'user-1', { kind: 'page', cursor: server.seq });
    expect(r.specialistReplies).toEqual([c.id]);
    expect(await db.typing.get(c.id)).toBeUndefined();
    expect(await db.messages.count()).toBe(300);
  });

  it('R19.3 R9.7 a pull reads the feed identity once however many pages it stores (no read of the feed row between its pages)', async () => {
    const c = server.addConversation();
    for (let i = 0; i < 30; i++) server.addMessage(c.id, { text: `správa ${i}` });
    const api = server.api();
    const identified: ServerApi = { ...api, pull: async (since, limit) => ({ ...(await api.pull(since, limit)), feed_epoch: 'epoch-a' }) };
    // R9.7's check reads the feed row outside any transaction; each page's own read is inside its one.
    let reads = 0;
    const get = db.meta.get.bind(db.meta);
    db.meta.get = ((key: MetaRow['key']) => {
      if (key === 'feed' && !Dexie.currentTransaction) reads++;
      return get(key);
    }) as typeof db.meta.get;
    const r = await pullFeed(db, identified, 'user-1', now, 3, server.accountId);
    expect(r.pages).toBeGreaterThan(8);
    // The pull's start and end, and the first page's check (the identity adopted: read, then stored).
    expect(reads).toBeLessThanOrEqual(4);
    expect((await readFeed(db)).epoch).toBe('epoch-a');
  });

  it('R19.3 R9.7 a restore between a pull’s pages (another identity) still starts the feed over', async () => {
    const c = server.addConversation();
    for (let i = 0; i < 30; i++) server.addMessage(c.id, { text: `správa ${i}` });
    const api = server.api();
    let pages = 0;
    const restored: ServerApi = {
      ...api,
      pull: async (since, limit) => {
        pages++;
        const page = await api.pull(since, limit);
        // Pages 1–2 from the database before the restore, every later one from the restored one.
        return { ...page, feed_epoch: pages <= 2 ? 'epoch-a' : 'epoch-b' };
      },
    };
    const froms: number[] = [];
    await pullFeed(db, restored, 'user-1', now, 10, server.accountId, { onPage: (s) => froms.push(s.from) });
    expect((await readFeed(db)).epoch).toBe('epoch-b');
    // Page 3 carried the new identity: the feed restarted from 0 (R9.7) and brought everything again.
    expect(froms.filter((f) => f === 0).length).toBe(2);
    expect(await db.messages.count()).toBe(30);
  });

  it('R19.2 a full catch-up of the search index waits while a backlog arrives (R17.5’s mark, its cursor moving); a keyed one never, a stalled backlog not at all', async () => {
    expect(await backlogArriving(db)).toBeNull();
    const c = server.addConversation();
    await markPartialHistory(db, { conversations: [c], messages: [] }, { conversations: 200, withMessages: 20, perConversation: 30 }, 500);
    const backlog = await backlogArriving(db);
    expect(backlog).toEqual({ cursor: 0 });
    const hold = new BacklogHold();
    expect(hold.hold(ALL_CHANGED, backlog, 0)).toBe(true);
    expect(hold.hold({ keys: ['s:1'] }, backlog, 1)).toBe(false);
    expect(hold.hold(ALL_CHANGED, backlog, BACKLOG_STALL_MS - 1)).toBe(true);
    // The pull stopped (offline): the cursor did not move for BACKLOG_STALL_MS, the index catches up.
    expect(hold.hold(ALL_CHANGED, backlog, BACKLOG_STALL_MS)).toBe(false);
    // A page stored: the backlog arrives again.
    expect(hold.hold(ALL_CHANGED, { cursor: 100 }, BACKLOG_STALL_MS + 1)).toBe(true);
    await historyComplete(db);
    expect(await backlogArriving(db)).toBeNull();
    expect(hold.hold(ALL_CHANGED, await backlogArriving(db), BACKLOG_STALL_MS + 2)).toBe(false);
  });
});
