// IndexedDB failures for a simulated device (issue 35, R17): a wrapper around a fake-indexeddb factory
// whose opens fail the way real browsers' do, and a forced close of a live connection.
// - `corrupt(name)`: the backing store is broken — every open of that database fails with
//   `UnknownError` 'Internal error opening backing store' (Chromium; Expensify/App#87862) until the
//   database is deleted.
// - `refuseAll(errorName)`: no database opens at all (private mode, storage disabled, a full disk),
//   deleted or not; null lets them open again.
// - `loseConnection(db)`: the connection is closed under the page (WebKit's 'Connection to Indexed
//   Database server lost'; Expensify/App#87864): its transactions abort, 'close' fires.
import { forceCloseDatabase } from 'fake-indexeddb';

export class FaultyIdb {
  readonly indexedDB: IDBFactory;
  private readonly broken = new Set<string>();
  private refusal: string | null = null;
  /** Opens that failed on purpose. */
  failedOpens = 0;

  constructor(inner: object) {
    const target = inner as IDBFactory;
    this.indexedDB = new Proxy(target, {
      get: (t, prop) => {
        if (prop === 'open') {
          return (name: string, version?: number) => {
            if (this.refusal) return this.failed(this.refusal, 'The operation failed for reasons unrelated to the database itself');
            if (this.broken.has(name)) return this.failed('UnknownError', 'Internal error opening backing store for indexedDB.open.');
            return t.open(name, version);
          };
        }
        if (prop === 'deleteDatabase') {
          return (name: string) => {
            this.broken.delete(name);
            return t.deleteDatabase(name);
          };
        }
        const v: unknown = Reflect.get(t, prop, t);
        return typeof v === 'function' ? (v as (...a: unknown[]) => unknown).bind(t) : v;
      },
    });
  }

  corrupt(name: string): void {
    this.broken.add(name);
  }

  refuseAll(errorName: string | null): void {
    this.refusal = errorName;
  }

  /** An open request that fails on the next turn, as a browser's does (error event, then nothing). */
  private failed(name: string, message: string): IDBOpenDBRequest {
    this.failedOpens++;
    const req = {
      error: null as DOMException | null,
      result: undefined,
      readyState: 'pending',
      onerror: null as ((ev: unknown) => void) | null,
      onsuccess: null,
      onblocked: null,
      onupgradeneeded: null,
      addEventListener: () => undefined,
      removeEventListener: () => undefined,
    };
    setTimeout(() => {
      req.readyState = 'done';
      req.error = new DOMException(message, name);
      req.onerror?.({ type: 'error', target: req, preventDefault: () => undefined, stopPropagation: () => undefined });
    });
    return req as unknown as IDBOpenDBRequest;
  }
}

interface FakeTransaction {
  db: unknown;
  _state: string;
  abort(): void;
}

/**
 * Closes a live connection as the browser does when it loses its IndexedDB server: per the spec's
 * forced close, its unfinished transactions abort (AbortError) and 'close' fires. fake-indexeddb's
 * forceCloseDatabase waits for them to finish instead, so they are aborted here first.
 */
export function loseConnection(db: IDBDatabase): void {
  const raw = (db as unknown as { _rawDatabase?: { transactions: FakeTransaction[] } })._rawDatabase;
  for (const t of raw?.transactions ?? []) {
    if (t.db !== db || t._state === 'finished') continue;
    try {
      t.abort();
    } catch {
      // already committing: it finishes, as a browser's would
    }
  }
  forceCloseDatabase(db as never);
}
