// The signed-in user's sync engine and local database, shared through context. The database comes
// first: the screens read it as soon as it is open (the list paints from IndexedDB), while the
// engine's code (supabase-js, XState, the sync engine) is still loading; the engine is null until it
// has been created, so commands and status treat that as loading.
import { createContext, useContext } from 'react';
import type { SyncDb } from '../../sync/db/schema.ts';
import type { SyncEngine } from '../../sync/engine.ts';

export type SyncDatabase = SyncDb;

export const SyncContext = createContext<SyncEngine | null>(null);
export const SyncDbContext = createContext<SyncDb | null>(null);

export function useSyncEngine(): SyncEngine | null {
  return useContext(SyncContext);
}

/** The database screens read: the engine's, or before it loads the same user's database opened early. */
export function useSyncDb(): SyncDb | null {
  const early = useContext(SyncDbContext);
  const engine = useContext(SyncContext);
  return engine?.db ?? early;
}
