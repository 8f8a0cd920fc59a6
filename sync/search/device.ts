// R15.4: the search index of one user on this device, headless (the app runs it in a worker,
// src/search/worker.ts; tests run it on fake-indexeddb). Opening loads the persisted snapshot (no
// rebuild), then `catchUp` brings it to the messages table: it adds the messages the index does not
// hold and removes the keys the table no longer has (a deleted conversation, another account:
// R5.5), reading only the table's keys plus the rows it adds — never a rebuild. The caller runs
// `catchUp` when the messages table changed (Dexie's storagemutated) with the keys that changed
// (changes.ts): then only those rows are read, so a new message costs O(1), not a read of every key;
// a change that is not a list of keys (a pull's bulk write, a clear) runs the full pass. `persist`
// once it is idle.
import type { SyncDb } from '../db/schema.ts';
import type { LocalMessage } from '../model/local-types.ts';
import { MessageIndex } from './index.ts';
import { loadSnapshot, saveSnapshot, type SearchDb } from './store.ts';
import { snippetOf, type Snippet } from './snippet.ts';
import { terms } from './normalise.ts';
import { ALL_CHANGED, mergeChanges, type MessageChanges } from './changes.ts';

/** Rows read per step of a catch-up: a big account's first build yields between steps. */
const BATCH = 500;
/**
 * A full pass (after a bulk write) also re-reads the held messages created in this window: an answer
 * still streaming or an edit arrives within it, and a pull's bulk write names no keys. Older texts
 * change only through a keyed write (a live edit), which re-indexes them anyway.
 */
const RECENT_MS = 24 * 60 * 60 * 1000;

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
  /**
   * Brings the index to the messages table for `changes` (default: every key, the full pass);
   * answers how many it added and removed.
   */
  catchUp(changes?: MessageChanges): Promise<{ added: number; removed: number }>;
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
  // One catch-up at a time; the changes noted during one are caught up after it.
  let queue: Promise<unknown> = Promise.resolve();
  let pending: MessageChanges | null = null;

  /** R15.4: only the rows of the changed keys: a new message is added, a deleted one removed. */
  async function keyedPass(keys: string[]): Promise<{ added: number; removed: number }> {
    let added = 0;
    let removed = 0;
    for (let i = 0; i < keys.length; i += BATCH) {
      const batch = keys.slice(i, i + BATCH);
      const rows = await messages.messages.bulkGet(batch);
      batch.forEach((key, j) => {
        const m = rows[j];
        if (!m) {
          if (index.has(key)) {
            index.remove(key);
            removed++;
          }
        } else if (indexable(m)) {
          // New, or held with another text (an answer streaming in, an edit): added or re-indexed.
          const isNew = !index.has(key);
          if (index.add({ key: m.key, text: m.text, createdAt: m.createdAt })) {
            if (isNew) added++;
            dirty = true;
          }
        } else if (index.has(key)) {
          index.remove(key); // its text is gone
          removed++;
        }
      });
    }
    if (added || removed) dirty = true;
    return { added, removed };
  }

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
    // Recent held messages whose text may have grown or been edited by the bulk write.
    const recent = index.keysSince(Date.now() - RECENT_MS);
    for (let i = 0; i < recent.length; i += BATCH) {
      const rows = await messages.messages.bulkGet(recent.slice(i, i + BATCH));
      for (const m of rows) if (m && indexable(m) && index.add({ key: m.key, text: m.text, createdAt: m.createdAt })) dirty = true;
    }
    if (added || removed) dirty = true;
    return { added, removed };
  }

  // Each call queues one drain of the changes noted so far behind the drain before it, so a change
  // noted while a drain finishes is never left behind; a drain that finds nothing left answers 0s.
  function catchUp(changes: MessageChanges = ALL_CHANGED): Promise<{ added: number; removed: number }> {
    pending = mergeChanges(pending, changes);
    const run = queue.then(async () => {
      const total = { added: 0, removed: 0 };
      while (pending) {
        const now = pending;
        pending = null;
        let r: { added: number; removed: number };
        try {
          r = 'all' in now ? await pass() : await keyedPass(now.keys);
        } catch (err) {
          pending = mergeChanges(pending, now); // the next catch-up tries these again
          throw err;
        }
        total.added += r.added;
        total.removed += r.removed;
      }
      return total;
    });
    queue = run.catch(() => undefined);
    return run;
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
