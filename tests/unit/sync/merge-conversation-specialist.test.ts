// Issue 21 item 1: a conversation first seen through realtime (no embedded specialist, and one the
// local list does not know, e.g. the assistant) gets its specialist when the pull brings the same version.
import { describe, expect, it } from 'vitest';
import { mergeConversation } from '../../../sync/merge/conversation.ts';
import type { RemoteConversation } from '../../../sync/model/remote-types.ts';

const base: RemoteConversation = {
  id: 'c1',
  account_id: 'acc',
  specialist_id: 'assistant',
  status: 'active',
  last_message_at: '2025-01-01T10:00:00+00:00',
  archived_at: null,
  chatwoot_conversation_id: null,
  created_at: '2025-01-01T09:00:00+00:00',
  updated_at: '2025-01-01T10:00:00+00:00',
  change_seq: 5,
};
const assistant = { id: 'assistant', name: 'Asistent Poradne', role: 'Osobný asistent', avatar_url: '/a.svg', seniority: 'Senior', is_ai: true };

describe('R2.3 specialist filled in by the pull', () => {
  it('the same change_seq with the specialist fills in a row stored without one, and nothing else', () => {
    const fromRealtime = mergeConversation(base, undefined, null)!;
    expect(fromRealtime.specialist).toBeNull();
    const filled = mergeConversation({ ...base, status: 'completed', specialist: assistant }, fromRealtime, null);
    expect(filled?.specialist?.name).toBe('Asistent Poradne');
    expect(filled?.status).toBe('active');
    // Once known, the same version changes nothing again (R2.1).
    expect(mergeConversation({ ...base, specialist: assistant }, filled!, null)).toBeNull();
  });
});
