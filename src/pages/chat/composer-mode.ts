// What the chat's composer may do (Composer's modes), decided from what the device knows of the
// conversation. A pure function so that the order in which the chat's live queries answer cannot
// turn into a mode by accident.
import type { ComposerMode } from './Composer.tsx';
import type { MissingVerdict } from './use-missing-verdict.ts';

export interface ComposerFacts {
  /** The conversation row as read from the store; undefined while not read or not there. */
  conversation: { status: string } | undefined;
  /** Whether the store has answered for the conversation row at least once. */
  conversationRead: boolean;
  /** What the chat says of a conversation the device does not hold ('loading' while it may still come). */
  verdict: MissingVerdict;
  /** The engine that sends is there (or the online-only build, which needs none). */
  canSend: boolean;
  /** The AI is answering the member's latest message (R13). */
  answering: boolean;
}

/**
 * No conversation locally: nothing to send into (issue 21 item 7). While it is still being read or
 * may still arrive, 'loading': typing goes on and a send waits for it. Only once the chat knows it
 * will not come (not found, not downloaded) is it 'missing'. The messages' query can answer before
 * the conversation's after the pull that brought both (separate live queries): messages without
 * their conversation row are such an arrival, never a verdict (the verdict is 'loading' then, as the
 * chat is not missing), so a send asked for meanwhile is kept (a clean-clone run of 2026-11-30 lost
 * one that way: 'missing' for a render, and the deferred send dropped).
 */
export function composerMode(f: ComposerFacts): ComposerMode {
  if (f.conversation === undefined) return !f.conversationRead || f.verdict === 'loading' ? 'loading' : 'missing';
  if (f.conversation.status !== 'active') return 'completed';
  if (!f.canSend) return 'loading';
  return f.answering ? 'waiting' : 'ready';
}
