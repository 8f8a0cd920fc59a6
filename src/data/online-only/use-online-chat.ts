// The baseline's chat: the conversation and all its messages fetched when the screen mounts, new
// messages from a realtime INSERT subscription on this conversation (as the spec's app did), and
// sends straight to send_message with an optimistic bubble that the server row replaces (same key).
import { useCallback, useEffect, useState } from 'react';
import { orderKeyOf } from '../../../sync/model/ordering.ts';
import { timestampFromMs } from '../../../sync/model/timestamps.ts';
import type { LocalConversation, LocalMessage } from '../../../sync/model/local-types.ts';
import { supabase } from '../../supabase.ts';
import type { ChatData } from '../use-chat.ts';
import { fetchConversation, fetchMessages, sendOnline } from './fetch.ts';
import { localMessage } from './rows.ts';

function upsert(list: LocalMessage[] | undefined, m: LocalMessage): LocalMessage[] {
  const rest = (list ?? []).filter((x) => x.key !== m.key);
  rest.push(m);
  return rest.sort((a, b) => (a.orderKey < b.orderKey ? -1 : a.orderKey > b.orderKey ? 1 : 0));
}

const noPending = () => () => undefined;

export function useOnlineChat(conversationId: string): ChatData {
  const [conversation, setConversation] = useState<LocalConversation>();
  const [messages, setMessages] = useState<LocalMessage[]>();
  const [conversationRead, setConversationRead] = useState(false);
  useEffect(() => {
    let live = true;
    Promise.all([fetchConversation(conversationId), fetchMessages(conversationId)])
      .then(([c, list]) => {
        if (!live) return;
        if (c) setConversation(c);
        setMessages((early) => (early ? early.reduce(upsert, list) : list));
      })
      .catch((err: unknown) => console.warn('online chat:', err))
      .finally(() => live && setConversationRead(true));
    const channel = supabase
      .channel(`messages:${conversationId}`)
      .on('postgres_changes', { event: 'INSERT', schema: 'public', table: 'messages', filter: `conversation_id=eq.${conversationId}` }, (payload) => {
        if (live) setMessages((list) => upsert(list, localMessage(payload.new)));
      })
      .subscribe();
    return () => {
      live = false;
      void supabase.removeChannel(channel);
    };
  }, [conversationId]);

  const send = useCallback(
    async (text: string) => {
      const correlationId = crypto.randomUUID();
      const createdAt = timestampFromMs(Date.now());
      const optimistic: LocalMessage = {
        key: `c:${correlationId}`,
        serverId: null,
        conversationId,
        accountId: null,
        text,
        type: 'text',
        direction: 'user',
        source: 'app',
        chatwootMessageId: null,
        createdAt,
        orderKey: orderKeyOf(createdAt, correlationId),
        readAt: null,
        payload: null,
        correlationId,
        senderUserId: null,
        changeSeq: 0,
        state: 'sending',
        origin: 'optimistic',
        error: null,
        confirmedAt: null,
      };
      setMessages((list) => upsert(list, optimistic));
      try {
        const row = await sendOnline(conversationId, text, correlationId);
        setMessages((list) => upsert(list, row));
      } catch (err) {
        setMessages((list) => upsert(list, { ...optimistic, state: 'failed', error: err instanceof Error ? err.message : String(err) }));
      }
      return true;
    },
    [conversationId],
  );
  // This build sends no files (send-attachments.ts says so): nothing of the caller's to show.
  return { conversation, conversationRead, messages, send, showSending: noPending };
}
