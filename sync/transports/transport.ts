// R6: every source of server news behind one interface. A transport reports its status and events;
// it never writes IndexedDB itself (events.ts does, and decides when a pull is needed).
import type { RemoteTable } from '../model/remote-types.ts';

/**
 * 'degraded' (R6.9): joined, but the server says it cannot deliver changes for now (Supabase
 * Realtime's `system` message: postgres_changes, status error); 'connected' again once it says so.
 */
export type TransportStatus = 'idle' | 'connecting' | 'connected' | 'degraded' | 'disconnected' | 'error' | 'closed';

/** A message seen on Chatwoot's socket before (or instead of) its database row. */
export interface ExternalMessage {
  chatwootMessageId: string;
  chatwootConversationId: string;
  text: string;
  direction: string;
  correlationId: string | null;
  createdAtMs: number;
  type: string;
}

export type TransportEvent =
  /** `joinedIn`: the feed generation its channel joined in (receive/rows-across-resets.ts; R9.18, R9.20). */
  | { kind: 'row'; table: RemoteTable; op: 'INSERT' | 'UPDATE' | 'DELETE'; record: unknown; oldRecord: unknown; joinedIn?: number }
  | { kind: 'external-message'; message: ExternalMessage }
  | { kind: 'typing'; chatwootConversationId: string; on: boolean }
  /** Something changed; the rows come with the next pull. */
  | { kind: 'changed' }
  /** R18.4: the database announced feed number `changeSeq` of `accountId` (Broadcast from the database). */
  | { kind: 'feed'; accountId: string; changeSeq: number }
  /** The polling transport's turn to pull. */
  | { kind: 'poll' };

export interface TransportHandlers {
  onEvent(event: TransportEvent): void;
  onStatus(status: TransportStatus, detail?: string): void;
}

export interface Transport {
  readonly name: string;
  subscribe(handlers: TransportHandlers): void;
  status(): TransportStatus;
  close(): Promise<void>;
}

/** Shared bookkeeping of status for transport implementations. */
export function statusCell(initial: TransportStatus = 'idle') {
  let current = initial;
  let handlers: TransportHandlers | null = null;
  return {
    get: () => current,
    attach(h: TransportHandlers) {
      handlers = h;
    },
    set(next: TransportStatus, detail?: string) {
      if (current === 'closed') return;
      current = next;
      if (detail === undefined) handlers?.onStatus(next);
      else handlers?.onStatus(next, detail);
    },
    emit(e: TransportEvent) {
      if (current !== 'closed') handlers?.onEvent(e);
    },
    close() {
      current = 'closed';
      handlers = null;
    },
  };
}
