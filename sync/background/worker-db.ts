// The small IndexedDB database pages share with the service worker ('poradna-worker', one key-value
// store): the mirrored session (session-store.ts) and the chat list's paint snapshot
// (sw/list-snapshot.ts). Plain IndexedDB, not Dexie, so the worker bundle stays small.
const WORKER_DB = 'poradna-worker';
const STORE = 'kv';

function idb(): IDBFactory | null {
  return (globalThis as { indexedDB?: IDBFactory }).indexedDB ?? null;
}

function open(factory: IDBFactory): Promise<IDBDatabase> {
  return new Promise((resolve, reject) => {
    const req = factory.open(WORKER_DB, 1);
    req.onupgradeneeded = () => req.result.createObjectStore(STORE);
    req.onsuccess = () => resolve(req.result);
    req.onerror = () => reject(req.error ?? new Error('indexedDB open failed'));
  });
}

/**
 * One connection per context, kept while it lives: a navigation to the list reads the snapshot and the
 * session through it, and an open per read cost the service worker's answer most of its time (bench row
 * 1b). Given up (and opened again on the next use) when another connection asks for a version change or
 * deletion — it must never block those — or when the browser closes it (storage cleared or evicted).
 */
let kept: { factory: IDBFactory; db: Promise<IDBDatabase> } | null = null;

function connection(factory: IDBFactory): Promise<IDBDatabase> {
  if (kept?.factory === factory) return kept.db;
  const entry = { factory, db: open(factory) };
  kept = entry;
  const forget = () => {
    if (kept === entry) kept = null;
  };
  entry.db.then(
    (db) => {
      db.onversionchange = () => {
        forget();
        db.close();
      };
      db.onclose = forget;
    },
    forget,
  );
  return entry.db;
}

async function transaction(factory: IDBFactory, mode: IDBTransactionMode): Promise<IDBTransaction> {
  try {
    return (await connection(factory)).transaction(STORE, mode);
  } catch {
    // A kept connection the browser closed under us (InvalidStateError): once more on a new one.
    kept = null;
    return (await connection(factory)).transaction(STORE, mode);
  }
}

function completion(tx: IDBTransaction): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    tx.oncomplete = () => resolve();
    tx.onerror = () => reject(tx.error ?? new Error('indexedDB transaction failed'));
    tx.onabort = () => reject(tx.error ?? new Error('indexedDB transaction aborted'));
  });
}

/** Runs `op` in one transaction on the store; resolves with its last request's result once committed. */
export async function runKv<T>(mode: IDBTransactionMode, op: (s: IDBObjectStore) => IDBRequest): Promise<T | undefined> {
  const factory = idb();
  if (!factory) return undefined;
  const tx = await transaction(factory, mode);
  const req = op(tx.objectStore(STORE));
  await completion(tx);
  return req.result as T | undefined;
}

/** The values of `keys` read in one transaction (one round trip to the backend), in order. */
export async function readKvMany(keys: readonly string[]): Promise<unknown[]> {
  const factory = idb();
  if (!factory) return keys.map(() => undefined);
  const tx = await transaction(factory, 'readonly');
  const store = tx.objectStore(STORE);
  const reqs = keys.map((k) => store.get(k));
  await completion(tx);
  return reqs.map((r) => r.result as unknown);
}
