// Mounted once in the signed-in area (SignedInArea): the page's standing duties for notifications.
// - R11.2 re-register this device on every app open (when permission is granted and not turned off);
// - R11.5 the app badge = the total unread of the local database, cleared at 0;
// - R11.7 tell the server which chat is visible (push-viewing.ts);
// - R11.8 after the user's first sent message, one small non-blocking prompt to turn notifications
//   on (its button is the user action that may ask for permission); never on load.
import { useEffect } from 'react';
import { useLocation } from 'react-router-dom';
import { toast } from 'sonner';
import { useSyncQuery } from '../data/use-sync-query.ts';
import { totalUnread } from '../../sync/queries.ts';
import { applyBadge } from '../../sw/push.ts';
import { capability, enablePush, PUSH_ASKED_KEY, readPlatform, registerOnOpen } from './push.ts';
import { pushText } from './push-texts.ts';
import { chatOfPath, watchViewing } from './push-viewing.ts';
import { onSent } from './sent-signal.ts';

const PROMPT_MS = 15_000;

export function PushBridge() {
  const { pathname } = useLocation();
  const chat = chatOfPath(pathname);

  useEffect(() => {
    registerOnOpen().catch((err: unknown) => console.warn('push register:', err));
  }, []);

  useEffect(() => watchViewing(chat), [chat]);

  const unread = useSyncQuery(totalUnread, [])?.value;
  useEffect(() => {
    if (unread !== undefined) void applyBadge(navigator, unread);
  }, [unread]);

  useEffect(() => onSent(maybePrompt), []);

  return null;
}

function maybePrompt(): void {
  const p = readPlatform();
  if (localStorage.getItem(PUSH_ASKED_KEY) || capability(p) !== 'ok' || p.permission !== 'default') return;
  localStorage.setItem(PUSH_ASKED_KEY, '1');
  toast(pushText.prompt, {
    id: 'push-prompt',
    description: pushText.promptHint,
    duration: PROMPT_MS,
    action: {
      label: pushText.promptYes,
      onClick: () => {
        enablePush()
          .then((s) => {
            if (s === 'on') toast.success(pushText.turnedOn);
            else if (s === 'blocked') toast.info(pushText.refused, { description: pushText.hint.blocked });
          })
          .catch((err: unknown) => {
            console.warn('push enable:', err);
            toast.error(pushText.failed);
          });
      },
    },
    cancel: { label: pushText.promptNo, onClick: () => undefined },
  });
}
