// R14.6: what the chat header and the list row say about who answers. The server's owner state
// (sync/SPEC.md R14.1) as Slovak text; 'Odpovedá AI' only for an AI specialist's conversation (a human
// specialist's conversation has no AI to speak of), and nothing for a row stored before issue 39 of a
// human specialist.
import type { LocalConversation } from '../../../sync/model/local-types.ts';
import { skShell as sk } from '../../text/sk-shell.ts';
import { messageTime } from './message-time.ts';

export function ownerLabel(c: LocalConversation, now: Date = new Date()): string | null {
  const state = c.ownerState ?? 'ai';
  if (state === 'human') return c.ownerAgentName?.trim() ? sk.owner.human(c.ownerAgentName.trim()) : sk.owner.humanUnnamed;
  if (state === 'waiting') return c.ownerRequestedAt ? sk.owner.waiting(messageTime(c.ownerRequestedAt, now)) : sk.owner.waiting('teraz');
  return c.specialist?.isAi === true ? sk.owner.ai : null;
}

/** R14.2: 'Chcem hovoriť s človekom' is offered in an active AI-answered chat of an AI specialist. */
export function canRequestHuman(c: LocalConversation | undefined): boolean {
  return c !== undefined && c.status === 'active' && (c.ownerState ?? 'ai') === 'ai' && c.specialist?.isAi === true;
}
