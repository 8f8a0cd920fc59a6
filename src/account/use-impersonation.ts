import { useSyncExternalStore } from 'react';
import { getImpersonation, subscribeImpersonation, type ImpersonationState } from './impersonation-store.ts';

export function useImpersonation(): ImpersonationState | null {
  return useSyncExternalStore(subscribeImpersonation, getImpersonation, () => null);
}
