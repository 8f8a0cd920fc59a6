// R9.20: the first feed identity a pull meets clears what was stored before it (a send's answer or a
// realtime row of the database before a restore), and a realtime row's write is judged by the feed
// generation when its transaction runs, not when its event came (session/feed-generation.ts).
import { IDBFactory, IDBKeyRange } from 'fake-indexeddb';
import { afterEach, describe, expect, it } from 'vitest';
import { openUserDb } from '../../../sync/db/open.ts';
import type { SyncDb } from '../../../sync/db/schema.ts';
import { handleTransportEvent } from '../../../sync/receive/events.ts';
import { initialFeed } from '../../../sync/receive/apply.ts';
import { queue } from '../../../sync/send/outbox.ts';
import { writeOptimisticMessage } from '../../../sync/send/optimistic-message.ts';
import { adoptFeedIdentity } from '../../../sync/session/account-scope.ts';
import { countFeedChange, feedGeneration } from '../../../sync/session/feed-generation.ts';
import type { TransportEvent } from '../../../sync/transports/transport.ts';
import { FakeServer } from './helpers/fake-server.ts';

const USER = 'user-1';
const dbs: SyncDb[] = [];
afterEach(() => {
  for (const db of dbs.splice(0)) db.close();
});

async function store(): Promise<SyncDb> {
  const db = await openUserDb(USER, { indexedDB: new IDBFactory(), IDBKeyRange });
  dbs.push(db);
  return db;
}

const feedOf = async (db: SyncDb) => {
  const f = await db.meta.get('feed');
  return f?.key === 'feed' ? f : null;
};

function rowEvent(record: unknown, joinedIn: number): TransportEvent {
  return { kind: 'row', table: 'messages', op: 'INSERT', record, oldRecord: null, joinedIn };
}

describe('R9.20 the first feed identity adopted', () => {
  it('R9.20 an empty store adopts it as it is: no change of identity counted, so its realtime rows keep merging', async () => {
    const db = await store();
    expect(await adoptFeedIdentity(db, 'E2')).toBe(false);
    expect(feedGeneration(db)).toBe(0);
    expect((await feedOf(db))?.epoch).toBe('E2');
  });

  it('R9.20 rows stored before it are cleared, the change counted, the cursor back to 0 (the unsent stay, as resetFeed keeps them)', async () => {
    const db = await store();
    const server = new FakeServer();
    const conv = server.addConversation();
    await handleTransportEvent(db, USER, { kind: 'row', table: 'conversations', op: 'INSERT', record: conv, oldRecord: null }, Date.now());
    await handleTransportEvent(db, USER, rowEvent(server.addMessage(conv.id, { text: 'zo starej databázy' }), 0), Date.now());
    expect(await db.messages.count()).toBe(1);
    expect(await adoptFeedIdentity(db, 'E2')).toBe(true);
    expect(feedGeneration(db)).toBe(1);
    expect(await db.messages.count()).toBe(0);
    expect(await db.conversations.count()).toBe(0);
    const feed = await feedOf(db);
    expect(feed).toMatchObject({ epoch: 'E2', cursor: 0 });
  });

  it('R9.20 a send queued before it (its answer may still come from before a restore) counts a change too; the unsent message and its entry stay', async () => {
    const db = await store();
    const written = await writeOptimisticMessage(db, { conversationId: 'conv-1', text: 'napísané pred prvou stranou', correlationId: '00000000-0000-4000-8000-000000000001', payload: null, userId: USER, now: Date.now() });
    expect(await adoptFeedIdentity(db, 'E2')).toBe(true);
    expect(feedGeneration(db)).toBe(1);
    expect((await db.messages.get(written!.message.key))?.state).toBe('sending');
    expect(await db.outbox.count()).toBe(1);
  });

  it('R9.20 a send queued for another account (R9.8: it waits there, nothing of it is on the wire) does not', async () => {
    const db = await store();
    await db.meta.put(initialFeed('account-a'));
    await queue(db, { kind: 'send', conversationId: 'conv-b', correlationId: '00000000-0000-4000-8000-000000000002', messageKey: 'c:x', text: 'v druhom účte', payload: null, accountId: 'account-b' }, Date.now());
    expect(await adoptFeedIdentity(db, 'E2')).toBe(false);
    expect(feedGeneration(db)).toBe(0);
  });

  it('R9.20 a realtime row whose event came before the adoption but whose write runs after it asks for a pull and stores nothing', async () => {
    const db = await store();
    const server = new FakeServer();
    const conv = server.addConversation();
    await handleTransportEvent(db, USER, { kind: 'row', table: 'conversations', op: 'INSERT', record: conv, oldRecord: null }, Date.now());
    // The adoption's transaction is asked for first; the row's event passed its channel's check before.
    const adopted = adoptFeedIdentity(db, 'E2');
    const written = handleTransportEvent(db, USER, rowEvent(server.addMessage(conv.id, { text: 'oneskorený rámec' }), 0), Date.now());
    expect(await adopted).toBe(true);
    const outcome = await written;
    expect(outcome.needPull).toBe(true);
    expect(outcome.stored?.put ?? []).toEqual([]);
    expect(await db.messages.count()).toBe(0);
  });

  it('R9.20 the same row asked for before the adoption is stored, then cleared by it', async () => {
    const db = await store();
    const server = new FakeServer();
    const conv = server.addConversation();
    const written = handleTransportEvent(db, USER, rowEvent(server.addMessage(conv.id, { text: 'skorší rámec' }), 0), Date.now());
    const adopted = adoptFeedIdentity(db, 'E2');
    expect((await written).stored?.put.map((m) => m.text)).toEqual(['skorší rámec']);
    expect(await adopted).toBe(true);
    expect(await db.messages.count()).toBe(0);
  });

  it('R9.18 a row of the generation its channel joined in is merged', async () => {
    const db = await store();
    countFeedChange(db);
    const server = new FakeServer();
    const conv = server.addConversation();
    const stale = await handleTransportEvent(db, USER, rowEvent(server.addMessage(conv.id, { text: 'starý kanál' }), 0), Date.now());
    expect(stale.needPull).toBe(true);
    const fresh = await handleTransportEvent(db, USER, rowEvent(server.addMessage(conv.id, { text: 'nový kanál' }), 1), Date.now());
    expect(fresh.stored?.put.map((m) => m.text)).toEqual(['nový kanál']);
  });
});
