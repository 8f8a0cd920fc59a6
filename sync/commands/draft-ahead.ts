// R16.4: the drafts' write-ahead copy. A draft's IndexedDB save (R16.1) is asynchronous, and a tab
// killed or reloaded within a few ms of a keystroke aborts the transaction still saving it; so each
// change is first written synchronously to a small key-value store (localStorage, injected as the
// engine's `markers`), one record per user: { [conversationId]: { text, at } }.
// Invariants:
// - an entry lives from the keystroke until the IndexedDB save of that same text has committed (then
//   it is removed, unless a later keystroke replaced it); one left behind by a killed tab is folded
//   into IndexedDB at the next engine start or opening of that chat, and removed then. So the record
//   holds at most the conversations typed in since their last commit: small and bounded.
// - of an entry and the stored row the newer by `at`/`updatedAt` wins; a tie goes to the entry (every
//   save writes its entry first, with the same timestamp). '' is kept as an entry: a cleared composer
//   must beat an older stored draft.
// - the store refusing (quota, storage denied) never breaks typing: the write is skipped and the draft
//   has its IndexedDB save alone, as before.
// - the record is the user's data: sign-out removes it with the database (background/restore.ts
//   forgetDatabase, R1.11).
import type { KeyValueStore } from '../background/restore.ts';
import type { SyncDb } from '../db/schema.ts';

export interface DraftAhead {
  text: string;
  /** When typed (the engine's clock); the IndexedDB row of the same save gets the same `updatedAt`. */
  at: number;
}

type AheadRecord = Record<string, DraftAhead>;

export const draftsAheadKey = (userId: string): string => `poradna.drafts-ahead.${userId}`;

function isEntry(v: unknown): v is DraftAhead {
  const e = v as DraftAhead | null;
  return typeof e === 'object' && e !== null && typeof e.text === 'string' && typeof e.at === 'number';
}

/** Every entry of the user; an unreadable record (or store) reads as none. */
export function readDraftsAhead(store: KeyValueStore, userId: string): AheadRecord {
  try {
    const raw: unknown = JSON.parse(store.getItem(draftsAheadKey(userId)) ?? 'null');
    if (typeof raw !== 'object' || raw === null) return {};
    const out: AheadRecord = {};
    for (const [id, e] of Object.entries(raw)) if (isEntry(e)) out[id] = { text: e.text, at: e.at };
    return out;
  } catch {
    return {};
  }
}

function writeRecord(store: KeyValueStore, userId: string, record: AheadRecord): boolean {
  try {
    if (Object.keys(record).length === 0) store.removeItem(draftsAheadKey(userId));
    else store.setItem(draftsAheadKey(userId), JSON.stringify(record));
    return true;
  } catch {
    return false; // quota or storage denied: the IndexedDB save is then the only copy
  }
}

/**
 * Synchronously records that the composer of `conversationId` shows `text` since `at`. Returns the
 * entry written, or null when the store refused it (typing goes on; the IndexedDB save alone keeps it).
 */
export function writeDraftAhead(store: KeyValueStore, userId: string, conversationId: string, text: string, at: number): DraftAhead | null {
  const record = readDraftsAhead(store, userId);
  const entry = { text, at };
  record[conversationId] = entry;
  return writeRecord(store, userId, record) ? entry : null;
}

/** Removes the conversation's entry if it still is `entry` (a later keystroke's entry stays); without `entry`, whatever is there. */
export function clearDraftAhead(store: KeyValueStore, userId: string, conversationId: string, entry?: DraftAhead): void {
  const record = readDraftsAhead(store, userId);
  const now = record[conversationId];
  if (!now || (entry && (now.at !== entry.at || now.text !== entry.text))) return;
  delete record[conversationId];
  writeRecord(store, userId, record);
}

/** R16.2 with R16.4: the send made from the draft ends its entry too; text typed on since stays. */
export function clearSentDraftAhead(store: KeyValueStore, userId: string, conversationId: string, sent: string): void {
  const now = readDraftsAhead(store, userId)[conversationId];
  if (now && now.text.trim() === sent.trim()) clearDraftAhead(store, userId, conversationId, now);
}

/**
 * Puts one entry into the drafts table when it is newer than the row there (or the row is missing),
 * then removes the entry. Returns the text that won. A failed write leaves the entry for next time.
 */
async function foldOne(db: SyncDb, store: KeyValueStore, userId: string, conversationId: string, entry: DraftAhead): Promise<string> {
  const won = await db.transaction('rw', db.drafts, async () => {
    const row = await db.drafts.get(conversationId);
    if (row && row.updatedAt > entry.at) return row.text;
    if (entry.text === '') await db.drafts.delete(conversationId);
    else await db.drafts.put({ conversationId, text: entry.text, updatedAt: entry.at });
    return entry.text;
  });
  clearDraftAhead(store, userId, conversationId, entry);
  return won;
}

/**
 * R16.4: the composer's text when a chat opens: the newer of the stored draft and the write-ahead
 * entry, the entry folded into IndexedDB and cleared. Should the fold fail, the newer text is still
 * what the composer shows (and the entry stays for the next try).
 */
export async function loadDraft(db: SyncDb, store: KeyValueStore | null, userId: string, conversationId: string): Promise<string> {
  const entry = store ? readDraftsAhead(store, userId)[conversationId] : undefined;
  if (!store || !entry) return (await db.drafts.get(conversationId))?.text ?? '';
  try {
    return await foldOne(db, store, userId, conversationId, entry);
  } catch {
    const row = await db.drafts.get(conversationId).catch(() => undefined);
    return row && row.updatedAt > entry.at ? row.text : entry.text;
  }
}

/** R16.4 at the engine's start: every entry a killed tab left is folded into IndexedDB (the list's 'Koncept:' reads it there). */
export async function foldDraftsAhead(db: SyncDb, store: KeyValueStore, userId: string): Promise<void> {
  for (const [conversationId, entry] of Object.entries(readDraftsAhead(store, userId))) await foldOne(db, store, userId, conversationId, entry);
}
