// Creates and starts the sync engine for the signed-in user (in the impersonated account while
// impersonating), stops it when the user or account changes or the area unmounts. Screens read the
// engine's IndexedDB through useSyncQuery and act through engine.commands.
import { useEffect, useState, type ReactNode } from 'react';
import { createSyncEngine, type SyncEngine } from '../../sync/engine.ts';
import { useAccount } from '../account/account-context.ts';
import { useAuth } from '../auth/auth-context.ts';
import { registerUpdateBlocker } from '../pwa/update-gate.ts';
import { supabase } from '../supabase.ts';
import { engineTarget } from './engine-key.ts';
import { ONLINE_ONLY } from './online-only/flag.ts';
import { SyncContext } from './sync-context.ts';

export function SyncProvider({ children }: { children: ReactNode }) {
  const { user } = useAuth();
  const { account, accountLoading, isImpersonating, impersonation } = useAccount();
  const [engine, setEngine] = useState<SyncEngine | null>(null);
  // Wait for the own account (cache or server) so the engine starts in the right account; an
  // impersonated account is known at once.
  const ready = isImpersonating || !accountLoading;
  const target = ready ? engineTarget(user?.id ?? null, isImpersonating ? (impersonation?.accountId ?? null) : null, isImpersonating ? null : (account?.id ?? null)) : null;
  const userId = target?.userId ?? null;
  const accountId = target?.accountId ?? null;

  useEffect(() => {
    // The online-only baseline build keeps nothing locally: no engine, screens read the server.
    if (userId === null || ONLINE_ONLY) return;
    const created = createSyncEngine({ userId, supabase, accountId });
    setEngine(created);
    created.start().catch((err: unknown) => console.error('sync start:', err));
    // A new app version must not reload the page while writes are still queued (invariant 1).
    const unblock = registerUpdateBlocker(async () => (await created.db.outbox.count()) > 0);
    return () => {
      unblock();
      setEngine((current) => (current === created ? null : current));
      created.stop().catch((err: unknown) => console.warn('sync stop:', err));
    };
  }, [userId, accountId]);

  return <SyncContext.Provider value={engine}>{children}</SyncContext.Provider>;
}
