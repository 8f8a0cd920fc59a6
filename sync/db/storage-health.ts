// R17: the device's storage failing under the engine (issue 35). Three kinds, each told apart here:
// - the store cannot be opened (Chromium's 'Internal error opening backing store', UnknownError;
//   Firefox's private mode, InvalidStateError; a full disk, QuotaExceededError): it is deleted and
//   opened once more (R17.1: the server's data comes back with the pull, unsent messages from the
//   localStorage mirror, background/restore.ts); if even that fails, the engine says so (R17.2);
// - an upgrade blocked by another tab's open connection to the older version (R17.3);
// - the connection lost mid-session (WebKit's 'Connection to Indexed Database server lost'): Dexie
//   reopens on the next operation (its idbdb.onclose handler closes with autoOpen kept); a send whose
//   transaction the loss aborted is written again (R17.4, `writeAgainAfterLoss`).
import type { Dexie } from 'dexie';
import { correlationKey } from '../merge/message.ts';
import type { SyncDb } from './schema.ts';

/** DOMException names with which a browser refuses to open or keep a store. */
const STORAGE_FAILURES = new Set(['UnknownError', 'InvalidStateError', 'QuotaExceededError', 'NotReadableError']);
/** Names with which an operation fails because its connection went (the transaction did not commit). */
const LOST_CONNECTION = new Set(['DatabaseClosedError', 'AbortError', 'InvalidStateError', 'UnknownError', 'TransactionInactiveError']);

/** The error and the errors it wraps (Dexie's OpenFailedError/DatabaseClosedError carry `inner`). */
function chain(err: unknown): string[] {
  const names: string[] = [];
  let e: unknown = err;
  for (let i = 0; i < 4 && e && typeof e === 'object'; i++) {
    const name = (e as { name?: unknown }).name;
    if (typeof name === 'string') names.push(name);
    e = (e as { inner?: unknown }).inner;
  }
  return names;
}

export function isStorageFailure(err: unknown): boolean {
  return chain(err).some((n) => STORAGE_FAILURES.has(n));
}

/** A catch handler: a storage failure gives `fallback`, anything else is thrown on. */
export function unlessStorageFailure<T>(fallback: T): (err: unknown) => T {
  return (err) => {
    if (isStorageFailure(err)) return fallback;
    throw err;
  };
}

export function isLostConnection(err: unknown): boolean {
  return chain(err).some((n) => LOST_CONNECTION.has(n));
}

export type OpenOutcome = 'opened' | 'recreated';

/** R17.2: the store cannot be used on this device, even deleted and made anew. */
export class StorageUnavailableError extends Error {
  constructor(cause: unknown) {
    super('IndexedDB unavailable', { cause });
    this.name = 'StorageUnavailableError';
  }
}

/**
 * R17.1–R17.3: opens the engine's database; a store that fails to open is deleted and opened once
 * more ('recreated': nothing of it is left, so the caller restores as after an eviction). `blocked`
 * is told while another tab's connection holds an upgrade back, `unblocked` once the open went on.
 * Throws StorageUnavailableError when the store cannot be had at all.
 */
export async function openOrRecreate(db: Dexie, hooks: { blocked: () => void; unblocked: () => void }): Promise<OpenOutcome> {
  let wasBlocked = false;
  const onBlocked = () => {
    wasBlocked = true;
    hooks.blocked();
  };
  db.on('blocked', onBlocked);
  try {
    try {
      await db.open();
      return 'opened';
    } catch (err) {
      if (!isStorageFailure(err)) throw err;
    }
    try {
      await db.delete({ disableAutoOpen: false });
      await db.open();
      return 'recreated';
    } catch (err) {
      throw new StorageUnavailableError(err);
    }
  } finally {
    db.on('blocked').unsubscribe(onBlocked);
    if (wasBlocked) hooks.unblocked();
  }
}

/**
 * R17.4: runs a write; when the connection was lost under it (the transaction aborted, so nothing of
 * it committed: R1.1) and `committed()` confirms it is not stored, it is run once more on the
 * reopened connection. Never twice stored, never silently dropped: a second failure is thrown.
 */
export async function writeAgainAfterLoss<T>(db: Dexie, write: () => Promise<T>, committed: () => Promise<T | null>): Promise<T> {
  try {
    return await write();
  } catch (err) {
    if (!isLostConnection(err)) throw err;
    if (!db.isOpen()) await db.open();
    const stored = await committed();
    if (stored !== null) return stored;
    return write();
  }
}

/** R17.4: the handle of a send already stored under this correlation id, or null. */
export async function storedSend(db: SyncDb, correlationId: string): Promise<{ key: string; correlationId: string } | null> {
  const m = await db.messages.get(correlationKey(correlationId));
  return m ? { key: m.key, correlationId: m.correlationId ?? correlationId.toLowerCase() } : null;
}
