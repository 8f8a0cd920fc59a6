// The chat's pure rules: message kinds, system notice colours, attachments, the header status, and
// which message is marked read.
import { describe, expect, it, vi } from 'vitest';
import type { LocalMessage } from '../../../sync/model/local-types.ts';
import { attachmentsOf, cardInfo, messageKind, systemTone } from '../../../src/pages/chat/message-kinds.ts';
import { chatPresence, HUMAN_RECENT_MS } from '../../../src/pages/chat/presence.ts';
import { countedUpTo, lastServerMessage, readPassesMore } from '../../../src/pages/chat/use-mark-read.ts';

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
    expect(lastServerMessage([msg({ serverId: 'a' }), msg({ serverId: null, origin: 'optimistic', state: 'sending' })])?.serverId).toBe('a');
    expect(lastServerMessage([msg({ serverId: null, origin: 'optimistic' })])).toBeNull();
  });

  it('R1.7 asks again only when the new newest message passes a message other than a user’s since the last read', () => {
    const at = (i: number, direction = 'user') => msg({ key: `k${i}`, serverId: `s${i}`, orderKey: String(i).padStart(4, '0'), direction });
    const list = [at(1, 'specialist'), at(2), at(3, 'specialist'), at(4)];
    const asked = { orderKey: list[3]!.orderKey, counted: countedUpTo(list, list[3]!.orderKey) };
    expect(asked.counted).toBe(2);
    expect(readPassesMore(list, null, list[3]!)).toBe(true);
    // Another device's, a colleague's or the user's own message: nothing more to read.
    const users = [...list, at(5), at(6)];
    expect(readPassesMore(users, asked, users[5]!)).toBe(false);
    // A reply, AI or system message after the last read: ask.
    for (const direction of ['specialist', 'ai', 'system']) {
      const more = [...list, at(5, direction), at(6)];
      expect(readPassesMore(more, asked, more[5]!), direction).toBe(true);
    }
    // A reply that arrived late with an earlier position than the last read (R1.7, fuzz seed 150).
    const late = [at(1, 'specialist'), at(2), msg({ key: 'late', serverId: 'late', orderKey: '0002x', direction: 'specialist' }), at(3, 'specialist'), at(4), at(5)];
    expect(readPassesMore(late, asked, late[5]!)).toBe(true);
  });
});

describe('row snippet', () => {
  it('drops markdown marks and link addresses', async () => {
    const { plainSnippet } = await import('../../../src/lib/snippet.ts');
    expect(plainSnippet('Konverzný pomer je **2,5 %** (30 / 1 200).')).toBe('Konverzný pomer je 2,5 % (30 / 1 200).');
    expect(plainSnippet('## Cieľ\n- **A** [centrum](https://x.sk)')).toBe('Cieľ\nA centrum');
    expect(plainSnippet('   ')).toBe('');
  });

  it('keeps a line break the user typed, one per run of blank lines (issue 37)', async () => {
    const { plainSnippet } = await import('../../../src/lib/snippet.ts');
    expect(plainSnippet('Adresa:\nHlavná 12\n917 01 Trnava')).toBe('Adresa:\nHlavná 12\n917 01 Trnava');
    expect(plainSnippet('a  \n\n\n  b\t c')).toBe('a\nb c');
  });
});

describe('failed message text (issue 37, item 11)', () => {
  it('keeps the engine texts, puts known server refusals in Slovak and never shows a raw server message', async () => {
    const { failureText } = await import('../../../src/pages/chat/failure-text.ts');
    expect(failureText('Konverzácia je ukončená, správa sa neodoslala')).toBe('Konverzácia je ukončená, správa sa neodoslala');
    expect(failureText('Failed to send message')).toBe('Failed to send message');
    expect(failureText(null)).toBe('Failed to send message');
    expect(failureText('Message is too long')).toBe('Správa je príliš dlhá (najviac 8\u00a0000 znakov), neodoslala sa.');
    expect(failureText('Message is too long: at most 8000 characters')).toBe('Správa je príliš dlhá (najviac 8\u00a0000 znakov), neodoslala sa.');
    expect(failureText('Conversation not found')).toBe('Konverzácia už neexistuje, správa sa neodoslala');
    expect(failureText('bad request from test')).toBe('Server správu neprijal, neodoslala sa.');
  });
});
