// R17: the device's IndexedDB failing under the engine (issue 35), on fake-indexeddb wrapped by the
// kit's FaultyIdb: a store that cannot be opened, one that cannot be had at all, an upgrade blocked
// by another tab, and the connection lost mid-session. Nothing typed is lost, nothing is stored
// twice, and the status tells the user the truth in Slovak.
import { IDBFactory, IDBKeyRange } from 'fake-indexeddb';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { readUnsent, type KeyValueStore, type RestoreReport } from '../../../sync/background/restore.ts';
import { dbNameFor } from '../../../sync/db/schema.ts';
import { createSyncEngine, type SyncEngine } from '../../../sync/engine.ts';
import { TEXT_STORAGE_BLOCKED, TEXT_STORAGE_UNAVAILABLE } from '../../../sync/model/texts.ts';
import { manualNetwork, type ManualNetwork } from '../../../sync/session/network.ts';
import { FaultyIdb, loseConnection } from '../../../sync/testing/idb-faults.ts';
import { FakeServer } from './helpers/fake-server.ts';
import { FAST_TIMINGS, waitFor } from './helpers/wait.ts';

class MemoryStore implements KeyValueStore {
  readonly map = new Map<string, string>();
  getItem = (k: string) => this.map.get(k) ?? null;
  setItem = (k: string, v: string) => void this.map.set(k, v);
  removeItem = (k: string) => void this.map.delete(k);
}

const NAME = dbNameFor('user-1');
let server: FakeServer;
let faulty: FaultyIdb;
let store: MemoryStore;
const engines: SyncEngine[] = [];

function engine(net: ManualNetwork, onRestored: ((r: RestoreReport) => void) | null = null): SyncEngine {
  const e = createSyncEngine({
    userId: 'user-1',
    server: server.api(),
    idb: { indexedDB: faulty.indexedDB, IDBKeyRange },
    network: net,
    timings: FAST_TIMINGS,
    transports: { realtime: null },
    locks: null,
    channels: null,
    markers: store,
    onRestored,
    backgroundSync: null,
  });
  engines.push(e);
  return e;
}

const serverCopies = (text: string) => [...server.messages.values()].filter((m) => m.text === text).length;

beforeEach(() => {
  server = new FakeServer();
  faulty = new FaultyIdb(new IDBFactory());
  store = new MemoryStore();
});
afterEach(async () => {
  for (const e of engines.splice(0)) await e.stop({ abrupt: true });
});

describe('R17 the device storage failing', () => {
  it("R17.1 a store that cannot be opened ('Internal error opening backing store') is made anew: the server's data comes back, the unsent message is queued again and stored once, the rest reported", async () => {
    const conv = server.addConversation();
    const net = manualNetwork(true);
    const e1 = engine(net);
    await e1.start();
    await waitFor(() => e1.status().loaded, 'loaded');
    net.set(false);
    await e1.commands.sendMessage({ conversationId: conv.id, text: 'Pred poruchou úložiska' });
    await waitFor(() => readUnsent(store, 'user-1').sends.length === 1, 'mirror written');
    await e1.stop({ abrupt: true });
    faulty.corrupt(NAME);

    const reports: RestoreReport[] = [];
    const e2 = engine(net, (r) => reports.push(r));
    await e2.start(); // before: rejected with the open's UnknownError, and the app showed nothing
    expect(faulty.failedOpens).toBeGreaterThan(0);
    net.set(true);
    await waitFor(() => reports.length === 1, 'restore reported');
    expect(reports).toEqual([{ requeued: 1, lost: 0 }]);
    expect(await e2.db.conversations.get(conv.id)).toBeDefined();
    await waitFor(async () => (await e2.db.outbox.count()) === 0, 'outbox flushed');
    expect(serverCopies('Pred poruchou úložiska')).toBe(1);
    expect(e2.status().storage ?? null).toBeNull();
  });

  it('R17.2 a store that cannot be had at all (private mode, full disk): start ends, and the status says so in Slovak (no endless loader)', async () => {
    server.addConversation();
    faulty.refuseAll('InvalidStateError');
    const e = engine(manualNetwork(true));
    await expect(e.start()).rejects.toMatchObject({ name: 'StorageUnavailableError' });
    expect(e.status()).toMatchObject({ storage: 'unavailable', connection: 'error', error: TEXT_STORAGE_UNAVAILABLE });
  });

  it("R17.3 an upgrade held back by another tab's connection to the older version: the status says so until that tab lets go, then the engine starts", async () => {
    const conv = server.addConversation();
    // An old tab's connection at version 1, which does not close on 'versionchange'.
    const old = await new Promise<IDBDatabase>((resolve, reject) => {
      const req = faulty.indexedDB.open(NAME, 1);
      req.onupgradeneeded = () => req.result.createObjectStore('legacy');
      req.onsuccess = () => resolve(req.result);
      req.onerror = () => reject(new Error(String(req.error)));
    });
    const e = engine(manualNetwork(true));
    const started = e.start();
    await waitFor(() => e.status().storage === 'blocked', 'blocked told');
    expect(e.status()).toMatchObject({ connection: 'error', error: TEXT_STORAGE_BLOCKED });
    old.close();
    await started;
    await waitFor(() => e.status().loaded, 'loaded');
    expect(await e.db.conversations.get(conv.id)).toBeDefined();
    expect(e.status().storage ?? null).toBeNull();
    expect(e.status().error).toBeNull();
  });

  it('R17.4 the connection lost while a send is written: it is written again under its id, sent once; the engine goes on syncing', async () => {
    const conv = server.addConversation();
    const net = manualNetwork(true);
    const e = engine(net);
    await e.start();
    await waitFor(() => e.status().loaded, 'loaded');
    net.set(false);
    // The connection goes while the send's transaction is writing (WebKit's lost IndexedDB server).
    let cuts = 0;
    const cut = () => {
      if (cuts++ === 0) loseConnection(e.db.backendDB());
    };
    e.db.messages.hook('creating', cut);
    const h = await e.commands.sendMessage({ conversationId: conv.id, text: 'Počas straty spojenia' });
    e.db.messages.hook('creating').unsubscribe(cut);
    expect(cuts).toBeGreaterThan(0);
    expect(h).not.toBeNull();
    const local = await e.db.messages.filter((m) => m.text === 'Počas straty spojenia').toArray();
    expect(local.map((m) => m.key)).toEqual([h!.key]);

    net.set(true);
    await waitFor(async () => (await e.db.outbox.count()) === 0, 'outbox flushed');
    expect(serverCopies('Počas straty spojenia')).toBe(1);
    // A hidden tab whose connection was lost comes back: the next pull reopens it (Dexie's onclose
    // keeps autoOpen) and the specialist's reply of the hidden time arrives.
    loseConnection(e.db.backendDB());
    server.addMessage(conv.id, { text: 'Odpoveď po strate spojenia' });
    net.signal('visible');
    await waitFor(async () => (await e.db.messages.filter((m) => m.text === 'Odpoveď po strate spojenia').count()) === 1, 'reply arrived');
  });
});
