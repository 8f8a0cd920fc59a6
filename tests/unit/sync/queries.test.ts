import { IDBObjectStore as FakeStore } from 'fake-indexeddb';
import { Dexie, liveQuery } from 'dexie';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { applyRemoteChanges } from '../../../sync/receive/apply.ts';
import type { SyncDb } from '../../../sync/db/schema.ts';
import { archivedCount, conversationList, foldText, lastServerMessage, totalUnread, unreadBadge, unsentCount } from '../../../sync/queries.ts';
import { sendMessage } from '../../../sync/commands/send-message.ts';
import { commandContext, freshDb } from './helpers/local-db.ts';
import { FakeServer, HUMAN } from './helpers/fake-server.ts';

let db: SyncDb;
let idb: Awaited<ReturnType<typeof freshDb>>['idb'];
let server: FakeServer;
let ids: { ai: string; human: string; done: string; archived: string };

beforeEach(async () => {
  ({ db, idb } = await freshDb());
  server = new FakeServer();
  const ai = server.addConversation();
  const human = server.addConversation({ specialist_id: HUMAN.id });
  const done = server.addConversation({ status: 'completed' });
  const archived = server.addConversation({ archived_at: '2025-01-01T00:00:00Z' });
  server.addMessage(ai.id, { text: 'Navrhujem žiadosť o rozpočet' });
  server.addMessage(human.id, { text: 'Ahoj', direction: 'user', sender_user_id: 'user-1' });
  server.addMessage(done.id, { text: 'Hotovo' });
  ids = { ai: ai.id, human: human.id, done: done.id, archived: archived.id };
  await applyRemoteChanges(db, server.page(0, 100), 'user-1');
  await db.readCursors.put({ conversationId: done.id, messageId: null, orderKey: '\uffff', lastReadAt: null, changeSeq: 0, pending: 0, serverMessageId: null, serverOrderKey: '' });
  const { refreshSummaries } = await import('../../../sync/db/summary-store.ts');
  await db.transaction('rw', db.syncTables, () => refreshSummaries(db, [done.id]));
});
afterEach(() => db.close());

describe('R11.5 badge total', () => {
  it('R11.5 sums the unread count of every conversation, archived ones too, in one read', async () => {
    await db.conversations.update(ids.archived, { unreadCount: 4 });
    // The AI chat's one specialist message is unread; the completed one was read; the archived counts.
    expect(await totalUnread(db)).toBe(5);
    // One request, not a cursor stepping through the conversations (a round trip per row).
    const cursors = vi.spyOn(FakeStore.prototype, 'openCursor');
    try {
      expect(await totalUnread(db)).toBe(5);
      expect(cursors).not.toHaveBeenCalled();
    } finally {
      cursors.mockRestore();
    }
  });
  it('R11.5 the badge read is not run again by a write that leaves every count at 0 (an arrival in an open chat)', async () => {
    // Dexie runs live queries only when it found an indexedDB global at load; Node has none.
    const deps = { ...Dexie.dependencies };
    Object.assign(Dexie.dependencies, idb);
    const answers: number[] = [];
    const sub = liveQuery(() => totalUnread(db)).subscribe({ next: (n) => answers.push(n) });
    const settled = () => new Promise((r) => setTimeout(r, 50));
    try {
      await vi.waitFor(() => expect(answers).toEqual([1]));
      // The human chat (0 unread) gets a new last message: the summary's put keeps its count at 0.
      await db.conversations.update(ids.human, { lastMessage: null, sortAt: '2030-01-01T00:00:00.000000Z' });
      await settled();
      expect(answers).toEqual([1]);
      // A count that leaves 0 is seen, and so is one that goes back to 0.
      await db.conversations.update(ids.human, { unreadCount: 2 });
      await vi.waitFor(() => expect(answers).toEqual([1, 3]));
      await db.conversations.update(ids.human, { unreadCount: 0 });
      await vi.waitFor(() => expect(answers).toEqual([1, 3, 1]));
    } finally {
      sub.unsubscribe();
      Object.assign(Dexie.dependencies, deps);
    }
  });
});

describe('R4.3 conversation list', () => {
  it('R4.3 filters by archived, unread, active and completed, newest first', async () => {
    expect((await conversationList(db)).map((c) => c.id)).toEqual([ids.done, ids.human, ids.ai]);
    expect((await conversationList(db, { archived: true })).map((c) => c.id)).toEqual([ids.archived]);
    expect(await archivedCount(db)).toBe(1);
    expect((await conversationList(db, { filter: 'unread' })).map((c) => c.id)).toEqual([ids.ai]);
    expect((await conversationList(db, { filter: 'active' })).map((c) => c.id)).toEqual([ids.human, ids.ai]);
    expect((await conversationList(db, { filter: 'completed' })).map((c) => c.id)).toEqual([ids.done]);
  });

  it('R4.3 search matches specialist name and last message, ignoring case and diacritics', async () => {
    expect((await conversationList(db, { q: 'ZIADOST' })).map((c) => c.id)).toEqual([ids.ai]);
    expect((await conversationList(db, { q: 'človek' })).map((c) => c.id)).toEqual([ids.human]);
    expect(await conversationList(db, { q: 'nič' })).toEqual([]);
    expect(foldText('Žiadosť')).toBe('ziadost');
  });

  it('R4.2 a message typed here moves its conversation to the top at once', async () => {
    await sendMessage(commandContext(db, { now: () => Date.parse('2030-01-01T00:00:00Z') }), { conversationId: ids.ai, text: 'Nová' });
    expect((await conversationList(db))[0]?.id).toBe(ids.ai);
    expect(await unsentCount(db)).toBe(1);
    expect((await lastServerMessage(db, ids.ai))?.text).toBe('Navrhujem žiadosť o rozpočet');
  });

  it('the unread badge shows 99+ above 99', () => {
    expect([unreadBadge(5), unreadBadge(99), unreadBadge(100)]).toEqual(['5', '99', '99+']);
  });
});
