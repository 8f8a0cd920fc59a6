// R14.1: the owner state reaches the stored conversation as the server says it; R14.6: what the
// header and the list say about it.
import { describe, expect, it } from 'vitest';
import { mergeConversation } from '../../../sync/merge/conversation.ts';
import type { RemoteConversation } from '../../../sync/model/remote-types.ts';
import { parseConversation } from '../../../sync/receive/parse-remote.ts';
import { canRequestHuman, ownerLabel } from '../../../src/pages/chat/owner-label.ts';

const ai = { id: 'sp', name: 'Lucia', role: 'Marketing', avatar_url: null, seniority: 'senior', is_ai: true };
const remote = (p: Partial<RemoteConversation> = {}): RemoteConversation => ({
  id: 'c1',
  account_id: 'acc',
  specialist_id: 'sp',
  status: 'active',
  last_message_at: null,
  archived_at: null,
  chatwoot_conversation_id: null,
  created_at: '2026-11-28T09:00:00+00:00',
  updated_at: '2026-11-28T09:00:00+00:00',
  change_seq: 5,
  specialist: ai,
  ...p,
});

describe('R14.1 owner state in the merge', () => {
  it('R14.1 a row from a server before issue 39 (no owner fields) is AI-answered', () => {
    const parsed = parseConversation({ ...remote(), owner_state: undefined });
    expect(mergeConversation(parsed, undefined, null)).toMatchObject({ ownerState: 'ai', ownerRequestedAt: null, ownerAgentName: null });
  });

  it('R14.1 waiting and human are stored with the request time and the agent name', () => {
    const waiting = mergeConversation(remote({ owner_state: 'waiting', owner_requested_at: '2026-11-28 13:02:00+00' }), undefined, null)!;
    expect(waiting).toMatchObject({ ownerState: 'waiting', ownerRequestedAt: '2026-11-28T13:02:00.000000Z' });
    const human = mergeConversation(remote({ owner_state: 'human', owner_agent_name: 'Jana Vargová', change_seq: 6 }), waiting, null)!;
    expect(human).toMatchObject({ ownerState: 'human', ownerAgentName: 'Jana Vargová' });
  });

  it('R14.1 an unknown state is stored as waiting: a device never claims the AI answers when it may not', () => {
    expect(mergeConversation(remote({ owner_state: 'bot' }), undefined, null)!.ownerState).toBe('waiting');
  });
});

describe('R14.6 owner labels', () => {
  const stored = (p: Partial<RemoteConversation>) => mergeConversation(remote(p), undefined, null)!;
  it('R14.6 Slovak labels for each state; nothing for an AI-state chat of a human specialist', () => {
    const now = new Date('2026-11-28T15:00:00');
    expect(ownerLabel(stored({}), now)).toBe('Odpovedá AI');
    const at = new Date('2026-11-28T14:02:00');
    expect(ownerLabel(stored({ owner_state: 'waiting', owner_requested_at: at.toISOString() }), now)).toBe('Čaká na špecialistu od 14:02');
    expect(ownerLabel(stored({ owner_state: 'human', owner_agent_name: 'Jana Vargová' }), now)).toBe('Píše Jana Vargová');
    expect(ownerLabel(stored({ owner_state: 'human', owner_agent_name: null }), now)).toBe('Odpovedá špecialista');
    expect(ownerLabel(stored({ specialist: { ...ai, is_ai: false } }), now)).toBeNull();
  });

  it('R14.2 the request is offered only in an active, AI-answered chat of an AI specialist', () => {
    expect(canRequestHuman(stored({}))).toBe(true);
    expect(canRequestHuman(stored({ owner_state: 'waiting' }))).toBe(false);
    expect(canRequestHuman(stored({ status: 'completed' }))).toBe(false);
    expect(canRequestHuman(stored({ specialist: { ...ai, is_ai: false } }))).toBe(false);
    expect(canRequestHuman(undefined)).toBe(false);
  });
});
