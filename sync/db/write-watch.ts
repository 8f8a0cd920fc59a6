// R1.12: lets the engine see, synchronously, every write this connection issues to the outbox and
// the conversations (send-watch.ts keeps its in-memory view of both from them). A DBCore middleware,
// installed by SyncDb's constructor (Dexie builds its middleware stack when the database opens, and
// the screens may open it before the engine exists); it calls whatever listener the database holds
// at the time of each write, and costs nothing while none does. Unlike Dexie's table hooks it reads
// nothing back (hooks read every overwritten row first, an extra round trip in every merge).
import type { DBCore, DBCoreMutateRequest, DBCoreMutateResponse, Middleware } from 'dexie';

export type WatchedTable = 'outbox' | 'conversations';

export interface WriteListener {
  /**
   * A write was issued in `trans` (not yet committed). May answer a function told the write's
   * response (the keys an add generated).
   */
  issued(table: WatchedTable, req: DBCoreMutateRequest, trans: IDBTransaction): ((res: DBCoreMutateResponse) => void) | void;
}

export interface WriteListenerSlot {
  writeListener: WriteListener | null;
}

const WATCHED = new Set<string>(['outbox', 'conversations']);

export function writeWatchMiddleware(slot: WriteListenerSlot): Middleware<DBCore> {
  return {
    stack: 'dbcore',
    name: 'PoradnaWriteWatch',
    // Below Dexie's hooks (level 2): sees the writes as they reach IndexedDB.
    level: 1,
    create: (down) => ({
      ...down,
      table(name) {
        const table = down.table(name);
        if (!WATCHED.has(name)) return table;
        return {
          ...table,
          mutate(req) {
            const listener = slot.writeListener;
            if (!listener) return table.mutate(req);
            const after = listener.issued(name as WatchedTable, req, req.trans as unknown as IDBTransaction);
            const res = table.mutate(req);
            return after ? res.then((r) => (after(r), r)) : res;
          },
        };
      },
    }),
  };
}
