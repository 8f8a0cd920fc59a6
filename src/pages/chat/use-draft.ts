// The composer text of one conversation, kept in sessionStorage as it is typed.
import { useCallback, useState } from 'react';
import { readDraft, writeDraft } from './drafts.ts';

export function useDraft(userId: string, conversationId: string): [string, (text: string) => void] {
  const [text, setText] = useState(() => readDraft(userId, conversationId));
  const update = useCallback(
    (next: string) => {
      setText(next);
      writeDraft(userId, conversationId, next);
    },
    [userId, conversationId],
  );
  return [text, update];
}
