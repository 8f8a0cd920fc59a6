// Account, impersonation and the super-admin check for the signed-in area. Until the sync engine
// stores the account locally, it is read from the server and cached per user for offline starts.
import { useEffect, useMemo, useState, type ReactNode } from 'react';
import { useAuth } from '../auth/auth-context.ts';
import { fetchAccountForUser, fetchIsSuperAdmin, type Account } from '../data/remote-account.ts';
import { skShell as sk } from '../text/sk-shell.ts';
import { readCachedAccount, readCachedSuperAdmin, writeCachedAccount, writeCachedSuperAdmin } from './account-cache.ts';
import { AccountContext, type AccountState } from './account-context.ts';
import { useImpersonation } from './use-impersonation.ts';

interface Loaded<T> {
  userId: string;
  value: T;
}

export function AccountProvider({ children }: { children: ReactNode }) {
  const { user } = useAuth();
  const userId = user?.id ?? null;
  const impersonation = useImpersonation();
  const [own, setOwn] = useState<Loaded<{ account: Account | null; error: string | null }> | null>(null);
  const [admin, setAdmin] = useState<Loaded<boolean> | null>(null);

  useEffect(() => {
    if (!userId) return;
    let live = true;
    const cached = readCachedAccount(userId);
    if (cached) setOwn({ userId, value: { account: cached, error: null } });
    void (async () => {
      try {
        const account = await fetchAccountForUser(userId);
        if (account) writeCachedAccount(userId, account);
        if (live) setOwn({ userId, value: { account, error: null } });
      } catch (err) {
        const message = err instanceof Error && err.message ? err.message : sk.errors.accountFetch;
        console.error('account:', message);
        if (live) setOwn({ userId, value: { account: cached, error: message } });
      }
    })();
    // The server's answer when it comes; until then, and when it cannot come (offline), the last one.
    const cachedAdmin = readCachedSuperAdmin(userId);
    if (cachedAdmin !== null) setAdmin({ userId, value: cachedAdmin });
    fetchIsSuperAdmin(userId).then(
      (value) => {
        writeCachedSuperAdmin(userId, value);
        if (live) setAdmin({ userId, value });
      },
      (err: unknown) => {
        console.error('super-admin check:', err);
        if (live) setAdmin({ userId, value: cachedAdmin ?? false });
      },
    );
    return () => {
      live = false;
    };
  }, [userId]);

  const value = useMemo<AccountState>(() => {
    const mine = own && own.userId === userId ? own.value : null;
    const isImpersonating = impersonation !== null && impersonation.accountId !== mine?.account?.id;
    return {
      account: isImpersonating ? impersonation.account : (mine?.account ?? null),
      accountLoading: !isImpersonating && mine === null,
      accountError: mine?.error ?? null,
      isSuperAdmin: admin && admin.userId === userId ? admin.value : null,
      impersonation,
      isImpersonating,
    };
  }, [own, admin, userId, impersonation]);

  return <AccountContext.Provider value={value}>{children}</AccountContext.Provider>;
}
