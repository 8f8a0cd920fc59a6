// Holds the auth state for the whole app. The client is passed in (supabase.auth in the app, a fake
// in tests); loading stays true until its first event, INITIAL_SESSION, arrives — unless the app
// passes the session stored in this browser, which is then used until that event replaces it.
import { useEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import type { AuthChangeEvent, Session, Subscription } from '@supabase/supabase-js';
import { AuthContext, type AuthState } from './auth-context.ts';
import { isSessionValid } from './session-validity.ts';
import { consumeSignOutIntent } from './sign-out-intent.ts';

export interface AuthClientLike {
  onAuthStateChange(callback: (event: AuthChangeEvent, session: Session | null) => void): {
    data: { subscription: Pick<Subscription, 'unsubscribe'> };
  };
}

interface AuthProviderProps {
  client: AuthClientLike;
  /** Called when the client drops the session without the user asking (e.g. a dead refresh token). */
  onSessionLost?: () => void;
  /** The stored session (auth/stored-session.ts) to render with before the client has loaded. */
  initialSession?: Session | null;
  children: ReactNode;
}

export function AuthProvider({ client, onSessionLost, initialSession = null, children }: AuthProviderProps) {
  const [session, setSession] = useState<Session | null>(initialSession);
  const [loading, setLoading] = useState(initialSession === null);
  const [signedOutOnPurpose, setSignedOutOnPurpose] = useState(false);

  // The stored session this page started with, until the client confirms or drops it: a client that
  // finds it dead at start-up (its refresh token refused) may drop it before this provider listens —
  // supabase-js starts recovering the session as it loads, and its SIGNED_OUT then reaches nobody —
  // so an INITIAL_SESSION without a session, after a stored one, is a lost session too. Announced
  // once per loss (a SIGNED_OUT followed by INITIAL_SESSION null is one loss, not two).
  const stored = useRef(initialSession !== null);
  const announced = useRef(false);

  useEffect(() => {
    const lost = () => {
      const asked = consumeSignOutIntent();
      if (!asked && !announced.current) onSessionLost?.();
      announced.current = true;
      setSignedOutOnPurpose(asked);
    };
    const { data } = client.onAuthStateChange((event, next) => {
      if (event === 'SIGNED_OUT') lost();
      else if (event === 'INITIAL_SESSION' && !next && stored.current) lost();
      else if (next) {
        announced.current = false;
        setSignedOutOnPurpose(false);
      }
      if (event === 'INITIAL_SESSION') stored.current = false;
      setSession(next);
      setLoading(false);
    });
    return () => data.subscription.unsubscribe();
  }, [client, onSessionLost]);

  const value = useMemo<AuthState>(
    () => ({ user: session?.user ?? null, session, loading, isValidSession: isSessionValid(session), signedOutOnPurpose }),
    [session, loading, signedOutOnPurpose],
  );
  return <AuthContext.Provider value={value}>{children}</AuthContext.Provider>;
}
