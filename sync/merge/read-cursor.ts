// R2.5: read cursors only move forward; a local move waits for the server, and is undone when the
// server refuses it for good. Pure.
import type { LocalReadCursor } from '../model/local-types.ts';
import type { RemoteReadCursor } from '../model/remote-types.ts';
import { normalizeTimestamp } from '../model/timestamps.ts';

export function emptyCursor(conversationId: string): LocalReadCursor {
  return {
    conversationId,
    messageId: null,
    orderKey: '',
    lastReadAt: null,
    changeSeq: 0,
    pending: 0,
    serverMessageId: null,
    serverOrderKey: '',
  };
}

/**
 * `remoteOrderKey` is the orderKey of the remote cursor's message ('' when that message is not stored
 * yet; the summary step resolves it later). Returns null when nothing changes.
 */
export function mergeReadCursor(remote: RemoteReadCursor, local: LocalReadCursor | undefined, remoteOrderKey: string): LocalReadCursor | null {
  const base = local ?? emptyCursor(remote.conversation_id);
  if (local && local.changeSeq >= remote.change_seq) return null;
  const serverAhead = remoteOrderKey === '' ? base.messageId === null || !base.pending : remoteOrderKey >= base.orderKey;
  const next: LocalReadCursor = {
    ...base,
    changeSeq: remote.change_seq,
    serverMessageId: remote.last_read_message_id,
    serverOrderKey: remoteOrderKey,
    lastReadAt: remote.last_read_at === null ? base.lastReadAt : normalizeTimestamp(remote.last_read_at),
  };
  if (serverAhead) {
    next.messageId = remote.last_read_message_id;
    next.orderKey = remoteOrderKey;
    // The server reached (or passed) what we queued: nothing of ours is pending any more.
    if (base.pending && remote.last_read_message_id === base.messageId) next.pending = 0;
  }
  return next;
}

/** A local move forward (markRead); null when `orderKey` is not ahead of the current position. */
export function moveCursor(local: LocalReadCursor | undefined, conversationId: string, messageId: string, orderKey: string): LocalReadCursor | null {
  const base = local ?? emptyCursor(conversationId);
  if (base.orderKey !== '' && base.orderKey >= orderKey) return null;
  return { ...base, messageId, orderKey, pending: 1 };
}

/** The server refused the move for good: back to the server's position. */
export function revertCursor(local: LocalReadCursor): LocalReadCursor {
  return { ...local, messageId: local.serverMessageId, orderKey: local.serverOrderKey, pending: 0 };
}
