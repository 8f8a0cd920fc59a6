// R19.10 (issue 35, bench row 5): a pull page that only adds rows new to the device keeps its
// conversations' summaries exact by tally, after every page, without counting the unread index
// range (R19.6 held them up to 2 s behind while a backlog arrived, to spare those counts).
// Each page's state is read right after it is stored (onPage), as the list would see it.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { SyncDb } from '../../../sync/db/schema.ts';
import { pullFeed } from '../../../sync/receive/pull.ts';
import { conversationMessages } from '../../../sync/db/summary-store.ts';
import { unreadCount } from '../../../sync/merge/summary.ts';
import type { RemoteMessage } from '../../../sync/model/remote-types.ts';
import type { FakeServer } from './helpers/fake-server.ts';
import { scopedDb } from './helpers/scoped-db.ts';

let db: SyncDb;
let server: FakeServer;
const now = () => 1000;
/** A clock that does not move: R19.6's interval never passes, so a recount waits for the last page. */
const still = () => 0;

beforeEach(async () => {
  ({ db, server } = await scopedDb());
});
afterEach(() => db.close());

interface Seen {
  stored: { text: string | undefined; unread: number | undefined };
  recounted: { text: string | undefined; unread: number };
}

/** What the list shows for `conversationId` and what a recount of its stored rows says. */
function look(conversationId: string): Promise<Seen> {
  return db.transaction('r', db.messages, db.conversations, db.readCursors, async () => {
    const [c, list, cursor] = await Promise.all([db.conversations.get(conversationId), conversationMessages(db, conversationId), db.readCursors.get(conversationId)]);
    return {
      stored: { text: c?.lastMessage?.text, unread: c?.unreadCount },
      recounted: { text: list[list.length - 1]?.text, unread: unreadCount(list, cursor?.orderKey ?? '') },
    };
  });
}

/** Pulls with pages of `limit` rows and looks at the conversation after every stored page. */
async function pullLooking(conversationId: string, limit: number): Promise<{ pages: number; seen: Seen[] }> {
  const looks: Promise<Seen>[] = [];
  const r = await pullFeed(db, server.api(), 'user-1', now, limit, server.accountId, {
    monotonic: still,
    // Asked before the next page's transaction is: IndexedDB runs it on this page's state.
    onPage: () => looks.push(look(conversationId)),
  });
  return { pages: r.pages, seen: await Promise.all(looks) };
}

/** Counts index ranges counted on the messages table (the recount's unread count, summary-store.ts). */
function countCounts(): { n: number } {
  const seen = { n: 0 };
  const where = db.messages.where.bind(db.messages);
  db.messages.where = ((index: string) => {
    const clause = where(index);
    if (index !== '[conversationId+direction+orderKey]') return clause;
    const between = clause.between.bind(clause);
    clause.between = ((...args: Parameters<typeof between>) => {
      const collection = between(...args);
      const count = collection.count.bind(collection);
      collection.count = () => {
        seen.n++;
        return count();
      };
      return collection;
    }) as typeof clause.between;
    return clause;
  }) as typeof db.messages.where;
  return seen;
}

describe('R19.10 a backlog’s summaries by tally', () => {
  it('R19.10 a backlog that only adds rows keeps the list exact after every page, counting no index range', async () => {
    const c = server.addConversation();
    await pullFeed(db, server.api(), 'user-1', now, 100, server.accountId);
    for (let i = 0; i < 40; i++) server.addMessage(c.id, { text: `správa ${i}`, ...(i % 3 === 0 ? { direction: 'user', source: 'app', sender_user_id: 'user-1' } : {}) });
    const counts = countCounts();
    const { pages, seen } = await pullLooking(c.id, 4);
    expect(pages).toBeGreaterThan(8);
    for (const s of seen) expect(s.stored).toEqual(s.recounted);
    expect(seen[seen.length - 1]!.stored).toEqual({ text: 'správa 39', unread: 26 });
    expect(counts.n).toBe(0);
  });

  it('R19.10 R2.8 R5.11 older history arriving after the newest page counts only what is after the read cursor, and keeps the newest as last', async () => {
    const c = server.addConversation();
    // The head's state: the newest message stored and read.
    const newest = server.addMessage(c.id, { text: 'najnovšia' });
    server.cursors.set(c.id, { user_id: 'user-1', conversation_id: c.id, account_id: server.accountId, last_read_message_id: newest.id, last_read_at: newest.created_at, updated_at: newest.created_at, change_seq: ++server.seq });
    await pullFeed(db, server.api(), 'user-1', now, 100, server.accountId);
    expect((await look(c.id)).stored).toEqual({ text: 'najnovšia', unread: 0 });
    // Then the feed brings older rows (created before the read one) and a few newer replies.
    const older: RemoteMessage[] = [];
    const at = (ms: number) => new Date(Date.parse(newest.created_at) - ms).toISOString().replace('Z', '+00:00');
    for (let i = 0; i < 24; i++) older.push(server.addMessage(c.id, { text: `staršia ${i}`, created_at: at(100_000 - i * 1000) }));
    for (let i = 0; i < 5; i++) server.addMessage(c.id, { text: `nová ${i}` });
    const { seen } = await pullLooking(c.id, 4);
    for (const s of seen) expect(s.stored).toEqual(s.recounted);
    expect(seen[seen.length - 1]!.stored).toEqual({ text: 'nová 4', unread: 5 });
  });

  it('R19.10 R19.6 a page that moves the read cursor or replaces a row is recounted, and the list is exact when the backlog ends', async () => {
    const c = server.addConversation();
    const first = server.addMessage(c.id, { text: 'prvá' });
    await pullFeed(db, server.api(), 'user-1', now, 100, server.accountId);
    for (let i = 0; i < 20; i++) server.addMessage(c.id, { text: `správa ${i}` });
    // An edit of a stored row and the user's cursor read on another device, mid-backlog.
    server.messages.set(first.id, { ...first, text: 'prvá upravená', change_seq: ++server.seq });
    const read = server.addMessage(c.id, { text: 'prečítaná' });
    server.cursors.set(c.id, { user_id: 'user-1', conversation_id: c.id, account_id: server.accountId, last_read_message_id: read.id, last_read_at: read.created_at, updated_at: read.created_at, change_seq: ++server.seq });
    for (let i = 0; i < 10; i++) server.addMessage(c.id, { text: `po ${i}` });
    const counts = countCounts();
    const { seen } = await pullLooking(c.id, 4);
    expect(counts.n).toBeGreaterThan(0);
    const last = seen[seen.length - 1]!;
    expect(last.stored).toEqual(last.recounted);
    expect(last.stored).toEqual({ text: 'po 9', unread: 10 });
  });
});
