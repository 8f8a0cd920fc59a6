import { createContext, useContext } from 'react';
import type { Session, User } from '@supabase/supabase-js';
import { sk } from '../text/sk.ts';

export interface AuthState {
  user: User | null;
  session: Session | null;
  /** True until the first session result arrives. */
  loading: boolean;
  isValidSession: boolean;
}

export const AuthContext = createContext<AuthState | null>(null);

export function useAuth(): AuthState {
  const value = useContext(AuthContext);
  if (!value) throw new Error(sk.errors.noAuthProvider);
  return value;
}
