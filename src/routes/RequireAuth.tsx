// Sign-in guard: a skeleton while the session loads; without a session, to /auth/login remembering
// where the user was going (location state `from`).
import { Navigate, Outlet, useLocation } from 'react-router-dom';
import { useAuth } from '../auth/auth-context.ts';
import { Skeleton } from '../components/Skeleton.tsx';

export function RequireAuth() {
  const { session, loading } = useAuth();
  const location = useLocation();
  if (loading) return <Skeleton lines={6} className="mx-auto w-full max-w-3xl pt-16" />;
  if (!session) return <Navigate to="/auth/login" replace state={{ from: location }} />;
  return <Outlet />;
}
