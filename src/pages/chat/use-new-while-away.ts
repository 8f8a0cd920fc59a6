// Jump to the newest (issue 40): whether the reader has left the bottom of the chat, and how many
// messages arrived since. The count is of the messages after the one that was newest when they
// left, own ones aside (an own send scrolls down anyway), so a batch arriving at once counts whole
// and older history loaded above does not count at all.
import { useCallback, useMemo, useRef, useState } from 'react';
import type { LocalMessage } from '../../../sync/model/local-types.ts';
import { isOwn } from './message-kinds.ts';

export interface NewWhileAway {
  /** True while the reader is not at the bottom. */
  away: boolean;
  /** Messages of the other side that arrived since the reader left the bottom. */
  count: number;
  /** Told on every scroll whether the reader is at the bottom; renders only on a change. */
  setAtBottom: (atBottom: boolean) => void;
}

export function useNewWhileAway(messages: readonly LocalMessage[]): NewWhileAway {
  // The newest message's key when the reader left the bottom ('' for an empty chat), null at the bottom.
  const [awayFrom, setAwayFrom] = useState<string | null>(null);
  const latest = useRef(messages);
  latest.current = messages;
  const setAtBottom = useCallback((atBottom: boolean) => {
    setAwayFrom((prev) => {
      if (atBottom) return null;
      return prev ?? latest.current[latest.current.length - 1]?.key ?? '';
    });
  }, []);
  const count = useMemo(() => {
    if (awayFrom === null) return 0;
    let n = 0;
    for (let i = messages.length - 1; i >= 0; i--) {
      const m = messages[i]!;
      if (m.key === awayFrom) return n;
      if (!isOwn(m) && m.direction !== 'system') n++;
    }
    return 0; // the message they left at is not loaded (another window): nothing known to be new
  }, [messages, awayFrom]);
  return { away: awayFrom !== null, count, setAtBottom };
}
