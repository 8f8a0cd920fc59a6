import { createContext, useContext } from 'react';
import type { Session, User } from '@supabase/supabase-js';
import { skShell as sk } from '../text/sk-shell.ts';

export interface AuthState {
  user: User | null;
  session: Session | null;
  /** True until the first session result arrives. */
  loading: boolean;
  isValidSession: boolean;
  /**
   * The session ended because this user asked (Odhlásiť sa). The sign-in guard then sends to the login
   * page without remembering where they were: the next person to sign in on this browser starts at
   * the list, not on the previous user's last page.
   */
  signedOutOnPurpose: boolean;
}

export const AuthContext = createContext<AuthState | null>(null);

export function useAuth(): AuthState {
  const value = useContext(AuthContext);
  if (!value) throw new Error(sk.errors.noAuthProvider);
  return value;
}
