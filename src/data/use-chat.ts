// What the chat screen reads and how it sends: from IndexedDB through the sync engine, or in the
// online-only baseline build from the server (online-only/). The choice is a build-time constant.
import { useCallback } from 'react';
import { conversation as conversationQuery, messages as messagesQuery } from '../../sync/queries.ts';
import type { LocalConversation, LocalMessage } from '../../sync/local-types.ts';
import { ONLINE_ONLY } from './online-only/flag.ts';
import { useOnlineChat } from './online-only/use-online-chat.ts';
import { useSyncEngine } from './sync-context.ts';
import { useSyncQuery } from './use-sync-query.ts';

export interface ChatData {
  conversation: LocalConversation | undefined;
  /** undefined until the first answer. */
  messages: LocalMessage[] | undefined;
  /** Resolves true once the message is stored (locally, or sent in the baseline). */
  send: (text: string) => Promise<boolean>;
}

function useLocalChat(conversationId: string): ChatData {
  const engine = useSyncEngine();
  const conversation = useSyncQuery((db) => conversationQuery(db, conversationId), [conversationId])?.value;
  const messages = useSyncQuery((db) => messagesQuery(db, conversationId), [conversationId])?.value;
  const send = useCallback(
    async (text: string) => {
      if (!engine) return false;
      return (await engine.commands.sendMessage({ conversationId, text })) !== null;
    },
    [engine, conversationId],
  );
  return { conversation, messages, send };
}

export const useChat: (conversationId: string) => ChatData = ONLINE_ONLY ? useOnlineChat : useLocalChat;
