// 'Požiadať o špecialistu': the engine sends 'Mám záujem o vytvorenie projektu s {name}' to the
// assistant's conversation (starting it first if needed); then 'Žiadosť odoslaná {name}' and that chat.
import { useCallback } from 'react';
import { useNavigate } from 'react-router-dom';
import { TEXT_REQUEST_NO_ACCOUNT } from '../../../sync/texts.ts';
import { useSyncEngine } from '../../data/sync-context.ts';
import { toastError, toastSuccess } from '../../lib/notify.ts';
import { sk } from '../../text/sk.ts';

export function useRequestSpecialist(): (name: string) => Promise<boolean> {
  const engine = useSyncEngine();
  const navigate = useNavigate();
  return useCallback(
    async (name: string) => {
      try {
        if (!engine || engine.accountId() === null) throw new Error(TEXT_REQUEST_NO_ACCOUNT);
        const pending = await engine.commands.requestSpecialist({ name });
        const conversationId = pending.conversationId ?? (await pending.done).conversationId;
        toastSuccess(sk.specialists.requestSent(name));
        await navigate(`/app/chats/${encodeURIComponent(conversationId)}`);
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
