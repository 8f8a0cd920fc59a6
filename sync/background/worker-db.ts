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

/** Runs `op` in one transaction on the store; resolves with its last request's result once committed. */
export async function runKv<T>(mode: IDBTransactionMode, op: (s: IDBObjectStore) => IDBRequest): Promise<T | undefined> {
  const factory = idb();
  if (!factory) return undefined;
  const db = await open(factory);
  try {
    return await new Promise<T | undefined>((resolve, reject) => {
      const tx = db.transaction(STORE, mode);
      const req = op(tx.objectStore(STORE));
      tx.oncomplete = () => resolve(req.result as T | undefined);
      tx.onerror = () => reject(tx.error ?? new Error('indexedDB transaction failed'));
      tx.onabort = () => reject(tx.error ?? new Error('indexedDB transaction aborted'));
    });
  } finally {
    db.close();
  }
}
