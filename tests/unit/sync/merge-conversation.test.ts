import { describe, expect, it } from 'vitest';
import type { LocalConversation } from '../../../sync/model/local-types.ts';
import { mergeConversation, revertArchive, withLocalArchive } from '../../../sync/merge/conversation.ts';
import type { RemoteConversation } from '../../../sync/model/remote-types.ts';

const remote = (p: Partial<RemoteConversation> = {}): RemoteConversation => ({
  id: 'c1',
  account_id: 'acc',
  specialist_id: 'sp',
  status: 'active',
  last_message_at: '2025-01-01T10:00:00+00:00',
  archived_at: null,
  chatwoot_conversation_id: null,
  created_at: '2025-01-01T09:00:00+00:00',
  updated_at: '2025-01-01T10:00:00+00:00',
  change_seq: 5,
  specialist: { id: 'sp', name: 'Eva', role: 'SEO', avatar_url: null, seniority: 'junior', is_ai: true },
  ...p,
});

function stored(p: Partial<RemoteConversation> = {}): LocalConversation {
  return mergeConversation(remote(p), undefined, null)!;
}

describe('R2 conversation merge', () => {
  it('R2.1 a remote row not newer than the stored one changes nothing', () => {
    const local = stored();
    expect(mergeConversation(remote({ status: 'completed' }), local, null)).toBeNull();
    expect(mergeConversation(remote({ status: 'completed', change_seq: 4 }), local, null)).toBeNull();
    expect(mergeConversation(remote({ status: 'completed', change_seq: 6 }), local, null)?.status).toBe('completed');
  });

  it('R2.2 server fields win, but a queued local archive survives until pushed', () => {
    const local = withLocalArchive(stored(), '2025-01-02T00:00:00.000000Z');
    const merged = mergeConversation(remote({ change_seq: 9, status: 'completed' }), local, null)!;
    expect(merged.status).toBe('completed');
    expect(merged.archivedAt).toBe('2025-01-02T00:00:00.000000Z');
    expect(merged.archived).toBe(1);
    expect(merged.serverArchivedAt).toBeNull();
    expect(merged.pendingArchive).toBe(1);
  });

  it('R1.6 a refused archive reverts to the server value', () => {
    const local = withLocalArchive(stored({ archived_at: '2024-12-31T00:00:00Z' }), null);
    expect(local.archived).toBe(0);
    const reverted = revertArchive(local);
    expect(reverted.archivedAt).toBe('2024-12-31T00:00:00.000000Z');
    expect(reverted.archived).toBe(1);
    expect(reverted.pendingArchive).toBe(0);
  });

  it('R2.3 a realtime record without a specialist keeps the known one or looks it up', () => {
    const local = stored();
    const { specialist: _drop, ...bare } = remote({ change_seq: 7 });
    expect(mergeConversation(bare, local, null)?.specialist?.name).toBe('Eva');
    const known = { id: 'sp2', name: 'Ján', role: null, avatarUrl: null, seniority: null, isAi: false };
    expect(mergeConversation({ ...bare, specialist_id: 'sp2' }, local, known)?.specialist?.name).toBe('Ján');
  });

  it('R4.2 the sort time is the newer of last_message_at and the last local message', () => {
    const local = { ...stored(), lastMessage: { key: 'k', id: null, text: 'x', direction: 'user', createdAt: '2025-01-01T11:00:00.000000Z' } };
    expect(mergeConversation(remote({ change_seq: 8 }), local, null)?.sortAt).toBe('2025-01-01T11:00:00.000000Z');
    expect(stored({ last_message_at: null }).sortAt).toBe('2025-01-01T09:00:00.000000Z');
  });
});
