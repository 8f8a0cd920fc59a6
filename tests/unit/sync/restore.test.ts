// Eviction restore and Background Sync requests of the engine (sync/background/restore.ts, issue 8):
// the marker tells an evicted database from a first start, the localStorage mirror re-queues unsent
// messages under their own correlation ids (the server keeps one copy), and sign-out forgets both.
import { Dexie } from 'dexie';
import { IDBFactory, IDBKeyRange } from 'fake-indexeddb';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { markerKey, readUnsent, unsentKey, type KeyValueStore, type RestoreReport } from '../../../sync/background/restore.ts';
import { dbNameFor } from '../../../sync/db/schema.ts';
import { createSyncEngine, type SyncEngine } from '../../../sync/engine.ts';
import { manualNetwork, type ManualNetwork } from '../../../sync/session/network.ts';
import { restoreNoticeText } from '../../../src/pwa/restore-notice.ts';
import { FakeServer } from './helpers/fake-server.ts';
import { FAST_TIMINGS, waitFor } from './helpers/wait.ts';

class MemoryStore implements KeyValueStore {
  readonly map = new Map<string, string>();
  getItem = (k: string) => this.map.get(k) ?? null;
  setItem = (k: string, v: string) => void this.map.set(k, v);
  removeItem = (k: string) => void this.map.delete(k);
}

let server: FakeServer;
let idb: { indexedDB: IDBFactory; IDBKeyRange: typeof IDBKeyRange };
let store: MemoryStore;
const engines: SyncEngine[] = [];

function engine(net: ManualNetwork, extra: { onRestored?: (r: RestoreReport) => void; backgroundSync?: () => void } = {}): SyncEngine {
  const e = createSyncEngine({
    userId: 'user-1',
    server: server.api(),
    idb,
    network: net,
    timings: FAST_TIMINGS,
    transports: { realtime: null },
    locks: null,
    channels: null,
    markers: store,
    onRestored: extra.onRestored ?? null,
    backgroundSync: extra.backgroundSync ?? null,
  });
  engines.push(e);
  return e;
}

const evict = () => new Dexie(dbNameFor('user-1'), idb).delete();
const serverCopies = (text: string) => [...server.messages.values()].filter((m) => m.text === text).length;

beforeEach(() => {
  server = new FakeServer();
  idb = { indexedDB: new IDBFactory(), IDBKeyRange };
  store = new MemoryStore();
});
afterEach(async () => {
  for (const e of engines.splice(0)) await e.stop({ abrupt: true });
});

describe('eviction restore', () => {
  it('a first start is not an eviction; the marker is written', async () => {
    server.addConversation();
    const reports: RestoreReport[] = [];
    const e = engine(manualNetwork(true), { onRestored: (r) => reports.push(r) });
    await e.start();
    await waitFor(() => e.status().loaded, 'loaded');
    await e.settled();
    expect(store.getItem(markerKey('user-1'))).toBe('1');
    expect(reports).toEqual([]);
  });

  it('an evicted database is pulled again, the unsent message re-queued under its id and stored once', async () => {
    const conv = server.addConversation();
    const net = manualNetwork(true);
    const e1 = engine(net);
    await e1.start();
    await waitFor(() => e1.status().loaded, 'loaded');
    net.set(false);
    const h = (await e1.commands.sendMessage({ conversationId: conv.id, text: 'Pred vymazaním' }))!;
    await waitFor(() => readUnsent(store, 'user-1').sends.length === 1, 'mirror written');
    expect(readUnsent(store, 'user-1').sends[0]).toMatchObject({ conversationId: conv.id, correlationId: h.correlationId, text: 'Pred vymazaním' });
    await e1.stop({ abrupt: true });
    await evict();

    const reports: RestoreReport[] = [];
    net.set(true);
    const e2 = engine(net, { onRestored: (r) => reports.push(r) });
    await e2.start();
    await waitFor(() => reports.length === 1, 'restore reported');
    expect(reports).toEqual([{ requeued: 1, lost: 0 }]);
    expect(await e2.db.conversations.get(conv.id)).toBeDefined();
    await waitFor(async () => (await e2.db.outbox.count()) === 0, 'outbox flushed');
    expect(serverCopies('Pred vymazaním')).toBe(1);
    const local = await e2.db.messages.where('conversationId').equals(conv.id).filter((m) => m.text === 'Pred vymazaním').toArray();
    expect(local).toHaveLength(1);
    expect(local[0]?.correlationId).toBe(h.correlationId.toLowerCase());
    expect(store.getItem(unsentKey('user-1'))).toBeNull(); // the mirror follows the emptied outbox
  });

  it('a message the server already had (stale mirror) is not doubled by the re-queue', async () => {
    const conv = server.addConversation();
    const net = manualNetwork(true);
    const e1 = engine(net);
    await e1.start();
    await waitFor(() => e1.status().loaded, 'loaded');
    net.set(false);
    await e1.commands.sendMessage({ conversationId: conv.id, text: 'Už doručené' });
    await waitFor(() => readUnsent(store, 'user-1').sends.length === 1, 'mirror written');
    const stale = store.getItem(unsentKey('user-1'))!;
    net.set(true);
    await waitFor(async () => (await e1.db.outbox.count()) === 0, 'delivered');
    await e1.stop();
    store.setItem(unsentKey('user-1'), stale); // as if a service worker had delivered it (it cannot write localStorage)
    await evict();

    const reports: RestoreReport[] = [];
    const e2 = engine(net, { onRestored: (r) => reports.push(r) });
    await e2.start();
    await waitFor(() => reports.length === 1, 'restore reported');
    await waitFor(async () => (await e2.db.outbox.count()) === 0, 'outbox flushed');
    expect(serverCopies('Už doručené')).toBe(1);
    expect(await e2.db.messages.filter((m) => m.text === 'Už doručené').count()).toBe(1);
  });

  it('sign-out forgets the marker and the mirror, so the next sign-in is no eviction', async () => {
    const conv = server.addConversation();
    const net = manualNetwork(false);
    const e = engine(net);
    await e.start();
    await e.commands.sendMessage({ conversationId: conv.id, text: 'Neodoslané' });
    await waitFor(() => readUnsent(store, 'user-1').sends.length === 1, 'mirror written');
    await e.signOut();
    expect(store.map.size).toBe(0);
  });
});

describe('background sync requests', () => {
  it('a message queued offline asks for a Background Sync; one sent online does not', async () => {
    const conv = server.addConversation();
    const net = manualNetwork(true);
    let requests = 0;
    const e = engine(net, { backgroundSync: () => requests++ });
    await e.start();
    await waitFor(() => e.status().loaded, 'loaded');
    await e.commands.sendMessage({ conversationId: conv.id, text: 'Online' });
    await waitFor(async () => (await e.db.outbox.count()) === 0, 'sent');
    expect(requests).toBe(0);
    net.set(false);
    await e.commands.sendMessage({ conversationId: conv.id, text: 'Offline' });
    expect(requests).toBe(1);
  });

  it('a push that fails for network reasons asks for a Background Sync', async () => {
    const conv = server.addConversation();
    let requests = 0;
    const e = engine(manualNetwork(true), { backgroundSync: () => requests++ });
    await e.start();
    await waitFor(() => e.status().loaded, 'loaded');
    server.fail('sendMessage', 'transient', 1);
    await e.commands.sendMessage({ conversationId: conv.id, text: 'Výpadok' });
    await waitFor(() => requests > 0, 'sync requested');
    await waitFor(async () => (await e.db.outbox.count()) === 0, 'sent after retry');
    expect(serverCopies('Výpadok')).toBe(1);
  });
});

describe('restore notice', () => {
  it('says what was re-queued and what was lost, in Slovak count forms', () => {
    expect(restoreNoticeText({ requeued: 0, lost: 0 })).toEqual({ title: 'Prehliadač vymazal miestne údaje. Obnovili sme ich zo servera.', description: null });
    expect(restoreNoticeText({ requeued: 1, lost: 0 }).description).toBe('1 neodoslanú správu sme znovu zaradili na odoslanie.');
    expect(restoreNoticeText({ requeued: 3, lost: 0 }).description).toBe('3 neodoslané správy sme znovu zaradili na odoslanie.');
    expect(restoreNoticeText({ requeued: 5, lost: 2 }).description).toBe(
      '5 neodoslaných správ sme znovu zaradili na odoslanie. 2 neodoslané zmeny sa nepodarilo obnoviť.',
    );
  });
});
