import { matchesQuery } from '../lib/search.ts';
import type { IntegrationEvent } from './chatwoot-data.ts';

/** The conversation id an event refers to: ours or Chatwoot's, whichever it carries. */
export function eventConversationId(e: IntegrationEvent): string | null {
  const d = e.data ?? {};
  for (const key of ['conversation_id', 'chatwoot_conversation_id']) {
    const v = d[key];
    if (typeof v === 'string' || typeof v === 'number') return String(v);
  }
  return null;
}

/** Events by conversation id or kind, case-insensitive. */
export function filterEvents(events: readonly IntegrationEvent[], query: string): IntegrationEvent[] {
  return events.filter((e) => {
    const d = e.data ?? {};
    const ids = [d.conversation_id, d.chatwoot_conversation_id].filter((v): v is string | number => typeof v === 'string' || typeof v === 'number');
    return matchesQuery(query, [e.kind, ...ids]);
  });
}
