// Marks the conversation read up to its newest server message whenever the message list changes
// (user-area.md section 4); optimistic copies are skipped. The engine only moves the cursor forward.
import { useEffect } from 'react';
import type { LocalMessage } from '../../../sync/model/local-types.ts';
import type { SyncEngine } from '../../../sync/engine.ts';

export function lastServerMessageId(messages: readonly LocalMessage[]): string | null {
  for (let i = messages.length - 1; i >= 0; i--) {
    const m = messages[i]!;
    if (m.serverId !== null && m.origin === 'server') return m.serverId;
  }
  return null;
}

export function useMarkRead(engine: SyncEngine | null, conversationId: string, messages: readonly LocalMessage[] | undefined): void {
  const target = messages ? lastServerMessageId(messages) : null;
  useEffect(() => {
    if (!engine || target === null) return;
    engine.commands.markRead(conversationId, target).catch((err: unknown) => console.warn('mark read:', err));
  }, [engine, conversationId, target]);
}
