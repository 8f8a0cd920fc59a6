// R2.9: the message the chat opens at (issue 21 item 14: the 'Nové správy' divider goes above it),
// fixed when the chat opens so that reading it (use-mark-read.ts) does not move it. Found by R2.8
// in the list shown, from the read cursor's place, never from the conversation's unread count: a
// backlog's summaries lag its stored messages (R19.6), and a short count named a message in the
// middle of a chat opened during an initial sync, which then never showed its newest page (R17.5).
import { useEffect, useRef, useState } from 'react';
import type { LocalMessage } from '../../../sync/model/local-types.ts';
import { firstUnreadKey, readPosition } from '../../../sync/queries.ts';
import { useSyncDb } from '../../data/sync-context.ts';

/**
 * undefined until the chat's first messages and its read cursor are both here; then the key of the
 * first unread message, or null (open at the newest: nothing unread, or the first row is). Without a local store (the online-only
 * baseline) there is no cursor to read: null.
 */
export function useFirstUnread(conversationId: string, list: readonly LocalMessage[] | undefined): string | null | undefined {
  const db = useSyncDb();
  // Read once per chat, as it opens: the screen's own read mark is a later transaction, so this
  // read sees the cursor from before it (IndexedDB orders overlapping transactions by creation).
  const [position, setPosition] = useState<{ conversationId: string; at: string } | null>(null);
  useEffect(() => {
    if (!db) return;
    let live = true;
    void readPosition(db, conversationId).then(
      (at) => live && setPosition({ conversationId, at }),
      () => live && setPosition({ conversationId, at: '\uffff' }), // unreadable: open at the newest
    );
    return () => {
      live = false;
    };
  }, [db, conversationId]);
  const fixed = useRef<string | null | undefined>(undefined);
  if (fixed.current === undefined && list !== undefined && list.length > 0) {
    if (!db) fixed.current = null;
    else if (position?.conversationId === conversationId) {
      // The list's first row: the chat opens at its newest (MessageList), and no divider is due; one
      // kept on it would show above that message once a backlog brought the older history before it.
      const key = firstUnreadKey(list, position.at);
      fixed.current = key === list[0]!.key ? null : key;
    }
  }
  return fixed.current;
}
