// Starts (or reopens) a conversation with a specialist through the engine, then opens it. Toasts per
// user-area.md section 8: 'Pokračujeme v existujúcej konverzácii' when the server reopened an existing
// one, 'Chyba' / 'Nepodarilo sa spustiť konverzáciu. Skúste to znova.' when it failed.
import { useCallback, useEffect, useRef } from 'react';
import { useNavigate } from 'react-router-dom';
import type { StartInput } from '../../sync/commands/start-conversation.ts';
import type { SyncEngine } from '../../sync/engine.ts';
import { toastError, toastSuccess } from '../lib/notify.ts';
import { sk } from '../text/sk.ts';
import { START_GIVE_UP_MS, startWithDeadline } from './start-deadline.ts';
import { useSyncEngine } from './sync-context.ts';

/**
 * The engine as it comes: a click on 'Chatovať' right after the page loads can come before the
 * engine's code has loaded (the cards paint from the database opened early, sync-context.ts). That
 * click waits for it, its button busy as for any start, rather than fail at once with 'Nepodarilo
 * sa spustiť konverzáciu' (a clean-clone run of 2026-11-30 clicked 470 ms after the page's load and
 * got that toast). It gives up as a start does, after START_GIVE_UP_MS.
 */
function useEngineWhenReady(): () => Promise<SyncEngine | null> {
  const engine = useSyncEngine();
  const current = useRef(engine);
  const waiters = useRef<((e: SyncEngine | null) => void)[]>([]);
  useEffect(() => {
    current.current = engine;
    if (engine) for (const wake of waiters.current.splice(0)) wake(engine);
  }, [engine]);
  // Unmounted (the member left the page): nobody waits any more; this component no longer sees the engine come.
  useEffect(() => () => waiters.current.splice(0).forEach((wake) => wake(null)), []);
  return useCallback(() => {
    if (current.current) return Promise.resolve(current.current);
    return new Promise<SyncEngine | null>((resolve) => {
      const wake = (e: SyncEngine | null) => {
        clearTimeout(timer);
        resolve(e);
      };
      const timer = setTimeout(() => {
        waiters.current = waiters.current.filter((w) => w !== wake);
        resolve(null);
      }, START_GIVE_UP_MS);
      waiters.current.push(wake);
    });
  }, []);
}

/**
 * A member who leaves the page (the button's component unmounts) while a start waits has left the
 * start too: one still waiting for the engine is not made at all, and one already asked of the server
 * ends without pulling the member into the chat or toasting over the page they went to (the
 * conversation, if made, is in their list).
 */
export function useStartConversation(): (input: StartInput) => Promise<boolean> {
  const engineReady = useEngineWhenReady();
  const navigate = useNavigate();
  const left = useRef(false);
  useEffect(() => {
    left.current = false;
    return () => {
      left.current = true;
    };
  }, []);
  return useCallback(
    async (input: StartInput) => {
      try {
        const engine = await engineReady();
        if (left.current) return false;
        if (!engine) throw new Error('sync engine not ready');
        const pending = await engine.commands.startConversation(input);
        // Gives up (and withdraws the request) rather than wait for the outbox's retries: the user
        // is at the button now, and must not be pulled into the chat later unasked.
        const outcome = await startWithDeadline(engine, pending.requestId, pending.done);
        if (left.current) return true;
        if (!outcome.created) toastSuccess(sk.card.existingTitle, { description: sk.card.existing });
        await navigate(`/app/chats/${encodeURIComponent(outcome.conversationId)}`);
        return true;
      } catch (err) {
        console.warn('start-conversation:', err);
        if (!left.current) toastError(sk.toast.errorTitle, sk.card.startFailed);
        return false;
      }
    },
    [engineReady, navigate],
  );
}
