import { createContext, useContext } from 'react';
import type { Account } from '../data/remote-account.ts';
import type { ImpersonationState } from './impersonation-store.ts';

export interface AccountState {
  /** The account the app acts for: the impersonated one while impersonating, else the user's own. */
  account: Account | null;
  accountLoading: boolean;
  accountError: string | null;
  /** null while the super-admin check loads; false when it failed. */
  isSuperAdmin: boolean | null;
  impersonation: ImpersonationState | null;
  isImpersonating: boolean;
}

export const AccountContext = createContext<AccountState | null>(null);

export function useAccount(): AccountState {
  const value = useContext(AccountContext);
  if (!value) throw new Error('useAccount must be used within an AccountProvider');
  return value;
}
