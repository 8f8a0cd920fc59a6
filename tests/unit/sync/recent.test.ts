import { describe, expect, it } from 'vitest';
import type { LocalMessage } from '../../../sync/model/local-types.ts';
import { overlayRecent, type Recent } from '../../../sync/receive/recent.ts';

function msg(key: string, at: string, p: Partial<LocalMessage> = {}): LocalMessage {
  return {
    key,
    serverId: key.slice(2),
    conversationId: 'c1',
    accountId: 'acc-1',
    text: key,
    type: 'text',
    direction: 'specialist',
    source: 'agent',
    chatwootMessageId: null,
    createdAt: at,
    orderKey: `${at} ${key}`,
    readAt: null,
    payload: null,
    correlationId: null,
    senderUserId: null,
    changeSeq: 1,
    state: 'sent',
    origin: 'server',
    error: null,
    confirmedAt: null,
    ...p,
  };
}

const live = [msg('s:a', '2025-01-01T10:00:00.000000Z'), msg('s:c', '2025-01-01T10:00:02.000000Z')];

describe('R6.5 recent publications over the live list', () => {
  it('R6.5 a published message is shown in order before the live query has re-read it', () => {
    const recent = new Map<string, Recent>([['s:b', { row: msg('s:b', '2025-01-01T10:00:01.000000Z', { changeSeq: 5 }), generation: 3 }]]);
    expect(overlayRecent(live, 2, recent, 'c1').map((m) => m.key)).toEqual(['s:a', 's:b', 's:c']);
  });

  it('R6.5 a read that started after the publication is the truth (a later deletion is not undone)', () => {
    const recent = new Map<string, Recent>([['s:b', { row: msg('s:b', '2025-01-01T10:00:01.000000Z'), generation: 3 }]]);
    expect(overlayRecent(live, 3, recent, 'c1')).toBe(live);
  });

  it('R6.5 an older copy in the list is replaced (optimistic copy → server row under the same key); a newer one stays', () => {
    const optimistic = msg('c:x', '2025-01-01T10:00:03.000000Z', { changeSeq: 0, state: 'sending', origin: 'optimistic', serverId: null });
    const server = { ...optimistic, changeSeq: 7, state: 'sent' as const, origin: 'server' as const, serverId: 'x' };
    const out = overlayRecent([...live, optimistic], 0, new Map([['c:x', { row: server, generation: 1 }]]), 'c1');
    expect(out.at(-1)).toBe(server);
    const newer = { ...server, changeSeq: 9, text: 'edited' };
    expect(overlayRecent([...live, newer], 0, new Map([['c:x', { row: server, generation: 1 }]]), 'c1').at(-1)).toBe(newer);
  });

  it('R6.5 a published deletion hides the row; rows of other conversations are ignored', () => {
    const recent = new Map<string, Recent>([
      ['s:a', { row: null, generation: 4 }],
      ['s:z', { row: msg('s:z', '2025-01-01T10:00:01.000000Z', { conversationId: 'c2' }), generation: 4 }],
    ]);
    expect(overlayRecent(live, 1, recent, 'c1').map((m) => m.key)).toEqual(['s:c']);
  });
});
