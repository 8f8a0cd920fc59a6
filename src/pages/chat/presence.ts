// The chat header's status (user-area.md section 2: 'online', 'zaneprázdnený', 'uzamknuté'). The spec
// names the values, not the rule; ours:
// - a completed conversation (status other than 'active') is locked: 'uzamknuté';
// - an AI specialist answers at any time: 'online';
// - a human specialist is 'online' when they wrote within the last 10 minutes, else 'zaneprázdnený'.
import type { LocalConversation, LocalMessage } from '../../../sync/model/local-types.ts';

export type Presence = 'online' | 'busy' | 'locked';

export const HUMAN_RECENT_MS = 10 * 60_000;

export function chatPresence(
  conversation: Pick<LocalConversation, 'status' | 'specialist'> | undefined,
  messages: readonly Pick<LocalMessage, 'direction' | 'createdAt'>[],
  now: number,
): Presence {
  if (conversation && conversation.status !== 'active') return 'locked';
  if (conversation?.specialist?.isAi !== false) return 'online';
  for (let i = messages.length - 1; i >= 0; i--) {
    const m = messages[i]!;
    if (m.direction !== 'specialist') continue;
    return now - Date.parse(m.createdAt) < HUMAN_RECENT_MS ? 'online' : 'busy';
  }
  return 'busy';
}
