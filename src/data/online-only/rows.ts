// Server rows (PostgREST JSON) into the same Local* shapes the screens render, through the sync
// engine's own pure parsers and merges, so both builds draw identical bubbles and rows.
import { mergeConversation } from '../../../sync/merge/conversation.ts';
import { lastMessageOf } from '../../../sync/merge/summary.ts';
import { fromRemoteMessage, messageKeyOf } from '../../../sync/merge/message.ts';
import { laterOf } from '../../../sync/model/ordering.ts';
import { parseConversation, parseMessage } from '../../../sync/receive/parse-remote.ts';
import type { LocalConversation, LocalMessage } from '../../../sync/model/local-types.ts';

export function localMessage(row: unknown): LocalMessage {
  const r = parseMessage(row);
  return fromRemoteMessage(r, messageKeyOf(r));
}

/** A conversation row with its specialist and (optionally) its newest message embedded. */
export function localConversation(row: unknown, last: unknown): LocalConversation {
  const c = mergeConversation(parseConversation(row), undefined, null)!;
  if (last === undefined || last === null) return c;
  const m = localMessage(last);
  return { ...c, lastMessage: lastMessageOf(m), sortAt: laterOf(c.lastMessageAt, m.createdAt) ?? c.createdAt };
}
