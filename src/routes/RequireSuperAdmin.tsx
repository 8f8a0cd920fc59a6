// Admin guard: skeletons while the super-admin check loads; anyone else goes to /app/chats,
// replacing the history entry and carrying the origin location. Offline it says the admin area needs a
// connection: the check cannot finish and the admin chunks are not precached (sw/config.ts), so the
// skeletons would never end (issue 21 admin item 2).
import { Navigate, Outlet, useLocation } from 'react-router-dom';
import { useAccount } from '../account/account-context.ts';
import { useOnline } from '../admin/lib/use-online.ts';
import { NeedsConnection } from '../admin/ui/LoadStates.tsx';
import { Skeleton } from '../components/Skeleton.tsx';

export function RequireSuperAdmin() {
  const { isSuperAdmin } = useAccount();
  const location = useLocation();
  const online = useOnline();
  if (!online) {
    return (
      <div className="p-4">
        <NeedsConnection />
      </div>
    );
  }
  if (isSuperAdmin === null) return <Skeleton lines={5} />;
  if (!isSuperAdmin) return <Navigate to="/app/chats" replace state={{ from: location }} />;
  return <Outlet />;
}
