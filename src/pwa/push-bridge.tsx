// Mounted once in the signed-in area (SignedInArea): the page's standing duties for notifications.
// - R11.2 re-register this device on every app open (when permission is granted and not turned off);
// - R11.5 the app badge = the total unread of the local database, cleared at 0;
// - R11.7 tell the server which chat is visible (push-viewing.ts);
// - R11.8 after the user's first sent message, one small non-blocking prompt to turn notifications
//   on (its button is the user action that may ask for permission); never on load. Issue 37: only
//   once that message reached the server and while online ('Zapnúť' needs the push service), shown
//   by the chat in its own row (push-prompt.ts), never over the latest messages or the composer.
import { useEffect } from 'react';
import { useLocation } from 'react-router-dom';
import { useSyncQuery } from '../data/use-sync-query.ts';
import { totalUnread } from '../../sync/queries.ts';
import { applyBadge } from '../../sw/push.ts';
import { capability, PUSH_ASKED_KEY, readPlatform, registerOnOpen } from './push.ts';
import { chatOfPath, watchViewing } from './push-viewing.ts';
import { onSent } from './sent-signal.ts';

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
  if (!navigator.onLine || localStorage.getItem(PUSH_ASKED_KEY) || capability(p) !== 'ok' || p.permission !== 'default') return;
  localStorage.setItem(PUSH_ASKED_KEY, '1');
  // Fetched here, not with the list (bench row 8a): a send happens in the chat, whose chunk already
  // holds push-prompt.ts (PushPromptCard), so the import resolves from memory.
  void import('./push-prompt.ts').then((m) => m.offerPushPrompt());
}
