// "A message the user just sent reached the server": the chat (data/use-chat.ts) says so here once
// its own send turns 'sent' (never for a queued or refused one, issue 37), and the notifications
// prompt (push-bridge.tsx, R11.1) listens. A signal from the user's own action, not a database count: an
// early send (R1.12) can go from written to sent between two reads of a live query, and a pull of
// the user's messages from another device is no action of theirs.
const EVENT = 'poradna:own-message-sent';

export function announceSent(): void {
  window.dispatchEvent(new Event(EVENT));
}

export function onSent(fn: () => void): () => void {
  window.addEventListener(EVENT, fn);
  return () => window.removeEventListener(EVENT, fn);
}
