// The signed-in session as the service worker can see it. The page keeps supabase-js' own session in
// localStorage (which a worker cannot read) and mirrors the part a background flush needs into this
// small IndexedDB store on every auth change; sign-out deletes it. Invariant: the worker only ever
// READS this record and never refreshes the token, so one refresh token is only ever used by pages
// (auth-js serialises those under its own lock) and refresh-token reuse detection cannot trip.
export const SESSION_DB = 'poradna-worker';
const STORE = 'kv';
const KEY = 'session';

export interface MirroredSession {
  url: string;
  anonKey: string;
  userId: string;
  accessToken: string;
  /** Unix seconds, as supabase-js reports it. */
  expiresAt: number;
}

function idb(): IDBFactory | null {
  return (globalThis as { indexedDB?: IDBFactory }).indexedDB ?? null;
}

function open(factory: IDBFactory): Promise<IDBDatabase> {
  return new Promise((resolve, reject) => {
    const req = factory.open(SESSION_DB, 1);
    req.onupgradeneeded = () => req.result.createObjectStore(STORE);
    req.onsuccess = () => resolve(req.result);
    req.onerror = () => reject(req.error ?? new Error('indexedDB open failed'));
  });
}

async function run<T>(mode: IDBTransactionMode, op: (s: IDBObjectStore) => IDBRequest): Promise<T | undefined> {
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

export async function writeMirroredSession(s: MirroredSession | null): Promise<void> {
  await run('readwrite', (store) => (s ? store.put(s, KEY) : store.delete(KEY)));
}

export async function readMirroredSession(): Promise<MirroredSession | null> {
  const v = await run<MirroredSession>('readonly', (store) => store.get(KEY));
  return v && typeof v.accessToken === 'string' && typeof v.userId === 'string' ? v : null;
}

/** A token the server will still accept for a while (the worker never refreshes one). */
export function usableToken(s: MirroredSession, nowMs: number, marginMs = 30_000): boolean {
  return s.expiresAt * 1000 - nowMs > marginMs;
}
