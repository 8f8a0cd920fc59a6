// R15.4: the search index of one user on this device, headless (the app runs it in a worker,
// src/search/worker.ts; tests run it on fake-indexeddb). Opening loads the persisted snapshot (no
// rebuild), then `catchUp` brings it to the messages table: it adds the messages the index does not
// hold and removes the keys the table no longer has (a deleted conversation, another account:
// R5.5), reading only the table's keys plus the rows it adds — never a rebuild. The caller runs
// `catchUp` when the messages table changed (Dexie's storagemutated) and `persist` once it is idle.
import type { SyncDb } from '../db/schema.ts';
import type { LocalMessage } from '../model/local-types.ts';
import { MessageIndex } from './index.ts';
import { loadSnapshot, saveSnapshot, type SearchDb } from './store.ts';
import { snippetOf, type Snippet } from './snippet.ts';
import { terms } from './normalise.ts';

/** Rows read per step of a catch-up: a big account's first build yields between steps. */
const BATCH = 500;

export interface MessageHit {
  key: string;
  conversationId: string;
  createdAt: string;
  direction: string;
  snippet: Snippet;
}

export interface SearchAnswer {
  hits: MessageHit[];
  total: number;
}

export interface DeviceSearch {
  readonly index: MessageIndex;
  /** Brings the index to the messages table; answers how many it added and removed. */
  catchUp(): Promise<{ added: number; removed: number }>;
  search(query: string, limit?: number): Promise<SearchAnswer>;
  /** Writes the snapshot if anything changed since the last one. */
  persist(): Promise<boolean>;
  close(): void;
}

/** What the index holds of a message: its text, if it has any to find. */
function indexable(m: LocalMessage): boolean {
  return typeof m.text === 'string' && terms(m.text).length > 0;
}

export async function openDeviceSearch(messages: SyncDb, store: SearchDb): Promise<DeviceSearch> {
  const index = (await loadSnapshot(store)) ?? new MessageIndex();
  let dirty = false;
  // One catch-up at a time; a change during one runs another after it.
  let running: Promise<{ added: number; removed: number }> | null = null;
  let again = false;

  async function pass(): Promise<{ added: number; removed: number }> {
    const tableKeys: string[] = await messages.messages.toCollection().primaryKeys();
    const present = new Set(tableKeys);
    let removed = 0;
    for (const key of [...index.heldKeys()]) {
      if (!present.has(key)) {
        index.remove(key);
        removed++;
      }
    }
    // Messages without text are not held, so they are looked at again; cheap (no text to fold).
    const missing = tableKeys.filter((k) => !index.has(k));
    let added = 0;
    for (let i = 0; i < missing.length; i += BATCH) {
      const rows = await messages.messages.bulkGet(missing.slice(i, i + BATCH));
      for (const m of rows) {
        if (!m || !indexable(m)) continue;
        index.add({ key: m.key, text: m.text, createdAt: m.createdAt });
        added++;
      }
    }
    if (added || removed) dirty = true;
    return { added, removed };
  }

  async function catchUp(): Promise<{ added: number; removed: number }> {
    if (running) {
      again = true;
      return running;
    }
    running = (async () => {
      const total = { added: 0, removed: 0 };
      do {
        again = false;
        const r = await pass();
        total.added += r.added;
        total.removed += r.removed;
      } while (again);
      return total;
    })();
    try {
      return await running;
    } finally {
      running = null;
    }
  }

  return {
    index,
    catchUp,
    async search(query, limit = 50) {
      const { keys, total } = index.search(query, limit);
      const rows = await messages.messages.bulkGet(keys);
      const hits: MessageHit[] = [];
      for (const m of rows) {
        // A key the table lost since the last catch-up is no hit (never another account's text).
        if (!m) continue;
        hits.push({ key: m.key, conversationId: m.conversationId, createdAt: m.createdAt, direction: m.direction, snippet: snippetOf(m.text, query) });
      }
      return { hits, total: total - (keys.length - hits.length) };
    },
    async persist() {
      if (!dirty) return false;
      dirty = false;
      await saveSnapshot(store, index);
      return true;
    },
    close() {
      store.close();
    },
  };
}
