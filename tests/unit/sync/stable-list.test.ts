// R6.7: the open chat's list keeps its array for an answer equal field for field, and never for one
// that differs in anything.
import { describe, expect, it } from 'vitest';
import type { LocalMessage } from '../../../sync/model/local-types.ts';
import { keepIfSame, sameMessage } from '../../../sync/receive/stable-list.ts';

function message(i: number, p: Partial<LocalMessage> = {}): LocalMessage {
  return {
    key: `s:${i}`, serverId: String(i), conversationId: 'k', accountId: 'a', text: `Správa ${i}`, type: 'text', direction: 'specialist',
    source: 'chatwoot', chatwootMessageId: null, createdAt: '2026-01-05T10:00:00.000000Z', orderKey: String(i).padStart(6, '0'), readAt: null,
    payload: null, correlationId: null, senderUserId: null, changeSeq: i, state: 'sent', origin: 'server', error: null, confirmedAt: null, ...p,
  };
}

const copy = (list: LocalMessage[]) => list.map((m) => structuredClone(m));

describe('R6.7 stable chat list', () => {
  it('R6.7 a fresh copy of the same messages (the stored row for its painted copy, a re-read) keeps the shown array', () => {
    const shown = Array.from({ length: 120 }, (_, i) => message(i, { payload: i === 3 ? { kind: 'card', specialist_id: 'x' } : null }));
    expect(keepIfSame(shown, copy(shown))).toBe(shown);
    expect(keepIfSame(undefined, shown)).toBe(shown);
  });

  it('R6.7 any difference in any field, or in the rows, gives the new list', () => {
    const shown = Array.from({ length: 5 }, (_, i) => message(i));
    const changes: Partial<LocalMessage>[] = [
      { state: 'failed' }, { error: 'Nepodarilo sa' }, { text: 'iné' }, { serverId: null }, { changeSeq: 99 }, { origin: 'optimistic' },
      { orderKey: 'zzz' }, { readAt: '2026-01-05T10:01:00.000000Z' }, { payload: { kind: 'card' } }, { confirmedAt: 1 },
    ];
    for (const change of changes) {
      const next = copy(shown);
      next[2] = { ...next[2]!, ...change };
      expect(keepIfSame(shown, next), JSON.stringify(change)).toBe(next);
    }
    const longer = [...copy(shown), message(5)];
    expect(keepIfSame(shown, longer)).toBe(longer);
    const reordered = copy(shown).reverse();
    expect(keepIfSame(shown, reordered)).toBe(reordered);
    expect(sameMessage(shown[0]!, { ...shown[0]!, payload: { kind: 'card' } })).toBe(false);
    expect(sameMessage(shown[0]!, structuredClone(shown[0]!))).toBe(true);
  });
});
