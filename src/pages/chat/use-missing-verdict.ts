// What the chat says about a conversation the device does not hold (issue 37, item 6), decided as
// soon as the device knows instead of after a fixed wait:
// - offline: it is not downloaded on this device (nothing more can be known);
// - online, once the store has been pulled: the server is asked; absent there (a wrong, deleted or
//   another account's id) → 'not found' at once; present → it is on its way, keep loading;
// - the server could not answer: 'not found' only after the old grace period, as before.
import { useEffect, useState } from 'react';
import type { SyncStatus } from '../../../sync/status.ts';
import { conversationOnServer } from '../../data/conversation-on-server.ts';

export type MissingVerdict = 'loading' | 'not-found' | 'not-downloaded';

const UNANSWERED_GRACE_MS = 4000;

export function useMissingVerdict(conversationId: string, missing: boolean, status: SyncStatus): MissingVerdict {
  const offline = status.connection === 'offline';
  const [absent, setAbsent] = useState(false);
  const [graceOver, setGraceOver] = useState(false);
  const ask = missing && status.loaded && !offline;
  useEffect(() => {
    if (!ask) return;
    let live = true;
    conversationOnServer(conversationId).then(
      (present) => {
        if (live) setAbsent(!present);
      },
      (err: unknown) => {
        console.warn('conversation check:', err);
        if (live) setTimeout(() => live && setGraceOver(true), UNANSWERED_GRACE_MS);
      },
    );
    return () => {
      live = false;
    };
  }, [ask, conversationId]);
  if (!missing) return 'loading';
  if (offline) return 'not-downloaded';
  return status.loaded && (absent || graceOver) ? 'not-found' : 'loading';
}
