// Starts (or reopens) a conversation with a specialist through the engine, then opens it. Toasts per
// user-area.md section 8: 'Pokračujeme v existujúcej konverzácii' when the server reopened an existing
// one, 'Chyba' / 'Nepodarilo sa spustiť konverzáciu. Skúste to znova.' when it failed.
import { useCallback } from 'react';
import { useNavigate } from 'react-router-dom';
import type { StartInput } from '../../sync/commands/start-conversation.ts';
import { toastError, toastSuccess } from '../lib/notify.ts';
import { sk } from '../text/sk.ts';
import { startWithDeadline } from './start-deadline.ts';
import { useSyncEngine } from './sync-context.ts';

export function useStartConversation(): (input: StartInput) => Promise<boolean> {
  const engine = useSyncEngine();
  const navigate = useNavigate();
  return useCallback(
    async (input: StartInput) => {
      try {
        if (!engine) throw new Error('sync engine not ready');
        const pending = await engine.commands.startConversation(input);
        // Gives up (and withdraws the request) rather than wait for the outbox's retries: the user
        // is at the button now, and must not be pulled into the chat later unasked.
        const outcome = await startWithDeadline(engine, pending.requestId, pending.done);
        if (!outcome.created) toastSuccess(sk.card.existingTitle, { description: sk.card.existing });
        await navigate(`/app/chats/${encodeURIComponent(outcome.conversationId)}`);
        return true;
      } catch (err) {
        console.warn('start-conversation:', err);
        toastError(sk.toast.errorTitle, sk.card.startFailed);
        return false;
      }
    },
    [engine, navigate],
  );
}
