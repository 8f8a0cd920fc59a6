// Admin guard: skeletons while the super-admin check loads; anyone else goes to /app/chats,
// replacing the history entry and carrying the origin location.
import { Navigate, Outlet, useLocation } from 'react-router-dom';
import { useAccount } from '../account/account-context.ts';
import { Skeleton } from '../components/Skeleton.tsx';

export function RequireSuperAdmin() {
  const { isSuperAdmin } = useAccount();
  const location = useLocation();
  if (isSuperAdmin === null) return <Skeleton lines={5} />;
  if (!isSuperAdmin) return <Navigate to="/app/chats" replace state={{ from: location }} />;
  return <Outlet />;
}
