// The chat's connection boxes (user-area.md section 8): offline, fallback mode (realtime down,
// polling), or a load error with a retry.
import type { SyncStatus } from '../../../sync/status.ts';
import { TEXT_LOAD_FAILED_AFTER_RECONNECT } from '../../../sync/model/texts.ts';
import { sk } from '../../text/sk.ts';

export function ChatNotice({ status, onRetry }: { status: SyncStatus; onRetry: () => void }) {
  if (status.connection === 'offline') return <Box tone="amber" title={sk.chats.offlineTitle} hint={sk.chats.offlineHint} />;
  if (status.connection === 'fallback') return <Box tone="amber" title={sk.chat.fallbackTitle} hint={sk.chat.fallbackHint} />;
  if (status.connection === 'error') {
    const title = status.error === TEXT_LOAD_FAILED_AFTER_RECONNECT ? sk.chat.loadFailedAfterReconnect : sk.chat.loadFailed;
    return <Box tone="red" title={title} hint={sk.chat.retryHint} onRetry={onRetry} />;
  }
  return null;
}

interface BoxProps {
  tone: 'amber' | 'red';
  title: string;
  hint: string;
  onRetry?: () => void;
}

function Box({ tone, title, hint, onRetry }: BoxProps) {
  const colours = tone === 'red' ? 'border-red-300 bg-red-50 text-red-900' : 'border-amber-300 bg-amber-50 text-amber-900';
  return (
    <div role={tone === 'red' ? 'alert' : 'status'} data-testid="chat-notice" className={`mx-3 mt-2 flex items-center gap-3 rounded-lg border px-3 py-2 text-sm ${colours}`}>
      <div className="min-w-0 flex-1">
        <p className="font-semibold">{title}</p>
        <p>{hint}</p>
      </div>
      {onRetry && (
        <button type="button" className="btn-secondary min-h-9 px-3 text-sm" onClick={onRetry}>
          {sk.chats.retry}
        </button>
      )}
    </div>
  );
}
