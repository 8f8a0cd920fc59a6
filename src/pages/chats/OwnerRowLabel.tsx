// R14.6 in the conversation list: who answers, next to the status badge (hidden for a completed
// conversation, where nobody answers any more).
import type { LocalConversation } from '../../../sync/model/local-types.ts';
import { ownerLabel } from '../chat/owner-label.ts';

export function OwnerRowLabel({ conversation }: { conversation: LocalConversation }) {
  const label = conversation.status === 'active' ? ownerLabel(conversation) : null;
  if (!label) return null;
  return (
    <span data-testid="row-owner" className={`truncate text-xs ${conversation.ownerState === 'ai' || !conversation.ownerState ? 'text-slate-500' : 'font-medium text-indigo-700'}`}>
      {label}
    </span>
  );
}
