// A fresh fake-indexeddb database per test, and a command context over it.
import { IDBFactory, IDBKeyRange } from 'fake-indexeddb';
import { randomUUID } from 'node:crypto';
import type { CommandContext } from '../../../../sync/commands/context.ts';
import { openUserDb } from '../../../../sync/db/open.ts';
import type { SyncDb } from '../../../../sync/db/schema.ts';
import type { LocalConversation } from '../../../../sync/model/local-types.ts';

export async function freshDb(userId = 'user-1'): Promise<{ db: SyncDb; idb: { indexedDB: IDBFactory; IDBKeyRange: typeof IDBKeyRange } }> {
  const idb = { indexedDB: new IDBFactory(), IDBKeyRange };
  return { db: await openUserDb(userId, idb), idb };
}

export function commandContext(db: SyncDb, opts: { userId?: string; accountId?: string | null; now?: () => number } = {}): CommandContext & { notified: number } {
  const ctx = {
    db,
    userId: opts.userId ?? 'user-1',
    accountId: () => (opts.accountId === undefined ? 'acc-1' : opts.accountId),
    now: opts.now ?? (() => Date.parse('2025-01-01T12:00:00Z')),
    newId: () => randomUUID(),
    notified: 0,
    notify: () => {
      ctx.notified++;
    },
  };
  return ctx;
}

/** A local conversation row as a merge stores it (active, nothing read, no specialist loaded), with `over` on top. */
export function conversationRow(over: Partial<LocalConversation> & Pick<LocalConversation, 'id' | 'accountId'>): LocalConversation {
  const at = over.createdAt ?? '2026-11-24T10:00:00.000Z';
  return {
    specialistId: 'sp-1',
    status: 'active',
    lastMessageAt: null,
    archivedAt: null,
    serverArchivedAt: null,
    pendingArchive: 0,
    archived: 0,
    chatwootConversationId: null,
    createdAt: at,
    updatedAt: at,
    changeSeq: 1,
    specialist: null,
    lastMessage: null,
    unreadCount: 0,
    sortAt: at,
    ...over,
  };
}
