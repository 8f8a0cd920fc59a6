// R14.6 in the chat: who answers (under the specialist's name), the 'Chcem hovoriť s človekom' button
// in an AI-answered chat, and, while a human is awaited, a note saying what happens next.
import { useState } from 'react';
import type { LocalConversation } from '../../../sync/model/local-types.ts';
import { useSyncEngine } from '../../data/sync-context.ts';
import { useSyncStatus } from '../../data/use-sync-status.ts';
import { toastError, toastSuccess } from '../../lib/notify.ts';
import { sk } from '../../text/sk.ts';
import { canRequestHuman, ownerLabel } from './owner-label.ts';
import { requestHuman } from './request-human.ts';

export function OwnerStatus({ conversation }: { conversation: LocalConversation }) {
  const label = ownerLabel(conversation);
  if (!label) return null;
  return (
    <span data-testid="chat-owner" data-owner={conversation.ownerState ?? 'ai'} className="truncate">
      {label}
    </span>
  );
}

/** 'header': beside the name from the sm breakpoint up; 'bar': a slim row under the header on a
 *  phone, where beside the name it would squeeze the name and role to a few letters. */
export function RequestHumanButton({
  conversation,
  placement,
}: {
  conversation: LocalConversation | undefined;
  placement: 'header' | 'bar';
}) {
  const engine = useSyncEngine();
  const status = useSyncStatus();
  const [busy, setBusy] = useState(false);
  if (!conversation || !canRequestHuman(conversation)) return null;
  const onClick = async () => {
    setBusy(true);
    const outcome = await requestHuman(conversation.id, status.connection !== 'offline');
    setBusy(false);
    if (outcome === 'requested') {
      toastSuccess(sk.owner.requested, { duration: 10_000 });
      engine?.syncNow();
    } else toastError(outcome === 'offline' ? sk.owner.offline : sk.owner.failed);
  };
  const button = (
    <button
      type="button"
      data-testid="request-human"
      onClick={() => void onClick()}
      disabled={busy}
      className={`focus-ring shrink-0 rounded-full border border-slate-300 bg-white px-3 py-1.5 text-xs font-medium text-slate-700 hover:bg-slate-50 disabled:opacity-60 ${placement === 'header' ? 'hidden sm:inline-flex' : ''}`}
    >
      {busy ? sk.owner.requesting : sk.owner.request}
    </button>
  );
  if (placement === 'header') return button;
  return (
    <div className="flex justify-end border-b border-slate-200 bg-slate-50 px-4 py-1.5 sm:hidden">
      {button}
    </div>
  );
}

/** While waiting: the AI is silent and a human will answer here (R14.2), said where it stays visible. */
export function WaitingNote({ conversation }: { conversation: LocalConversation | undefined }) {
  if (conversation?.ownerState !== 'waiting' || conversation.status !== 'active') return null;
  return (
    <p
      data-testid="owner-waiting-note"
      role="status"
      className="border-b border-amber-200 bg-amber-50 px-4 py-2 text-xs text-amber-900"
    >
      {sk.owner.waitingNote}
    </p>
  );
}
