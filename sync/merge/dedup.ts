// R3: de-duplication of messages (user-area.md section 5). Pure: the caller looks the candidates up.
import { DEDUP_WINDOW_MS, OPTIMISTIC_KEEP_MS } from '../model/constants.ts';
import type { LocalMessage } from '../model/local-types.ts';
import { mergeMessage, messageKeyOf } from './message.ts';
import type { RemoteMessage } from '../model/remote-types.ts';
import { msFromTimestamp, normalizeTimestamp } from '../model/timestamps.ts';

export interface MessageCandidates {
  /** The stored message with the remote's key (R3.1/R3.2: server id or correlation id). */
  byKey: LocalMessage | undefined;
  /** Stored messages with the remote's external (Chatwoot) id (R3.3). */
  byExternalId: LocalMessage[];
  /** The conversation's confirmed optimistic copies still without a server row (R3.4). */
  confirmedCopies: LocalMessage[];
}

export interface MessagePlan {
  put: LocalMessage | null;
  remove: string[];
}

/** R3.4: equal text and sender within 5 s; the closest in time wins. */
export function findTextMatch(remote: RemoteMessage, copies: LocalMessage[], userId: string): LocalMessage | undefined {
  if (remote.client_correlation_id || remote.direction !== 'user' || remote.sender_user_id !== userId) return undefined;
  const created = normalizeTimestamp(remote.created_at);
  if (created === null) return undefined;
  const at = msFromTimestamp(created);
  let best: LocalMessage | undefined;
  let bestGap = Infinity;
  for (const c of copies) {
    if (c.origin !== 'optimistic' || c.state !== 'sent' || c.serverId !== null) continue;
    if (c.conversationId !== remote.conversation_id || c.text !== (remote.text ?? '')) continue;
    const gap = Math.abs(msFromTimestamp(c.createdAt) - at);
    if (gap <= DEDUP_WINDOW_MS && gap < bestGap) {
      best = c;
      bestGap = gap;
    }
  }
  return best;
}

/** What to write for one remote message so that every client shows it exactly once (invariant 2). */
export function planRemoteMessage(remote: RemoteMessage, c: MessageCandidates, userId: string): MessagePlan {
  const existing = c.byKey;
  const textMatch = existing ? undefined : findTextMatch(remote, c.confirmedCopies, userId);
  const merged = mergeMessage(remote, existing);
  if (merged === null) return { put: null, remove: [] };
  // A server row is always stored under its own key, so a later delivery finds it by key alone.
  const put = merged.key === messageKeyOf(remote) ? merged : { ...merged, key: messageKeyOf(remote) };
  const remove = new Set<string>();
  if (existing && existing.key !== put.key) remove.add(existing.key);
  if (textMatch) remove.add(textMatch.key);
  for (const x of c.byExternalId) if (x.key !== put.key && x.origin !== 'server') remove.add(x.key);
  return { put, remove: [...remove] };
}

/**
 * R3.5: copies to drop. Only copies the server already confirmed (and provisional external copies) go
 * after the keep time; a sending or failed message is the user's text and is never dropped (invariant 1).
 */
export function expiredCopies(messages: LocalMessage[], now: number): string[] {
  return messages
    .filter((m) => m.serverId === null && m.state === 'sent' && m.origin !== 'server' && m.confirmedAt !== null && now - m.confirmedAt > OPTIMISTIC_KEEP_MS)
    .map((m) => m.key);
}
