// The conversation list the chats screens render: from IndexedDB, or in the online-only baseline
// build from the server (online-only/). The choice is a build-time constant.
import { conversationList, type ConversationListOptions } from '../../sync/queries.ts';
import type { LocalConversation } from '../../sync/model/local-types.ts';
import { ONLINE_ONLY } from './online-only/flag.ts';
import { useOnlineConversationList } from './online-only/use-online-list.ts';
import { useSyncQuery, type QueryResult } from './use-sync-query.ts';

function useLocalConversationList({ archived, q, filter }: Required<ConversationListOptions>): QueryResult<LocalConversation[]> | undefined {
  return useSyncQuery((db) => conversationList(db, { archived, q, filter }), [archived, q, filter]);
}

export const useConversationList: (opts: Required<ConversationListOptions>) => QueryResult<LocalConversation[]> | undefined = ONLINE_ONLY
  ? useOnlineConversationList
  : useLocalConversationList;
