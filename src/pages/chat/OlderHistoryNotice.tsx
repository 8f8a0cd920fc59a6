// R17.5: a chat whose older messages are still on their way (a backlog's head brought its newest
// page first) says so above the messages, so its first shown message is not taken for the start of
// the conversation: 'sťahujú sa' while the device is online, 'nie sú stiahnuté' while it is offline
// (they come only after the reconnect). Gone once the feed has caught up.
import type { SyncStatus } from '../../../sync/status.ts';
import { olderHistoryPending } from '../../../sync/queries.ts';
import { useSyncQuery } from '../../data/use-sync-query.ts';
import { sk } from '../../text/sk.ts';

export function OlderHistoryNotice({ conversationId, status }: { conversationId: string; status: SyncStatus }) {
  const pending = useSyncQuery((db) => olderHistoryPending(db, conversationId), [conversationId])?.value;
  return <OlderHistoryLine pending={pending === true} offline={status.connection === 'offline'} />;
}

/** The line itself (rendered by the notice; apart so it is shown without a database). */
export function OlderHistoryLine({ pending, offline }: { pending: boolean; offline: boolean }) {
  if (!pending) return null;
  return (
    <p data-testid="older-history-note" role="status" className="border-b border-sky-200 bg-sky-50 px-4 py-2 text-center text-xs text-sky-900">
      {offline ? sk.olderHistory.notDownloaded : sk.olderHistory.arriving}
    </p>
  );
}
