// R15.4: the search index runs here, off the main thread. It opens the user's sync database
// read-mostly and its own search database (sync/search/store.ts), loads the persisted index, catches
// up with the messages table, and catches up again — reading the changed keys only (changes.ts) —
// once writes anywhere in this origin that touched the messages table pause (Dexie's storagemutated
// event, which Dexie relays between tabs and workers over a BroadcastChannel). The snapshot is written once the index has been quiet for PERSIST_AFTER_MS.
// When either database is to be deleted (sign-out, R15.5) it closes both and stops for good, so it
// never re-creates a database the user's sign-out removed.
import { Dexie } from 'dexie';
import { dbNameFor, SyncDb } from '../../sync/db/schema.ts';
import { openDeviceSearch, type DeviceSearch } from '../../sync/search/device.ts';
import { SearchDb } from '../../sync/search/store.ts';
import { ALL_CHANGED, mergeChanges, messageChanges, type MessageChanges } from '../../sync/search/changes.ts';
import { BACKLOG_RECHECK_MS, BacklogHold, backlogArriving } from '../../sync/search/backlog-hold.ts';
import type { FromWorker, ToWorker } from './protocol.ts';

const CATCH_UP_AFTER_MS = 300;
const CATCH_UP_AT_MOST_MS = 3000;
const PERSIST_AFTER_MS = 3000;

const scope = self as unknown as { postMessage(m: FromWorker): void; onmessage: ((e: MessageEvent<ToWorker>) => void) | null };
let search: Promise<DeviceSearch> | null = null;
let closed = false;
let catchUpTimer: ReturnType<typeof setTimeout> | null = null;
let persistTimer: ReturnType<typeof setTimeout> | null = null;

function post(m: FromWorker): void {
  scope.postMessage(m);
}

function shutDown(dbs: Dexie[]): void {
  if (closed) return;
  closed = true;
  for (const t of [catchUpTimer, persistTimer]) if (t) clearTimeout(t);
  for (const d of dbs) d.close();
  post({ type: 'closed' });
}

function schedulePersist(s: DeviceSearch): void {
  if (persistTimer) clearTimeout(persistTimer);
  persistTimer = setTimeout(() => {
    if (!closed) s.persist().catch((err: unknown) => console.warn('search persist:', err));
  }, PERSIST_AFTER_MS);
}

/**
 * A catch-up waits for the writes to pause (CATCH_UP_AFTER_MS with none), so a first pull's many
 * write transactions are not each followed by a read of the table's keys competing with the next
 * write; a steady stream still gets one at least every CATCH_UP_AT_MOST_MS.
 */
let firstPending: number | null = null;
/** The changes of the writes since the last catch-up began (R15.4: only these keys are read). */
let changed: MessageChanges | null = null;
/** R19.2: whether a full catch-up waits for the backlog the feed is bringing. */
const backlogHold = new BacklogHold();
function scheduleCatchUp(s: DeviceSearch, db: SyncDb, changes: MessageChanges): void {
  if (closed) return;
  changed = mergeChanges(changed, changes);
  firstPending ??= performance.now();
  armCatchUp(s, db, Math.max(0, Math.min(CATCH_UP_AFTER_MS, firstPending + CATCH_UP_AT_MOST_MS - performance.now())));
}

function armCatchUp(s: DeviceSearch, db: SyncDb, wait: number): void {
  if (catchUpTimer) clearTimeout(catchUpTimer);
  catchUpTimer = setTimeout(() => {
    catchUpTimer = null;
    if (closed || changed === null) return;
    // R19.2: a full pass waits while the feed still brings a backlog (its reads would hold the pull's pages back).
    void backlogArriving(db)
      .catch(() => null)
      .then((backlog) => {
        if (closed || changed === null || catchUpTimer) return; // a newer write re-armed the timer
        if (backlogHold.hold(changed, backlog, performance.now())) {
          armCatchUp(s, db, BACKLOG_RECHECK_MS);
          return;
        }
        firstPending = null;
        const now = changed;
        changed = null;
        s.catchUp(now).then(
          (r) => {
            if (!r.added && !r.removed) return;
            post({ type: 'changed' });
            schedulePersist(s);
          },
          (err: unknown) => console.warn('search catch-up:', err),
        );
      });
  }, wait);
}

async function open(userId: string): Promise<DeviceSearch> {
  const t0 = performance.now();
  const messages = new SyncDb(dbNameFor(userId));
  const store = new SearchDb(userId);
  const dbs = [messages, store];
  for (const d of dbs) d.on('versionchange', () => (shutDown(dbs), false));
  const s = await openDeviceSearch(messages, store);
  Dexie.on('storagemutated', (parts: Record<string, unknown>) => {
    const c = messageChanges(parts, dbNameFor(userId));
    if (c) scheduleCatchUp(s, messages, c);
  });
  // R19.2: an initial sync under way: the first full pass waits for its backlog too.
  if (await backlogArriving(messages).catch(() => null)) scheduleCatchUp(s, messages, ALL_CHANGED);
  else {
    const r = await s.catchUp();
    if (r.added || r.removed) schedulePersist(s);
  }
  post({ type: 'ready', indexed: s.index.size, loadedMs: performance.now() - t0 });
  return s;
}

scope.onmessage = (e) => {
  const m = e.data;
  if (m.type === 'open') {
    search ??= open(m.userId);
    search.catch((err: unknown) => post({ type: 'failed', id: null, message: String(err) }));
    return;
  }
  if (!search || closed) {
    post({ type: 'failed', id: m.id, message: 'closed' });
    return;
  }
  search
    .then((s) => s.search(m.query, m.limit))
    .then(
      (answer) => post({ type: 'answer', id: m.id, answer }),
      (err: unknown) => post({ type: 'failed', id: m.id, message: String(err) }),
    );
};
