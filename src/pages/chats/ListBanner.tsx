// The list's connection banners, driven by the engine's status: offline, or the load error with a
// retry ('Skúsiť znova' asks the engine to pull and push now), or a backlog's progress (R5.10: while
// pages keep arriving the member sees how far it is, not an error).
import type { SyncStatus } from '../../../sync/status.ts';
import { formatCount } from '../../lib/count.ts';
import { skShell as sk } from '../../text/sk-shell.ts';

export function ListBanner({ status, onRetry }: { status: SyncStatus; onRetry: () => void }) {
  if (status.connection === 'offline') {
    return (
      <div role="status" data-testid="offline-banner" className="mx-4 mt-3 rounded-lg border border-amber-300 bg-amber-50 px-3 py-2 text-sm text-amber-900">
        <p className="font-semibold">{sk.chats.offlineTitle}</p>
        <p>{sk.chats.offlineHint}</p>
      </div>
    );
  }
  if (status.connection === 'error') {
    return (
      <div role="alert" data-testid="load-error-banner" className="mx-4 mt-3 flex items-center gap-3 rounded-lg border border-red-300 bg-red-50 px-3 py-2 text-sm text-red-900">
        <div className="min-w-0 flex-1">
          {/* Before the first complete load there was no connection to restore: the plain failure text
              (issue 21 item 6), the after-reconnect one only for a list that had loaded. */}
          {/* R17: the device's storage failing is said as it is (not as a load failure), loaded or not. */}
          <p className="font-semibold">{status.storage || status.loaded ? (status.error ?? sk.chats.loadFailed) : sk.chats.loadFailed}</p>
          {!status.storage && <p>{sk.chats.retryHint}</p>}
        </div>
        <button type="button" className="btn-secondary min-h-9 px-3 text-sm" onClick={onRetry}>
          {sk.chats.retry}
        </button>
      </div>
    );
  }
  if (status.progress) {
    return (
      <div role="status" data-testid="sync-progress-banner" className="mx-4 mt-3 rounded-lg border border-sky-200 bg-sky-50 px-3 py-2 text-sm text-sky-900">
        <p>{sk.chats.syncProgress(formatCount(status.progress.done), formatCount(status.progress.total))}</p>
      </div>
    );
  }
  return null;
}
