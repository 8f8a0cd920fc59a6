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

describe('R6.5 overlay placement', () => {
  /** The overlay as first written: every row in a map, the whole list sorted again. */
  function reference(list: LocalMessage[], readGeneration: number, recent: ReadonlyMap<string, Recent>): LocalMessage[] {
    const byKey = new Map(list.map((m) => [m.key, m]));
    for (const [key, { row, generation, transient }] of recent) {
      if (!transient && generation <= readGeneration) continue;
      const current = byKey.get(key);
      if (row === null) byKey.delete(key);
      else if (!current || current.changeSeq < row.changeSeq) byKey.set(key, row);
    }
    return [...byKey.values()].sort((a, b) => (a.orderKey < b.orderKey ? -1 : a.orderKey > b.orderKey ? 1 : 0));
  }

  it('R6.5 places changed rows by binary search exactly where a full sort puts them', () => {
    let seed = 7;
    const rand = (n: number) => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) % n);
    const at = (s: number) => `2025-01-01T10:${String(Math.floor(s / 60)).padStart(2, '0')}:${String(s % 60).padStart(2, '0')}.000000Z`;
    for (let round = 0; round < 300; round++) {
      const list = [...new Set(Array.from({ length: rand(30) }, () => rand(200)))].sort((a, b) => a - b).map((s) => msg(`s:${s}`, at(s)));
      const recent = new Map<string, Recent>();
      for (let k = rand(5); k > 0; k--) {
        const s = rand(200);
        const kind = rand(3);
        recent.set(`s:${s}`, {
          row: kind === 0 ? null : msg(`s:${s}`, at(s), { changeSeq: rand(3), text: `v${round}` }),
          generation: rand(3),
          ...(kind === 2 ? { transient: true } : {}),
        });
      }
      const got = overlayRecent(list, 1, recent, 'c1');
      expect(got.map((m) => `${m.key}/${m.changeSeq}/${m.text}`)).toEqual(reference(list, 1, recent).map((m) => `${m.key}/${m.changeSeq}/${m.text}`));
    }
  });
});

describe('R6.5 a chat read in two parts', () => {
  it('R6.5 laying publications over the recent part alone gives the same list as over the whole chat', async () => {
    const { overlayParts } = await import('../../../sync/receive/recent.ts');
    const at = (i: number) => `2025-01-01T10:${String(Math.floor(i / 60)).padStart(2, '0')}:${String(i % 60).padStart(2, '0')}.000000Z`;
    let seed = 7;
    const rnd = (n: number) => {
      seed = (Math.imul(seed, 1103515245) + 12345) >>> 0;
      return (seed >>> 16) % n;
    };
    for (let round = 0; round < 300; round++) {
      const all = Array.from({ length: 12 }, (_, i) => msg(`s:${i * 2}`, at(i * 2)));
      const cut = rnd(all.length);
      const older = all.slice(0, cut);
      const recentRows = all.slice(cut);
      const recent = new Map<string, Recent>();
      for (let k = rnd(4); k > 0; k--) {
        const kind = rnd(4);
        const i = rnd(24);
        if (kind === 0) recent.set(`s:${i}`, { row: null, generation: 1 + rnd(3) });
        else recent.set(`s:${i}`, { row: msg(`s:${i}`, at(i), { changeSeq: 2 + rnd(3), text: `nové ${round}` }), generation: 1 + rnd(3), transient: kind === 3 });
      }
      const whole = overlayRecent(older.concat(recentRows), 2, recent, 'c1');
      expect(overlayParts(older, recentRows, 2, recent, 'c1'), `round ${round}`).toEqual(whole);
    }
  });
});
