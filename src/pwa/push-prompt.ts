// R11.8's prompt as state, not a floating toast (issue 37): the chat shows it in its own row between
// the messages and the composer (pages/chat/PushPromptCard.tsx), so it never covers the latest
// messages, their status or the composer, whatever the chat's length or the screen's size.
// Offered by push-bridge.tsx once a send reached the server, online; gone when answered or after
// PROMPT_MS, as the toast was.
import { useSyncExternalStore } from 'react';
import { toast } from 'sonner';
import { enablePush } from './push.ts';
import { pushText } from './push-texts.ts';

export const PROMPT_MS = 15_000;

let shown = false;
let timer: ReturnType<typeof setTimeout> | undefined;
const listeners = new Set<() => void>();

function set(next: boolean): void {
  if (shown === next) return;
  shown = next;
  for (const fn of listeners) fn();
}

export function offerPushPrompt(): void {
  clearTimeout(timer);
  set(true);
  timer = setTimeout(() => set(false), PROMPT_MS);
}

export function dismissPushPrompt(): void {
  clearTimeout(timer);
  set(false);
}

/** 'Zapnúť': the user's action that may ask the browser for permission. */
export function acceptPushPrompt(): void {
  dismissPushPrompt();
  enablePush()
    .then((s) => {
      if (s === 'on') toast.success(pushText.turnedOn);
      else if (s === 'blocked') toast.info(pushText.refused, { description: pushText.hint.blocked });
    })
    .catch((err: unknown) => {
      console.warn('push enable:', err);
      toast.error(pushText.failed);
    });
}

function subscribe(fn: () => void): () => void {
  listeners.add(fn);
  return () => listeners.delete(fn);
}

export function usePushPromptShown(): boolean {
  return useSyncExternalStore(subscribe, () => shown, () => false);
}
