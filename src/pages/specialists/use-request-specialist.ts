// 'Požiadať o špecialistu': the engine sends 'Mám záujem o vytvorenie projektu s {name}' to the
// assistant's conversation (starting it first if needed); then that chat, and 'Žiadosť odoslaná {name}'
// once the message is sent (request-delivery.ts), not while it still says 'Odosiela sa…'; a request that
// waited is told 'waits' first and 'sent' when it goes out.
import { useCallback } from 'react';
import { useNavigate } from 'react-router-dom';
import { TEXT_REQUEST_NO_ACCOUNT } from '../../../sync/model/texts.ts';
import { type PendingReason, pendingReason } from '../../../sync/views.ts';
import { useSyncEngine } from '../../data/sync-context.ts';
import { toastError, toastInfo, toastSuccess } from '../../lib/notify.ts';
import { sk } from '../../text/sk.ts';
import { watchRequestDelivery } from './request-delivery.ts';

/** R9.5's reasons, said of the request: offline, signed out, or online with a slow server. */
function queuedText(reason: PendingReason, name: string): string {
  if (reason === 'network') return sk.specialists.requestQueued(name);
  if (reason === 'sign-in') return sk.specialists.requestQueuedSignIn(name);
  return sk.specialists.requestSlow(name);
}

export function useRequestSpecialist(): (name: string) => Promise<boolean> {
  const engine = useSyncEngine();
  const navigate = useNavigate();
  return useCallback(
    async (name: string) => {
      try {
        if (!engine || engine.accountId() === null) throw new Error(TEXT_REQUEST_NO_ACCOUNT);
        const since = Date.now();
        const pending = await engine.commands.requestSpecialist({ name });
        const conversationId = pending.conversationId ?? (await pending.done).conversationId;
        await navigate(`/app/chats/${encodeURIComponent(conversationId)}`);
        // One toast id: a request that waited has its 'it waits' toast turned into the outcome.
        const id = `request-${conversationId}-${since}`;
        watchRequestDelivery(engine.db, conversationId, name, since, (d) => {
          if (d === 'sent') toastSuccess(sk.specialists.requestSent(name), { id });
          else if (d === 'failed') toastError(sk.toast.errorTitle, sk.specialists.requestFailed, { id });
          else toastInfo(queuedText(pendingReason(engine.status()), name), { id });
        });
        return true;
      } catch (err) {
        console.warn('request specialist:', err);
        const noAccount = err instanceof Error && err.message === TEXT_REQUEST_NO_ACCOUNT;
        toastError(sk.toast.errorTitle, noAccount ? sk.specialists.noAccount : sk.specialists.requestFailed);
        return false;
      }
    },
    [engine, navigate],
  );
}
