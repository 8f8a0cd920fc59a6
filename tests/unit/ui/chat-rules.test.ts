// The chat's pure rules: message kinds, system notice colours, attachments, the header status, and
// which message is marked read.
import { describe, expect, it, vi } from 'vitest';
import type { LocalMessage } from '../../../sync/model/local-types.ts';
import { attachmentsOf, cardInfo, messageKind, systemTone } from '../../../src/pages/chat/message-kinds.ts';
import { chatPresence, HUMAN_RECENT_MS } from '../../../src/pages/chat/presence.ts';
import { lastServerMessageId } from '../../../src/pages/chat/use-mark-read.ts';

const msg = (p: Partial<LocalMessage>): LocalMessage => ({
  key: 'k',
  serverId: null,
  conversationId: 'c',
  accountId: null,
  text: '',
  type: 'text',
  direction: 'specialist',
  source: null,
  chatwootMessageId: null,
  createdAt: '2026-01-01T10:00:00.000000Z',
  orderKey: '',
  readAt: null,
  payload: null,
  correlationId: null,
  senderUserId: null,
  changeSeq: 0,
  state: 'sent',
  origin: 'server',
  error: null,
  confirmedAt: null,
  ...p,
});

describe('message kinds', () => {
  it('system, card, rich and text', () => {
    expect(messageKind(msg({ direction: 'system' }))).toBe('system');
    expect(messageKind(msg({ type: 'json', payload: { kind: 'rich_content', specialist_id: 's1' } }))).toBe('card');
    expect(messageKind(msg({ type: 'json', payload: { kind: 'rich_content' } }))).toBe('text');
    expect(messageKind(msg({ type: 'rich', payload: { attachments: [{ data_url: 'https://files.test/x.png', file_type: 'image' }] } }))).toBe('rich');
    expect(messageKind(msg({}))).toBe('text');
  });

  it('red only for status_completed', () => {
    expect(systemTone({ system_type: 'status_completed' })).toBe('red');
    expect(systemTone({ system_type: 'request_sent', color: 'red' })).toBe('green');
    expect(systemTone(null)).toBe('green');
  });

  it('reads attachments defensively', () => {
    // Relative attachment URLs resolve against the page's origin (tests/unit/ui/attachment-url.test.ts).
    vi.stubGlobal('location', { origin: 'https://app.test' });
    const list = attachmentsOf({ attachments: [{ id: 'a', file_type: 'document', data_url: '/f.pdf', file_size: 10 }, { id: 'broken' }, 'x'] });
    expect(list).toHaveLength(1);
    expect(list[0]).toMatchObject({ id: 'a', fileType: 'document', fileSize: 10, thumbUrl: null });
    expect(cardInfo({ specialist_id: 's', allocated_credits: 50 })).toEqual({ specialistId: 's', credits: 50, welcomeText: null });
    vi.unstubAllGlobals();
  });
});

describe('chat presence', () => {
  const now = Date.parse('2026-01-01T12:00:00Z');
  const human = { status: 'active', specialist: { id: 'h', name: 'H', role: null, avatarUrl: null, seniority: null, isAi: false } };
  it('completed → locked; AI → online; human recent → online, else busy', () => {
    expect(chatPresence({ ...human, status: 'completed' }, [], now)).toBe('locked');
    expect(chatPresence({ ...human, specialist: { ...human.specialist, isAi: true } }, [], now)).toBe('online');
    expect(chatPresence(human, [], now)).toBe('busy');
    expect(chatPresence(human, [{ direction: 'specialist', createdAt: new Date(now - HUMAN_RECENT_MS + 1000).toISOString() }], now)).toBe('online');
    expect(chatPresence(human, [{ direction: 'specialist', createdAt: new Date(now - HUMAN_RECENT_MS - 1000).toISOString() }], now)).toBe('busy');
  });
});

describe('mark read', () => {
  it('skips optimistic copies', () => {
    expect(lastServerMessageId([msg({ serverId: 'a' }), msg({ serverId: null, origin: 'optimistic', state: 'sending' })])).toBe('a');
    expect(lastServerMessageId([msg({ serverId: null, origin: 'optimistic' })])).toBeNull();
  });
});

describe('row snippet', () => {
  it('drops markdown marks and link addresses', async () => {
    const { plainSnippet } = await import('../../../src/lib/snippet.ts');
    expect(plainSnippet('Konverzný pomer je **2,5 %** (30 / 1 200).')).toBe('Konverzný pomer je 2,5 % (30 / 1 200).');
    expect(plainSnippet('## Cieľ\n- **A** [centrum](https://x.sk)')).toBe('Cieľ A centrum');
    expect(plainSnippet('   ')).toBe('');
  });
});
