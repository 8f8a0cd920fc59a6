// A stand-in for src/data/use-sync-query.ts in jsdom UI tests (Dexie's live query never answers under
// jsdom here): it reads the same database once per mount and deps, once `syncReads.open` is true (the
// default). A test that must see a render before the database answered sets it false and opens the
// reads with `openSyncReads()`. Use: vi.mock('…/src/data/use-sync-query.ts', () => import('…/tests/helpers/sync-query-reads.ts')).
import { useContext, useEffect, useState, type DependencyList } from 'react';
import { SyncDbContext } from '../../src/data/sync-context.ts';

export const syncReads = { open: true, wake: new Set<() => void>() };

/** Lets every mounted query read (and those mounted later). */
export function openSyncReads(): void {
  syncReads.open = true;
  syncReads.wake.forEach((w) => w());
}

export function useSyncQuery<T>(query: (db: never) => Promise<T>, deps: DependencyList): { value: T } | undefined {
  const db = useContext(SyncDbContext);
  const [result, setResult] = useState<{ value: T } | undefined>(undefined);
  const [open, setOpen] = useState(syncReads.open);
  useEffect(() => {
    const wake = () => setOpen(true);
    syncReads.wake.add(wake);
    return () => void syncReads.wake.delete(wake);
  }, []);
  useEffect(() => {
    let live = true;
    if (db && open) void query(db as never).then((value) => live && setResult({ value }));
    return () => {
      live = false;
    };
    // eslint-disable-next-line react-hooks/exhaustive-deps -- the caller's deps, as useLiveQuery takes them
  }, [db, open, ...deps]);
  return result;
}
