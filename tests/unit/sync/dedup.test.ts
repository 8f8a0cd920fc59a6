import { describe, expect, it } from 'vitest';
import { expiredCopies, planRemoteMessage, type MessageCandidates } from '../../../sync/merge/dedup.ts';
import type { LocalMessage } from '../../../sync/model/local-types.ts';
import { fromRemoteMessage, messageKeyOf } from '../../../sync/merge/message.ts';
import { orderKeyOf } from '../../../sync/model/ordering.ts';
import type { RemoteMessage } from '../../../sync/model/remote-types.ts';

const ME = 'user-1';
const remote = (p: Partial<RemoteMessage> = {}): RemoteMessage => ({
  id: 'aaaaaaaa-0000-4000-8000-000000000001',
  conversation_id: 'c1',
  account_id: 'acc',
  text: 'Ahoj',
  type: 'text',
  direction: 'user',
  source: 'app',
  chatwoot_message_id: null,
  created_at: '2025-01-01T10:00:00.000000+00:00',
  read_at: null,
  payload: null,
  client_correlation_id: 'bbbbbbbb-0000-4000-8000-000000000001',
  sender_user_id: ME,
  change_seq: 3,
  ...p,
});

function optimistic(p: Partial<LocalMessage> = {}): LocalMessage {
  const createdAt = p.createdAt ?? '2025-01-01T10:00:01.000000Z';
  return {
    key: 'c:bbbbbbbb-0000-4000-8000-000000000001',
    serverId: null,
    conversationId: 'c1',
    accountId: null,
    text: 'Ahoj',
    type: 'text',
    direction: 'user',
    source: 'app',
    chatwootMessageId: null,
    createdAt,
    orderKey: orderKeyOf(createdAt, 'bbbbbbbb-0000-4000-8000-000000000001'),
    readAt: null,
    payload: null,
    correlationId: 'bbbbbbbb-0000-4000-8000-000000000001',
    senderUserId: ME,
    changeSeq: 0,
    state: 'sending',
    origin: 'optimistic',
    error: null,
    confirmedAt: null,
    ...p,
  };
}

const none: MessageCandidates = { byKey: undefined, byExternalId: [], confirmedCopies: [] };

describe('R3 de-duplication', () => {
  it('R3.1 a message has one key however often it arrives: correlation id, else server id', () => {
    expect(messageKeyOf(remote())).toBe('c:bbbbbbbb-0000-4000-8000-000000000001');
    expect(messageKeyOf(remote({ client_correlation_id: null }))).toBe('s:aaaaaaaa-0000-4000-8000-000000000001');
    const first = planRemoteMessage(remote(), none, ME).put!;
    expect(planRemoteMessage(remote(), { ...none, byKey: first }, ME).put).toBeNull();
  });

  it('R3.2 an optimistic message matches a server one by correlation id', () => {
    const plan = planRemoteMessage(remote(), { ...none, byKey: optimistic() }, ME);
    expect(plan.put?.key).toBe('c:bbbbbbbb-0000-4000-8000-000000000001');
    expect(plan.put?.state).toBe('sent');
    expect(plan.put?.origin).toBe('server');
    expect(plan.put?.serverId).toBe('aaaaaaaa-0000-4000-8000-000000000001');
    expect(plan.remove).toEqual([]);
  });

  it('R3.3 a server message replaces the provisional copy with the same external id', () => {
    const provisional = optimistic({ key: 'x:77', origin: 'external', state: 'sent', chatwootMessageId: '77', correlationId: null, direction: 'specialist' });
    const plan = planRemoteMessage(remote({ chatwoot_message_id: '77', client_correlation_id: null, direction: 'specialist' }), { ...none, byExternalId: [provisional] }, ME);
    expect(plan.put?.key).toBe('s:aaaaaaaa-0000-4000-8000-000000000001');
    expect(plan.remove).toEqual(['x:77']);
  });

  it('R3.4 a confirmed copy without a server row matches equal text and sender within 5 s', () => {
    const copy = optimistic({ state: 'sent', confirmedAt: 1 });
    const r = remote({ client_correlation_id: null, created_at: '2025-01-01T10:00:04.500000+00:00' });
    const plan = planRemoteMessage(r, { ...none, confirmedCopies: [copy] }, ME);
    // The copy goes; the server row takes its own key.
    expect(plan.remove).toEqual([copy.key]);
    expect(plan.put?.key).toBe(messageKeyOf(r));
    expect(plan.put?.serverId).toBe(r.id);
    // too far apart, other text, other sender, or still sending: no match
    expect(planRemoteMessage({ ...r, created_at: '2025-01-01T10:00:07+00:00' }, { ...none, confirmedCopies: [copy] }, ME).remove).toEqual([]);
    expect(planRemoteMessage({ ...r, text: 'Iné' }, { ...none, confirmedCopies: [copy] }, ME).remove).toEqual([]);
    expect(planRemoteMessage({ ...r, sender_user_id: 'other' }, { ...none, confirmedCopies: [copy] }, ME).remove).toEqual([]);
    expect(planRemoteMessage(r, { ...none, confirmedCopies: [optimistic()] }, ME).remove).toEqual([]);
  });

  it('R3.5 only copies the server confirmed are dropped after 30 s; sending and failed ones never', () => {
    const now = 100_000;
    const msgs = [
      optimistic({ key: 'a', state: 'sent', confirmedAt: now - 31_000 }),
      optimistic({ key: 'b', state: 'sent', confirmedAt: now - 29_000 }),
      optimistic({ key: 'c', state: 'sending' }),
      optimistic({ key: 'd', state: 'failed', error: 'x' }),
      optimistic({ key: 'e', origin: 'external', state: 'sent', confirmedAt: now - 40_000 }),
      fromRemoteMessage(remote(), 'f'),
    ];
    expect(expiredCopies(msgs, now)).toEqual(['a', 'e']);
  });

  it('R2.4 a newer server version of a message replaces an older one, an older one does not', () => {
    const v3 = fromRemoteMessage(remote(), messageKeyOf(remote()));
    expect(planRemoteMessage(remote({ change_seq: 2, text: 'old' }), { ...none, byKey: v3 }, ME).put).toBeNull();
    expect(planRemoteMessage(remote({ change_seq: 4, read_at: '2025-01-01T11:00:00Z' }), { ...none, byKey: v3 }, ME).put?.readAt).toBe('2025-01-01T11:00:00.000000Z');
  });
});

describe('message view', () => {
  it('R2.4 the client view carries state, sender and whether it is optimistic or own', async () => {
    const { messageView } = await import('../../../sync/views.ts');
    const v = messageView(optimistic({ state: 'failed', error: 'x' }), ME);
    expect(v).toMatchObject({ sender: 'user', isOptimistic: true, failed: true, isOwn: true, id: 'bbbbbbbb-0000-4000-8000-000000000001' });
    const s = messageView(fromRemoteMessage(remote({ direction: 'specialist', sender_user_id: null }), 'k'), ME);
    expect(s).toMatchObject({ sender: 'ai', isOptimistic: false, isOwn: false, state: 'sent', timestamp: Date.parse('2025-01-01T10:00:00Z') });
    expect(messageView(fromRemoteMessage(remote({ sender_user_id: 'colleague' }), 'k'), ME).isOwn).toBe(false);
  });
});
