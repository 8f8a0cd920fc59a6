// Whether the AI specialist is answering: the engine's typing start (set when the user sends to an AI
// specialist, cleared when its message arrives) within the UI timeout of 30 s.
import { useEffect, useState } from 'react';
import { typing } from '../../../sync/queries.ts';
import { SPEC_TIMINGS } from '../../../sync/model/constants.ts';
import { useSyncQuery } from '../../data/use-sync-query.ts';

export function useAiTyping(conversationId: string, isAi: boolean): boolean {
  const row = useSyncQuery((db) => typing(db, conversationId), [conversationId]);
  const startedAt = row?.value?.startedAt ?? null;
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    if (startedAt === null) return;
    const left = startedAt + SPEC_TIMINGS.typingTimeoutMs - Date.now();
    if (left <= 0) return;
    const timer = setTimeout(() => setNow(Date.now()), left + 10);
    return () => clearTimeout(timer);
  }, [startedAt]);
  return isAi && startedAt !== null && Math.max(now, Date.now()) - startedAt < SPEC_TIMINGS.typingTimeoutMs;
}
