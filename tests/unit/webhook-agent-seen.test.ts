// R10.11: where Chatwoot's webhook payloads carry agent_last_seen_at (Unix seconds, 0 = never).
import { describe, expect, it } from 'vitest';
import { agentLastSeen } from '../../supabase/functions/_shared/chatwoot/webhook-map.ts';

describe('R10.11 agentLastSeen', () => {
  it('reads the nested conversation of message events and the top level of conversation events', () => {
    expect(agentLastSeen({ conversation: { id: 1, agent_last_seen_at: 1_700_000_000 } }, 'message_created')).toEqual(new Date(1_700_000_000_000));
    expect(agentLastSeen({ id: 1, agent_last_seen_at: 1_700_000_001 }, 'conversation_updated')).toEqual(new Date(1_700_000_001_000));
    // A message event's top-level fields are the message's, never the conversation's.
    expect(agentLastSeen({ agent_last_seen_at: 1_700_000_000 }, 'message_created')).toBeNull();
  });

  it('0 (never seen), missing and malformed values are null', () => {
    expect(agentLastSeen({ conversation: { id: 1, agent_last_seen_at: 0 } }, 'message_created')).toBeNull();
    expect(agentLastSeen({ conversation: { id: 1 } }, 'message_created')).toBeNull();
    expect(agentLastSeen({ conversation: { id: 1, agent_last_seen_at: '17' as unknown as number } }, 'message_created')).toBeNull();
    expect(agentLastSeen({ agent_last_seen_at: Number.NaN }, 'conversation_updated')).toBeNull();
  });
});
