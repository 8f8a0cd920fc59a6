// Marks the conversation read up to its newest server message whenever the message list changes
// (user-area.md section 4); optimistic copies are skipped. The engine only moves the cursor forward.
// A new newest message that passes nothing but user messages since the last read asked (the user's
// own send, a colleague's or another device's message) is not asked again: the engine would not move
// the cursor for it (R1.7), and asking costs a read-write transaction over every sync table on each
// send and arrival (issue 19's receiver profile: ~3 ms of main thread each).
import { useEffect, useRef } from 'react';
import type { LocalMessage } from '../../../sync/model/local-types.ts';
import type { SyncEngine } from '../../../sync/engine.ts';

/** The newest message the server stored: what the chat is marked read up to (optimistic copies are skipped). */
export function lastServerMessage(messages: readonly LocalMessage[]): LocalMessage | null {
  for (let i = messages.length - 1; i >= 0; i--) {
    const m = messages[i]!;
    if (m.serverId !== null && m.origin === 'server') return m;
  }
  return null;
}

/** Where the last answered read was asked up to, and how many counted messages lay at or before it then. */
export interface AskedRead {
  orderKey: string;
  counted: number;
}

const counted = (m: LocalMessage) => m.direction !== 'user';

/** How many messages other than users' lie at or before `orderKey`. */
export function countedUpTo(messages: readonly LocalMessage[], orderKey: string): number {
  let n = 0;
  for (const m of messages) if (m.orderKey <= orderKey && counted(m)) n++;
  return n;
}

/**
 * Whether a read up to `target` may move the cursor past what the read `asked` covered: some message
 * other than a user's lies in (asked, target], or one appeared at or before it since (a late reply
 * with an earlier position, which the cursor may not have passed — R1.7). Null `asked`: always.
 */
export function readPassesMore(messages: readonly LocalMessage[], asked: AskedRead | null, target: LocalMessage): boolean {
  if (asked === null) return true;
  for (let i = messages.length - 1; i >= 0; i--) {
    const m = messages[i]!;
    if (m.orderKey <= asked.orderKey) break;
    if (m.orderKey <= target.orderKey && counted(m)) return true;
  }
  return countedUpTo(messages, asked.orderKey) !== asked.counted;
}

export function useMarkRead(engine: SyncEngine | null, conversationId: string, messages: readonly LocalMessage[] | undefined): void {
  const target = messages ? (lastServerMessage(messages)?.serverId ?? null) : null;
  const asked = useRef<AskedRead | null>(null);
  // The list as of this render, for the effect below (which runs only when the target changes).
  const shown = useRef(messages);
  shown.current = messages;
  useEffect(() => {
    const list = shown.current;
    const m = list ? lastServerMessage(list) : null;
    if (!engine || target === null || !m || !list) return;
    if (!readPassesMore(list, asked.current, m)) return;
    const done: AskedRead = { orderKey: m.orderKey, counted: countedUpTo(list, m.orderKey) };
    // Answered either way, everything up to the target is covered: the cursor moved there, was
    // already past it, or passed only user messages (R1.7). The target is stored: a realtime copy is
    // painted before its write commits, but the engine asks for that write's transaction before it
    // hands the copy over (R6.6), so IndexedDB runs this read after it.
    engine.commands.markRead(conversationId, target).then(
      () => {
        if (asked.current === null || done.orderKey > asked.current.orderKey) asked.current = done;
      },
      (err: unknown) => console.warn('mark read:', err),
    );
  }, [engine, conversationId, target]);
}
