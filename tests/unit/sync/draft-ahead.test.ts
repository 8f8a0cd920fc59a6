// R16.4: the drafts' synchronous write-ahead copy (sync/commands/draft-ahead.ts) on fake-indexeddb and
// a Storage double: written before saveDraft awaits anything, removed once its row committed, the
// newer of copy and row wins when a chat opens (then folded into IndexedDB and removed), one record
// per user, removed at sign-out, and a store that refuses writes does not stop a draft being saved.
import { IDBFactory, IDBKeyRange } from 'fake-indexeddb';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { KeyValueStore } from '../../../sync/background/restore.ts';
import { draftsAheadKey, foldDraftsAhead, loadDraft, readDraftsAhead, writeDraftAhead } from '../../../sync/commands/draft-ahead.ts';
import { saveDraft } from '../../../sync/commands/draft.ts';
import { openUserDb } from '../../../sync/db/open.ts';
import type { SyncDb } from '../../../sync/db/schema.ts';
import { createSyncEngine, type SyncEngine } from '../../../sync/engine.ts';
import { draftText } from '../../../sync/queries.ts';
import { manualNetwork } from '../../../sync/session/network.ts';
import { commandContext } from './helpers/local-db.ts';
import { FakeServer } from './helpers/fake-server.ts';
import { FAST_TIMINGS, waitFor } from './helpers/wait.ts';

class MemoryStore implements KeyValueStore {
  readonly map = new Map<string, string>();
  /** Simulates a full localStorage: every setItem throws QuotaExceededError. */
  full = false;
  getItem = (k: string) => this.map.get(k) ?? null;
  setItem = (k: string, v: string) => {
    if (this.full) throw new DOMException('The quota has been exceeded.', 'QuotaExceededError');
    this.map.set(k, v);
  };
  removeItem = (k: string) => void this.map.delete(k);
}

const T0 = Date.parse('2026-11-29T07:00:00Z');
let server: FakeServer;
let idb: { indexedDB: IDBFactory; IDBKeyRange: typeof IDBKeyRange };
let store: MemoryStore;
const engines: SyncEngine[] = [];
const dbs: SyncDb[] = [];

function engine(userId = 'user-1'): SyncEngine {
  const e = createSyncEngine({
    userId,
    server: server.api(),
    idb,
    network: manualNetwork(true),
    timings: FAST_TIMINGS,
    transports: { realtime: null },
    locks: null,
    channels: null,
    markers: store,
    onRestored: null,
    backgroundSync: null,
  });
  engines.push(e);
  return e;
}

async function db(userId = 'user-1'): Promise<SyncDb> {
  const d = await openUserDb(userId, idb);
  dbs.push(d);
  return d;
}

beforeEach(() => {
  server = new FakeServer();
  idb = { indexedDB: new IDBFactory(), IDBKeyRange };
  store = new MemoryStore();
});
afterEach(async () => {
  for (const e of engines.splice(0)) await e.stop({ abrupt: true });
  for (const d of dbs.splice(0)) d.close();
});

describe('R16.4 the merge of the write-ahead copy and the stored draft', () => {
  it('R16.4 a copy newer than the row wins, is folded into IndexedDB and removed', async () => {
    const d = await db();
    await saveDraft(commandContext(d), 'c1', 'Ahoj', T0);
    // The next keystroke: its copy written, its IndexedDB save aborted by the unload.
    writeDraftAhead(store, 'user-1', 'c1', 'Ahoj!', T0 + 40);
    expect(await loadDraft(d, store, 'user-1', 'c1')).toBe('Ahoj!');
    expect(await d.drafts.get('c1')).toMatchObject({ text: 'Ahoj!', updatedAt: T0 + 40 });
    expect(readDraftsAhead(store, 'user-1')).toEqual({});
    expect(store.getItem(draftsAheadKey('user-1'))).toBeNull();
  });

  it('R16.4 a row newer than the copy wins; the stale copy is removed and the row kept', async () => {
    const d = await db();
    writeDraftAhead(store, 'user-1', 'c1', 'staré', T0);
    await saveDraft(commandContext(d), 'c1', 'nové z inej karty', T0 + 10);
    expect(await loadDraft(d, store, 'user-1', 'c1')).toBe('nové z inej karty');
    expect(await draftText(d, 'c1')).toBe('nové z inej karty');
    expect(readDraftsAhead(store, 'user-1')).toEqual({});
  });

  it('R16.4 a tie goes to the copy; an emptied composer (copy \'\') beats an older row and removes it', async () => {
    const d = await db();
    await saveDraft(commandContext(d), 'c1', 'a', T0);
    writeDraftAhead(store, 'user-1', 'c1', 'ab', T0);
    expect(await loadDraft(d, store, 'user-1', 'c1')).toBe('ab');
    writeDraftAhead(store, 'user-1', 'c1', '', T0 + 5);
    expect(await loadDraft(d, store, 'user-1', 'c1')).toBe('');
    expect(await d.drafts.get('c1')).toBeUndefined();
  });

  it('R16.4 a copy with no row (the first keystroke lost) is the draft; without either the draft is empty', async () => {
    const d = await db();
    writeDraftAhead(store, 'user-1', 'c1', 'P', T0);
    expect(await loadDraft(d, store, 'user-1', 'c1')).toBe('P');
    expect(await draftText(d, 'c1')).toBe('P');
    expect(await loadDraft(d, store, 'user-1', 'c2')).toBe('');
  });

  it('R16.4 a fold that cannot write leaves the copy for the next time and still shows the newer text', async () => {
    const d = await db();
    writeDraftAhead(store, 'user-1', 'c1', 'neuložené', T0);
    const put = d.drafts.put.bind(d.drafts);
    d.drafts.put = () => {
      throw new Error('disk full');
    };
    expect(await loadDraft(d, store, 'user-1', 'c1')).toBe('neuložené');
    d.drafts.put = put;
    expect(readDraftsAhead(store, 'user-1').c1?.text).toBe('neuložené');
    await foldDraftsAhead(d, store, 'user-1');
    expect(await draftText(d, 'c1')).toBe('neuložené');
    expect(readDraftsAhead(store, 'user-1')).toEqual({});
  });

  it('R16.4 each user has a record of their own: one never reads another\'s copy', async () => {
    const one = await db('user-1');
    const two = await db('user-2');
    writeDraftAhead(store, 'user-1', 'c1', 'prvý', T0);
    expect(await loadDraft(two, store, 'user-2', 'c1')).toBe('');
    expect(await draftText(two, 'c1')).toBe('');
    expect(await loadDraft(one, store, 'user-1', 'c1')).toBe('prvý');
  });

  it('R16.4 an unreadable record reads as none', async () => {
    const d = await db();
    store.setItem(draftsAheadKey('user-1'), '{"c1": {"text": 5}');
    expect(await loadDraft(d, store, 'user-1', 'c1')).toBe('');
  });
});

describe('R16.4 the engine keeps the copy', () => {
  it('R16.4 saveDraft writes the copy before it awaits anything and removes it once the row committed', async () => {
    const conv = server.addConversation();
    const e = engine();
    await e.start();
    const saving = e.commands.saveDraft(conv.id, 'Rozpísané');
    // Synchronously: a tab killed now has it.
    expect(readDraftsAhead(store, 'user-1')[conv.id]?.text).toBe('Rozpísané');
    await saving;
    expect(await draftText(e.db, conv.id)).toBe('Rozpísané');
    expect(store.getItem(draftsAheadKey('user-1'))).toBeNull();
  });

  it('R16.4 a later keystroke\'s copy outlives the earlier save\'s commit', async () => {
    const conv = server.addConversation();
    const e = engine();
    await e.start();
    const first = e.commands.saveDraft(conv.id, 'A');
    const second = e.commands.saveDraft(conv.id, 'AB');
    await first;
    // The first save committed, but the copy is the second keystroke's: it stays until that one commits.
    expect(readDraftsAhead(store, 'user-1')[conv.id]?.text).toBe('AB');
    await second;
    expect(readDraftsAhead(store, 'user-1')).toEqual({});
  });

  it('R16.4 a copy a killed tab left is folded in at the next start (the list shows it), then removed', async () => {
    const conv = server.addConversation();
    const e1 = engine();
    await e1.start();
    await e1.commands.saveDraft(conv.id, 'Dobrý');
    await e1.stop({ abrupt: true });
    // The killed tab's last keystroke: copy written, IndexedDB save never committed.
    writeDraftAhead(store, 'user-1', conv.id, 'Dobrý deň', Date.now() + 1);
    writeDraftAhead(store, 'user-1', 'other-conv', 'iný', Date.now() + 1);
    const e2 = engine();
    await e2.start();
    expect(await draftText(e2.db, conv.id)).toBe('Dobrý deň');
    expect(await draftText(e2.db, 'other-conv')).toBe('iný');
    expect(store.getItem(draftsAheadKey('user-1'))).toBeNull();
    expect(await e2.commands.loadDraft(conv.id)).toBe('Dobrý deň');
  });

  it('R16.4 a full localStorage does not stop typing: the draft is saved to IndexedDB alone', async () => {
    const conv = server.addConversation();
    const e = engine();
    await e.start();
    store.full = true;
    await e.commands.saveDraft(conv.id, 'Bez kópie');
    expect(await e.commands.loadDraft(conv.id)).toBe('Bez kópie');
    expect(store.getItem(draftsAheadKey('user-1'))).toBeNull();
  });

  it('R16.4 with R16.2 a stored send removes the copy of the text sent; a copy typed on since stays', async () => {
    const conv = server.addConversation();
    const e = engine();
    await e.start();
    await waitFor(() => e.status().loaded, 'loaded');
    // As after a kill: the copy holds the text, the row does not (the save was aborted).
    writeDraftAhead(store, 'user-1', conv.id, ' Pošli rozpočet ', Date.now());
    await e.commands.sendMessage({ conversationId: conv.id, text: 'Pošli rozpočet' });
    expect(readDraftsAhead(store, 'user-1')).toEqual({});
    expect(await e.commands.loadDraft(conv.id)).toBe('');
    writeDraftAhead(store, 'user-1', conv.id, 'Pošli rozpočet aj termín', Date.now());
    await e.commands.sendMessage({ conversationId: conv.id, text: 'Pošli rozpočet' });
    expect(await e.commands.loadDraft(conv.id)).toBe('Pošli rozpočet aj termín');
  });

  it('R16.4 sign-out removes the user\'s copy with the database (R1.11); another user\'s stays', async () => {
    const conv = server.addConversation();
    const e = engine();
    await e.start();
    writeDraftAhead(store, 'user-1', conv.id, 'neodoslané', Date.now());
    writeDraftAhead(store, 'user-2', conv.id, 'druhého', Date.now());
    await e.signOut();
    expect(store.getItem(draftsAheadKey('user-1'))).toBeNull();
    expect(readDraftsAhead(store, 'user-2')[conv.id]?.text).toBe('druhého');
    // A keystroke reaching the signed-out engine writes no copy back.
    await e.commands.saveDraft(conv.id, 'po odhlásení').catch(() => undefined);
    expect(store.getItem(draftsAheadKey('user-1'))).toBeNull();
  });
});
