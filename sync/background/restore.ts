// Eviction: the browser may delete a site's IndexedDB under storage pressure while the user stays
// signed in (the session lives in localStorage). Two small localStorage records per user make that
// visible and recoverable:
// - a marker, written once the user's database exists: marker present but database missing at start
//   means it was evicted (sign-out removes both, so a signed-out browser never reports one);
// - a mirror of the outbox's unsent messages (conversation, client correlation id, text, payload),
//   rewritten whenever the outbox changes in a tab. After an eviction they are queued again with the
//   same correlation ids, so a message that did reach the server is deduplicated there, never doubled.
// Queued changes that cannot be rebuilt (a specialist request's first message, an oversized payload)
// are counted and reported instead of silently dropped; read cursors and archive flags are not
// counted: the pull brings the server's state and the user can redo them.
import type { SyncDb } from '../db/schema.ts';
import type { JsonObject } from '../model/json.ts';
import { draftsAheadKey } from '../commands/draft-ahead.ts';
import { writeOptimisticMessage } from '../send/optimistic-message.ts';
import { RESTORED_EVENT } from './tag.ts';

export interface KeyValueStore {
  getItem(key: string): string | null;
  setItem(key: string, value: string): void;
  removeItem(key: string): void;
}

export interface UnsentSend {
  conversationId: string;
  correlationId: string;
  text: string;
  payload: JsonObject | null;
}

export interface UnsentMirror {
  sends: UnsentSend[];
  /** Queued items the mirror cannot rebuild. */
  other: number;
}

export interface RestoreReport {
  requeued: number;
  lost: number;
}

/** A payload larger than this is not mirrored (localStorage is small and shared). */
const MAX_PAYLOAD_CHARS = 4000;

export const markerKey = (userId: string): string => `poradna.db-marker.${userId}`;
export const unsentKey = (userId: string): string => `poradna.unsent.${userId}`;

export function defaultMarkerStore(): KeyValueStore | null {
  try {
    return (globalThis as { localStorage?: KeyValueStore }).localStorage ?? null;
  } catch {
    return null; // storage access denied
  }
}

function safely(fn: () => void): void {
  try {
    fn();
  } catch {
    // quota or privacy mode: the mirror is a best effort, the outbox itself is the record
  }
}

export function markDatabase(store: KeyValueStore, userId: string): void {
  safely(() => store.setItem(markerKey(userId), '1'));
}

export function wasEvicted(store: KeyValueStore, userId: string, databaseExisted: boolean): boolean {
  return !databaseExisted && store.getItem(markerKey(userId)) !== null;
}

/** Sign-out: every localStorage record of the user goes with the database (R1.11; R16.4 the drafts' write-ahead copy). */
export function forgetDatabase(store: KeyValueStore, userId: string): void {
  safely(() => {
    store.removeItem(markerKey(userId));
    store.removeItem(unsentKey(userId));
    store.removeItem(draftsAheadKey(userId));
  });
}

export function readUnsent(store: KeyValueStore, userId: string): UnsentMirror {
  try {
    const v = JSON.parse(store.getItem(unsentKey(userId)) ?? 'null') as UnsentMirror | null;
    if (v && Array.isArray(v.sends) && typeof v.other === 'number') return v;
  } catch {
    // unreadable: nothing to restore
  }
  return { sends: [], other: 0 };
}

/** Rewrites the mirror from the outbox as it is now. */
export async function mirrorUnsent(db: SyncDb, store: KeyValueStore, userId: string): Promise<void> {
  const mirror: UnsentMirror = { sends: [], other: 0 };
  for (const e of await db.outbox.orderBy('seq').toArray()) {
    const op = e.op;
    if (op.kind === 'send') {
      if (op.payload !== null && JSON.stringify(op.payload).length > MAX_PAYLOAD_CHARS) mirror.other++;
      else mirror.sends.push({ conversationId: op.conversationId, correlationId: op.correlationId, text: op.text, payload: op.payload });
    } else if (op.kind === 'start' && op.thenSend) {
      mirror.other++;
    }
  }
  safely(() => {
    if (mirror.sends.length === 0 && mirror.other === 0) store.removeItem(unsentKey(userId));
    else store.setItem(unsentKey(userId), JSON.stringify(mirror));
  });
}

/** After an eviction: queues the mirrored messages again with their own correlation ids. */
export async function requeueUnsent(db: SyncDb, store: KeyValueStore, userId: string, now: number): Promise<RestoreReport> {
  const mirror = readUnsent(store, userId);
  await db.transaction('rw', db.syncTables, async () => {
    for (const s of mirror.sends) {
      await writeOptimisticMessage(db, { conversationId: s.conversationId, text: s.text, correlationId: s.correlationId, payload: s.payload, userId, now });
    }
  });
  return { requeued: mirror.sends.length, lost: mirror.other };
}

/** The page shows the notice; the engine only reports (a CustomEvent on the window by default). */
export { RESTORED_EVENT };

export function defaultRestoreReporter(): ((r: RestoreReport) => void) | null {
  const g = globalThis as { window?: { dispatchEvent(e: Event): boolean }; CustomEvent?: typeof CustomEvent };
  if (!g.window || !g.CustomEvent) return null;
  const target = g.window;
  const Ctor = g.CustomEvent;
  return (r) => target.dispatchEvent(new Ctor<RestoreReport>(RESTORED_EVENT, { detail: r }));
}
