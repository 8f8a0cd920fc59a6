// The engine's debounced status (online / offline / fallback / error, loaded) as React state.
import { useCallback, useSyncExternalStore } from 'react';
import type { SyncStatus } from '../../sync/status.ts';
import { useSyncEngine } from './sync-context.ts';

const NO_ENGINE: SyncStatus = { connection: 'online', error: null, loaded: false, leader: false };

export function useSyncStatus(): SyncStatus {
  const engine = useSyncEngine();
  const subscribe = useCallback((fn: () => void) => (engine ? engine.subscribeStatus(fn) : () => undefined), [engine]);
  const snapshot = useCallback(() => (engine ? engine.status() : NO_ENGINE), [engine]);
  return useSyncExternalStore(subscribe, snapshot, snapshot);
}
