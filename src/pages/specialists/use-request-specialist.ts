// 'Požiadať o špecialistu': the engine sends 'Mám záujem o vytvorenie projektu s {name}' to the
// assistant's conversation (starting it first if needed); then that chat, and 'Žiadosť odoslaná {name}'
// once the message is sent (request-delivery.ts), not while it still says 'Odosiela sa…'.
import { useCallback } from 'react';
import { useNavigate } from 'react-router-dom';
import { TEXT_REQUEST_NO_ACCOUNT } from '../../../sync/model/texts.ts';
import { useSyncEngine } from '../../data/sync-context.ts';
import { toastError, toastInfo, toastSuccess } from '../../lib/notify.ts';
import { sk } from '../../text/sk.ts';
import { requestDelivery } from './request-delivery.ts';

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
        void requestDelivery(engine.db, conversationId, name, since).then((d) => {
          if (d === 'sent') toastSuccess(sk.specialists.requestSent(name));
          else if (d === 'failed') toastError(sk.toast.errorTitle, sk.specialists.requestFailed);
          else toastInfo(sk.specialists.requestQueued(name));
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
