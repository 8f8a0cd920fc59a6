// R15 (issue 40): the search index on the device, on fake-indexeddb: folded prefix matches, built
// incrementally, reloaded without a rebuild, dropped with the user's data.
import { IDBFactory, IDBKeyRange } from 'fake-indexeddb';
import { Dexie } from 'dexie';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { deleteUserDb, openUserDb } from '../../../sync/db/open.ts';
import type { SyncDb } from '../../../sync/db/schema.ts';
import { createSyncEngine } from '../../../sync/engine.ts';
import type { LocalMessage } from '../../../sync/model/local-types.ts';
import { scopeToAccount } from '../../../sync/session/account-scope.ts';
import { manualNetwork } from '../../../sync/session/network.ts';
import { openDeviceSearch, type DeviceSearch } from '../../../sync/search/device.ts';
import { searchDbName } from '../../../sync/search/drop.ts';
import { messageChanges, type MessageChanges } from '../../../sync/search/changes.ts';
import { dbNameFor } from '../../../sync/db/schema.ts';
import { SearchDb } from '../../../sync/search/store.ts';
import { FakeServer } from '../sync/helpers/fake-server.ts';
import { FAST_TIMINGS, waitFor } from '../sync/helpers/wait.ts';

let idb: { indexedDB: IDBFactory; IDBKeyRange: typeof IDBKeyRange };
let db: SyncDb;
const open: DeviceSearch[] = [];

function message(i: number, text: string, over: Partial<LocalMessage> = {}): LocalMessage {
  const createdAt = new Date(Date.UTC(2026, 10, 1) + i * 60_000).toISOString();
  return {
    key: `s:m${i}`, serverId: `m${i}`, conversationId: 'c1', accountId: 'acc-1', text, type: 'text', direction: 'user', source: null,
    chatwootMessageId: null, createdAt, orderKey: `${createdAt} m${i}`, readAt: null, payload: null, correlationId: null,
    senderUserId: null, changeSeq: i + 1, state: 'sent', origin: 'server', error: null, confirmedAt: null, ...over,
  };
}

async function search(): Promise<DeviceSearch> {
  const s = await openDeviceSearch(db, new SearchDb('user-1', idb));
  open.push(s);
  return s;
}

const names = async () => (await idb.indexedDB.databases()).map((d) => d.name).sort();

beforeEach(async () => {
  idb = { indexedDB: new IDBFactory(), IDBKeyRange };
  db = await openUserDb('user-1', idb);
});
afterEach(() => {
  for (const s of open.splice(0)) s.close();
  db.close();
});

describe('R15 search index on the device', () => {
  it('R15.1 folded and prefix: rozpocet finds Rozpočet, kampan finds kampane, every word must match', async () => {
    await db.messages.bulkPut([message(1, 'Rozpočet na jún je 12 000 €.'), message(2, 'Posielam návrh kampane pre Kofolu.'), message(3, 'KAMPAŇ beží, rozpočtu sa držíme.')]);
    const s = await search();
    await s.catchUp();
    const keys = async (q: string) => (await s.search(q)).hits.map((h) => h.key);
    expect(await keys('rozpocet')).toEqual(['s:m1']);
    expect(await keys('ROZPOČ')).toEqual(['s:m3', 's:m1']); // newest first
    expect(await keys('kampan')).toEqual(['s:m3', 's:m2']);
    expect(await keys('kampan rozp')).toEqual(['s:m3']);
    expect(await keys('ampan')).toEqual([]); // a prefix of a word, not any substring
    expect(await keys('  ')).toEqual([]);
  });

  it('R15.6 the snippet marks the match as written', async () => {
    await db.messages.bulkPut([message(1, 'Ahoj, posielam finálny Rozpočet na jún aj s poznámkami od klienta.')]);
    const s = await search();
    await s.catchUp();
    const [hit] = (await s.search('rozpocet')).hits;
    expect(hit!.snippet.parts.filter((p) => p.hit).map((p) => p.text)).toEqual(['Rozpočet']);
    expect(hit!.snippet.parts.map((p) => p.text).join('')).toBe('Ahoj, posielam finálny Rozpočet na jún aj s poznámkami od klienta.');
  });

  it('R15.4 built incrementally: a new message adds one entry, not a rebuild', async () => {
    await db.messages.bulkPut(Array.from({ length: 50 }, (_, i) => message(i, `správa ${i} o kampani`)));
    const s = await search();
    expect(await s.catchUp()).toEqual({ added: 50, removed: 0 });
    await db.messages.put(message(50, 'Nový rozpočet'));
    expect(await s.catchUp()).toEqual({ added: 1, removed: 0 });
    expect(s.index.adds).toBe(51);
    expect((await s.search('rozpocet')).hits.map((h) => h.key)).toEqual(['s:m50']);
  });

  it('R15.4 a change event\'s keys only: a new message reads its own row, not every key of the table', async () => {
    await db.messages.bulkPut(Array.from({ length: 2000 }, (_, i) => message(i, `správa ${i} o kampani`)));
    const s = await search();
    await s.catchUp();
    // The changes as the worker gets them: Dexie's storagemutated event of the write's transaction.
    const events: MessageChanges[] = [];
    const listen = (parts: Record<string, unknown>) => {
      const c = messageChanges(parts, dbNameFor('user-1'));
      if (c) events.push(c);
    };
    Dexie.on('storagemutated', listen);
    try {
      const keysRead = vi.spyOn(db.messages, 'toCollection');
      const rowsRead = vi.spyOn(db.messages, 'bulkGet');
      await db.messages.put(message(2000, 'Nový rozpočet'));
      await waitFor(() => events.length === 1, 'the storagemutated event');
      expect(events[0]).toEqual({ keys: ['s:m2000'] });
      expect(await s.catchUp(events[0])).toEqual({ added: 1, removed: 0 });
      expect(keysRead).not.toHaveBeenCalled(); // before: every key of the table, O(n) per message
      expect(rowsRead.mock.calls.flatMap(([keys]) => keys)).toEqual(['s:m2000']);
      expect((await s.search('rozpocet')).hits.map((h) => h.key)).toEqual(['s:m2000']);

      await db.messages.delete('s:m5');
      await waitFor(() => events.length === 2, 'the delete\'s event');
      expect(await s.catchUp(events[1])).toEqual({ added: 0, removed: 1 });
      expect(s.index.has('s:m5')).toBe(false);
      expect(keysRead).not.toHaveBeenCalled();
    } finally {
      Dexie.on('storagemutated').unsubscribe(listen);
    }
  });

  it('R15.4 a bulk write of 50 rows or more is not a list of keys: the full pass follows it', async () => {
    const s = await search();
    await s.catchUp();
    let seen: MessageChanges | null = null;
    const listen = (parts: Record<string, unknown>) => (seen ??= messageChanges(parts, dbNameFor('user-1')));
    Dexie.on('storagemutated', listen);
    try {
      await db.messages.bulkPut(Array.from({ length: 60 }, (_, i) => message(i, `rozpočet ${i}`)));
      await waitFor(() => seen !== null, 'the storagemutated event');
      expect(seen).toEqual({ all: true });
      expect(await s.catchUp(seen!)).toEqual({ added: 60, removed: 0 });
    } finally {
      Dexie.on('storagemutated').unsubscribe(listen);
    }
  });

  it('R15.4 a text that grows or is edited after it was stored is found by its new words (a streamed answer, an edit)', async () => {
    const s = await search();
    // An AI answer's row as it streams (R13.1): first words, then the whole text, each a keyed write.
    const now = new Date().toISOString();
    const answer = (text: string) => message(1, text, { direction: 'specialist', createdAt: now, orderKey: `${now} m1` });
    await db.messages.put(answer('Dobrý deň,'));
    expect(await s.catchUp({ keys: ['s:m1'] })).toEqual({ added: 1, removed: 0 });
    await db.messages.put(answer('Dobrý deň, odporúčam rozpočet 2 000 € na kampaň.'));
    expect(await s.catchUp({ keys: ['s:m1'] })).toEqual({ added: 0, removed: 0 });
    expect((await s.search('rozpocet')).hits.map((h) => h.key)).toEqual(['s:m1']); // before: never found
    expect(s.index.adds).toBe(1); // re-indexed in place, not a second entry
    // An edit that drops a word: the old word no longer finds it.
    await db.messages.put(answer('Dobrý deň, odporúčam 2 000 € na kampaň.'));
    await s.catchUp({ keys: ['s:m1'] });
    expect((await s.search('rozpocet')).hits).toEqual([]);
    // A pull's bulk write (no keys named) that completes a recent answer: the full pass re-reads it.
    await db.messages.put(answer('Dobrý deň, odporúčam 2 000 € na kampaň a newsletter.'));
    await s.catchUp();
    expect((await s.search('newsletter')).hits.map((h) => h.key)).toEqual(['s:m1']);
    // And the re-indexed text survives a reload (the fingerprints are persisted with the slots).
    await s.persist();
    const again = await search();
    await db.messages.put(answer('Dobrý deň, odporúčam 2 000 € na kampaň a newsletter.'));
    expect(await again.catchUp({ keys: ['s:m1'] })).toEqual({ added: 0, removed: 0 });
    expect(again.index.adds).toBe(0);
    expect((await again.search('newsletter')).hits.map((h) => h.key)).toEqual(['s:m1']);
  });

  it('R15.3 a reload loads the persisted index and adds only what arrived since', async () => {
    await db.messages.bulkPut(Array.from({ length: 40 }, (_, i) => message(i, `rozpočet ${i}`)));
    const first = await search();
    await first.catchUp();
    expect(await first.persist()).toBe(true);
    first.close();
    open.splice(0);
    await db.messages.put(message(40, 'rozpočet po obnovení'));
    const again = await search();
    expect(again.index.size).toBe(40); // loaded, not rebuilt
    expect(await again.catchUp()).toEqual({ added: 1, removed: 0 });
    expect(again.index.adds).toBe(1);
    expect((await again.search('rozpocet')).total).toBe(41);
  });

  it('R15.4 R5.5 another account\'s rows leave the index with the rows; a stale key is never a hit', async () => {
    await db.meta.put({ key: 'feed', accountId: 'acc-1' } as never);
    await db.messages.bulkPut([message(1, 'tajný rozpočet')]);
    const s = await search();
    await s.catchUp();
    await scopeToAccount(db, 'acc-2');
    expect((await s.search('rozpocet')).hits).toEqual([]); // before the catch-up: the row is gone, so no hit
    expect(await s.catchUp()).toEqual({ added: 0, removed: 1 });
    expect(s.index.size).toBe(0);
  });

  it('R15.5 deleteUserDb drops the search index too', async () => {
    await db.messages.bulkPut([message(1, 'rozpočet')]);
    const s = await search();
    await s.catchUp();
    await s.persist();
    expect(await names()).toContain(searchDbName('user-1'));
    s.close();
    open.splice(0);
    db.close();
    await deleteUserDb('user-1', idb);
    expect(await names()).toEqual([]);
  });

  it('R15.5 R1.11 the engine\'s signOut drops the search index', async () => {
    const server = new FakeServer();
    const e = createSyncEngine({ userId: 'user-2', server: server.api(), idb, network: manualNetwork(true), timings: FAST_TIMINGS, transports: { realtime: null }, locks: null });
    await e.start();
    await waitFor(() => e.status().loaded, 'loaded');
    const s = await openDeviceSearch(e.db, new SearchDb('user-2', idb));
    await s.catchUp();
    s.index.add({ key: 'x', text: 'rozpočet', createdAt: '2026-11-01T00:00:00Z' });
    await s.persist();
    s.close();
    expect(await names()).toContain(searchDbName('user-2'));
    await e.signOut();
    expect((await names()).filter((n) => n?.endsWith('user-2'))).toEqual([]);
  });
});
