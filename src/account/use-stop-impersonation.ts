import { useCallback } from 'react';
import { useNavigate } from 'react-router-dom';
import { toastSuccess } from '../lib/notify.ts';
import { skShell as sk } from '../text/sk-shell.ts';
import { stopImpersonation } from './stop-impersonation.ts';

/** Stops impersonating, says so ('Impersonácia zrušená') and returns to the chat list. */
export function useStopImpersonation(): () => Promise<void> {
  const navigate = useNavigate();
  return useCallback(async () => {
    await stopImpersonation();
    toastSuccess(sk.impersonation.cancelled);
    await navigate('/app/chats');
  }, [navigate]);
}
