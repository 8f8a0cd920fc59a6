// The baseline's conversation list: fetched when the screen mounts, filtered and searched in memory
// by the same rules as the local list; undefined until the server answered.
import { useEffect, useMemo, useState } from 'react';
import { matchesFilter, matchesSearch, type ConversationListOptions } from '../../../sync/queries.ts';
import { compareConversations } from '../../../sync/model/ordering.ts';
import type { LocalConversation } from '../../../sync/model/local-types.ts';
import type { QueryResult } from '../use-sync-query.ts';
import { fetchConversations } from './fetch.ts';

export function useOnlineConversationList(opts: Required<ConversationListOptions>): QueryResult<LocalConversation[]> | undefined {
  const [all, setAll] = useState<LocalConversation[]>();
  useEffect(() => {
    let live = true;
    fetchConversations()
      .then((rows) => live && setAll(rows))
      .catch((err: unknown) => console.warn('online list:', err));
    return () => {
      live = false;
    };
  }, []);
  const { archived, q, filter } = opts;
  return useMemo(() => {
    if (!all) return undefined;
    const rows = all.filter((c) => c.archived === (archived ? 1 : 0) && matchesFilter(c, filter) && matchesSearch(c, q)).sort(compareConversations);
    return { value: rows };
  }, [all, archived, q, filter]);
}
