// Test wrappers that provide auth and account state without a backend.
import type { ReactNode } from 'react';
import type { Session, User } from '@supabase/supabase-js';
import { AccountContext, type AccountState } from '../../../src/account/account-context.ts';
import { AuthContext, type AuthState } from '../../../src/auth/auth-context.ts';

export const testUser = { id: 'u1', email: 'eva@example.sk', last_sign_in_at: '2025-03-15T08:30:00Z' } as unknown as User;
export const testSession = { access_token: 'jwt', expires_at: Math.floor(Date.now() / 1000) + 3600, user: testUser } as unknown as Session;

export const signedIn: AuthState = { user: testUser, session: testSession, loading: false, isValidSession: true, signedOutOnPurpose: false };
export const signedOut: AuthState = { user: null, session: null, loading: false, isValidSession: false, signedOutOnPurpose: false };

export const ownAccount: AccountState = {
  account: { id: 'acc-1', name: 'Eva Account', plan: 'PRO', specialists_mode: 'DEFAULT' },
  accountLoading: false,
  accountError: null,
  isSuperAdmin: false,
  impersonation: null,
  isImpersonating: false,
};

export function Providers({ auth = signedIn, account = ownAccount, children }: { auth?: AuthState; account?: AccountState; children: ReactNode }) {
  return (
    <AuthContext.Provider value={auth}>
      <AccountContext.Provider value={account}>{children}</AccountContext.Provider>
    </AuthContext.Provider>
  );
}
