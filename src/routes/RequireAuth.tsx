// Sign-in guard: a skeleton while the session loads; without a session, to /auth/login remembering
// where the user was going (location state `from`) — unless they signed out on purpose.
import { Navigate, Outlet, useLocation } from 'react-router-dom';
import { useAuth } from '../auth/auth-context.ts';
import { Skeleton } from '../components/Skeleton.tsx';

/** The placeholder's frame, shared with the signed-in chunk's loading placeholder (router.tsx). */
export const SIGNED_IN_PLACEHOLDER = 'mx-auto w-full max-w-3xl pt-16';

export function RequireAuth() {
  const { session, loading, signedOutOnPurpose } = useAuth();
  const location = useLocation();
  if (loading) return <Skeleton lines={6} className={SIGNED_IN_PLACEHOLDER} />;
  // A sign-out races the settings page's own navigate('/auth/login'): whichever renders first wins,
  // so the guard must not stamp the page being left as the next sign-in's destination.
  if (!session) return <Navigate to="/auth/login" replace state={signedOutOnPurpose ? null : { from: location }} />;
  return <Outlet />;
}
