// The two states every admin screen that loads data shares (issue 21 admin item 2): offline, it says the
// admin area needs a connection (instead of skeletons that never end); a failed load says so with
// 'Skúsiť znova' (instead of the empty state under the error toast). Imports no admin texts, so the
// super-admin guard can show the offline notice before the admin chunk loads.
import { useEffect, type ReactNode } from 'react';
import { adminStatus } from '../../text/admin-status.ts';
import { AdminIcon, type AdminIconName } from './icons.tsx';

function StateBox({ icon, title, children, testId, role }: { icon: AdminIconName; title: string; children: ReactNode; testId: string; role: 'status' | 'alert' }) {
  return (
    <div role={role} data-testid={testId} className="flex flex-col items-center gap-3 rounded-xl border border-slate-200 bg-white px-4 py-8 text-center">
      <AdminIcon name={icon} size={32} className="text-slate-500" />
      <h2 className="text-base font-semibold text-slate-900">{title}</h2>
      {children}
    </div>
  );
}

export function NeedsConnection() {
  return (
    <StateBox icon="offline" title={adminStatus.offlineTitle} testId="admin-offline" role="status">
      <p className="max-w-md text-sm text-slate-600">{adminStatus.offlineText}</p>
    </StateBox>
  );
}

/**
 * A failed load: the screen's own failure text and a retry. A load that failed because the connection
 * was not yet usable (the browser's 'online' event comes before the first request can pass, on a phone
 * as in a test) is retried by itself when the browser next says it is online.
 */
export function LoadFailed({ message, onRetry }: { message: string; onRetry: () => void }) {
  useEffect(() => {
    window.addEventListener('online', onRetry);
    return () => window.removeEventListener('online', onRetry);
  }, [onRetry]);
  return (
    <StateBox icon="error" title={adminStatus.failedTitle} testId="admin-load-failed" role="alert">
      <p className="max-w-md text-sm text-slate-600">{message}</p>
      <button
        type="button"
        onClick={onRetry}
        className="focus-ring inline-flex min-h-9 items-center gap-2 rounded-lg bg-teal-700 px-3 py-1.5 text-sm font-medium text-white hover:bg-teal-800"
      >
        <AdminIcon name="retry" />
        {adminStatus.retry}
      </button>
    </StateBox>
  );
}
