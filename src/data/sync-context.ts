// The signed-in user's sync engine, shared through context. null until the engine for the current
// user and account has been created (the first render after sign-in), so screens treat it as loading.
import { createContext, useContext } from 'react';
import type { SyncEngine } from '../../sync/engine.ts';

export type SyncDatabase = SyncEngine['db'];

export const SyncContext = createContext<SyncEngine | null>(null);

export function useSyncEngine(): SyncEngine | null {
  return useContext(SyncContext);
}
