import { describe, expect, it } from 'vitest';
import type { LocalMessage } from '../../../sync/model/local-types.ts';
import { emptyCursor, mergeReadCursor, moveCursor, revertCursor } from '../../../sync/merge/read-cursor.ts';
import type { RemoteReadCursor } from '../../../sync/model/remote-types.ts';
import { summarize, unreadCount } from '../../../sync/merge/summary.ts';

const rc = (p: Partial<RemoteReadCursor> = {}): RemoteReadCursor => ({
  user_id: 'u',
  conversation_id: 'c1',
  account_id: 'acc',
  last_read_message_id: 'm2',
  last_read_at: '2025-01-01T10:00:00Z',
  updated_at: null,
  change_seq: 10,
  ...p,
});

const msg = (key: string, orderKey: string, direction = 'specialist'): LocalMessage =>
  ({ key, orderKey, direction, serverId: key, text: key, createdAt: orderKey.slice(0, 27) }) as LocalMessage;

describe('R2.5 read cursors', () => {
  it('R2.5 move only forward, locally and from the server', () => {
    const at2 = mergeReadCursor(rc(), undefined, 'k2')!;
    expect(at2.messageId).toBe('m2');
    expect(moveCursor(at2, 'c1', 'm1', 'k1')).toBeNull();
    const at3 = moveCursor(at2, 'c1', 'm3', 'k3')!;
    expect(at3.pending).toBe(1);
    // An older server position arriving later does not move the shown cursor back.
    const merged = mergeReadCursor(rc({ change_seq: 11, last_read_message_id: 'm2' }), at3, 'k2')!;
    expect(merged.messageId).toBe('m3');
    expect(merged.serverMessageId).toBe('m2');
    // The server reaching our position clears pending.
    const confirmed = mergeReadCursor(rc({ change_seq: 12, last_read_message_id: 'm3' }), merged, 'k3')!;
    expect(confirmed.pending).toBe(0);
    expect(mergeReadCursor(rc({ change_seq: 12 }), confirmed, 'k2')).toBeNull();
  });

  it('R2.5 a refused local move goes back to the server position', () => {
    const moved = moveCursor(mergeReadCursor(rc(), undefined, 'k2')!, 'c1', 'm3', 'k3')!;
    const back = revertCursor(moved);
    expect([back.messageId, back.orderKey, back.pending]).toEqual(['m2', 'k2', 0]);
    expect(moveCursor(undefined, 'c1', 'm1', 'k1')?.messageId).toBe('m1');
    expect(emptyCursor('c1').orderKey).toBe('');
  });
});

describe('R2.8 unread counts', () => {
  const msgs = [msg('a', 'k1'), msg('b', 'k2', 'user'), msg('c', 'k3'), msg('d', 'k4', 'system'), msg('e', 'k5')];
  it('R2.8 counts specialist messages after the cursor, all without one', () => {
    expect(unreadCount(msgs, '')).toBe(3);
    expect(unreadCount(msgs, 'k1')).toBe(2);
    expect(unreadCount(msgs, 'k5')).toBe(0);
  });
  it('R2.7 the summary carries the last message and the count', () => {
    const s = summarize({ lastMessageAt: null, createdAt: '2025-01-01T00:00:00.000000Z' }, msgs, 'k3');
    expect(s.lastMessage?.key).toBe('e');
    expect(s.unreadCount).toBe(1);
  });
});
