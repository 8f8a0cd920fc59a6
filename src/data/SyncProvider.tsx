// Opens the signed-in user's database at once and loads, creates and starts the sync engine over it
// (in the impersonated account while impersonating); stops both when the user or account changes or
// the area unmounts. Screens read the database through useSyncQuery as soon as it is open — the list
// paints from IndexedDB before supabase-js, XState and the engine have been downloaded — and act
// through engine.commands once the engine is there.
// Invariants: the database is shown early only if it already holds this account's data (its feed
// says so): after an account switch the old account's rows are never shown, the engine's scoping
// removes them first. Its existence is probed before the first open, so eviction is still detected.
import { useEffect, useState, type ReactNode } from 'react';
import { dbNameFor, SyncDb } from '../../sync/db/schema.ts';
import { userDbExists } from '../../sync/db/open.ts';
import { feed } from '../../sync/queries.ts';
import type { SyncEngine } from '../../sync/engine.ts';
import { useAccount } from '../account/account-context.ts';
import { useAuth } from '../auth/auth-context.ts';
import { loadSupabase } from '../auth/lazy-supabase.ts';
import { registerUpdateBlocker } from '../pwa/update-gate.ts';
import { startSearchWhenIdle } from '../search/start.ts';
import type { ImagePreparer } from '../../sync/attachments/prepare.ts';
import { engineTarget } from './engine-key.ts';
import { ONLINE_ONLY } from './online-only/flag.ts';
import { SyncContext, SyncDbContext } from './sync-context.ts';

/**
 * The canvas work of a photo's preparation (issue 38), fetched when the engine first prepares one:
 * it is chat code, not needed before the list paints (bench row 8a; the chat chunk holds it anyway).
 */
const prepareImage: ImagePreparer = (original, name, type) =>
  import('../pages/chat/attachments/prepare-image.ts').then((m) => m.prepareImage(original, name, type));

export function SyncProvider({ children }: { children: ReactNode }) {
  const { user } = useAuth();
  const { account, accountLoading, isImpersonating, impersonation } = useAccount();
  const [engine, setEngine] = useState<SyncEngine | null>(null);
  const [early, setEarly] = useState<SyncDb | null>(null);
  // Wait for the own account (cache or server) so the engine starts in the right account; an
  // impersonated account is known at once.
  const ready = isImpersonating || !accountLoading;
  const target = ready ? engineTarget(user?.id ?? null, isImpersonating ? (impersonation?.accountId ?? null) : null, isImpersonating ? null : (account?.id ?? null)) : null;
  const userId = target?.userId ?? null;
  const accountId = target?.accountId ?? null;

  useEffect(() => {
    // The online-only baseline build keeps nothing locally: no engine, screens read the server.
    if (userId === null || ONLINE_ONLY) return;
    let active = true;
    let created: SyncEngine | null = null;
    let unblock = () => undefined as void;
    // R15.4: the message index follows the user's database from a worker, started once idle.
    const stopSearch = startSearchWhenIdle(userId);
    // The engine's chunk is imported from a task of its own: the import compiles it on the spot
    // (~14 ms for its 190 kB), and inside this effect, which runs in the commit's task, it made one
    // task of ~25 ms, blocking on Lighthouse's 4× phone (issue 40). The database opens meanwhile.
    const engineCode = new Promise<void>((resolve) => setTimeout(resolve, 0)).then(() => import('../../sync/engine.ts'));
    const client = loadSupabase();
    void (async () => {
      const existed = await userDbExists(userId).catch(() => true);
      if (!active) return;
      const db = new SyncDb(dbNameFor(userId));
      if (existed) {
        const f = await feed(db).catch(() => undefined);
        if (active && f && (accountId === null || f.accountId === accountId)) setEarly(db);
      }
      const [{ createSyncEngine }, { supabase }] = await Promise.all([engineCode, client]);
      if (!active) {
        db.close();
        return;
      }
      created = createSyncEngine({ userId, supabase, accountId, db, databaseExisted: existed, prepareImage });
      setEngine(created);
      created.start().catch((err: unknown) => console.error('sync start:', err));
      // A new app version must not reload the page while writes are still queued (invariant 1).
      const engineDb = created.db;
      unblock = registerUpdateBlocker(async () => (await engineDb.outbox.count()) > 0);
    })().catch((err: unknown) => console.error('sync load:', err));
    return () => {
      active = false;
      unblock();
      stopSearch();
      setEarly(null);
      const stopping = created;
      setEngine((current) => (current === stopping ? null : current));
      stopping?.stop().catch((err: unknown) => console.warn('sync stop:', err));
    };
  }, [userId, accountId]);

  return (
    <SyncDbContext.Provider value={early}>
      <SyncContext.Provider value={engine}>{children}</SyncContext.Provider>
    </SyncDbContext.Provider>
  );
}
