// The chaos run's verdict (scripts/chaos/verdict.ts): lost, duplicated, misplaced, divergent, leaked.
import { describe, expect, it } from 'vitest';
import { formatReport, judge, type ClientSnapshot, type SentRecord, type ServerMessage } from '../../scripts/chaos/verdict.ts';

const A = 'acc-a';
const B = 'acc-b';
const convs = new Map([
  [A, ['ca1', 'ca2']],
  [B, ['cb1']],
]);
const sent: SentRecord[] = [
  { context: 0, accountId: A, text: 'chaos 0 0' },
  { context: 0, accountId: A, text: 'chaos 0 1' },
  { context: 1, accountId: B, text: 'chaos 1 0' },
];
const server: ServerMessage[] = [
  { id: 'm1', conversationId: 'ca1', accountId: A, text: 'chaos 0 0' },
  { id: 'm2', conversationId: 'ca2', accountId: A, text: 'chaos 0 1' },
  { id: 'm3', conversationId: 'cb1', accountId: B, text: 'chaos 1 0' },
  { id: 'm4', conversationId: 'ca1', accountId: A, text: 'Vitajte' },
];
const client = (context: number, accountId: string, ids: string[], extra: Partial<ClientSnapshot> = {}): ClientSnapshot => ({
  context,
  accountId,
  outbox: 0,
  conversations: (convs.get(accountId) ?? []).map((id) => ({ id, accountId })),
  messages: server
    .filter((m) => ids.includes(m.id))
    .map((m) => ({ serverId: m.id, conversationId: m.conversationId, accountId: m.accountId, text: m.text ?? '', state: 'sent' })),
  ...extra,
});
const healthy = () => [client(0, A, ['m1', 'm2', 'm4']), client(1, B, ['m3'])];

describe('chaos verdict', () => {
  it('passes when every text is stored once and every client equals its account', () => {
    const r = judge(sent, server, healthy(), convs);
    expect(r).toMatchObject({ sent: 3, stored: 3, duplicates: [], lost: [], divergent: 0, leaks: 0, ok: true });
    expect(formatReport(r)).toContain('PASS');
  });

  it('counts a lost text and a duplicated text', () => {
    const dup: ServerMessage = { id: 'm5', conversationId: 'ca1', accountId: A, text: 'chaos 0 0' };
    const r = judge(sent, [...server.filter((m) => m.id !== 'm3'), dup], [client(0, A, ['m1', 'm2', 'm4', 'm5']), client(1, B, [])], convs);
    expect(r.lost).toEqual(['chaos 1 0']);
    expect(r.duplicates).toEqual(['chaos 0 0']);
    expect(r.stored).toBe(2);
    expect(r.ok).toBe(false);
    expect(formatReport(r)).toMatch(/lost 1 .*FAIL/);
  });

  it('a text stored in another account is a leak', () => {
    const moved = server.map((m) => (m.id === 'm3' ? { ...m, accountId: A, conversationId: 'ca1' } : m));
    const r = judge(sent, moved, [client(0, A, ['m1', 'm2', 'm4']), client(1, B, [])], convs);
    expect(r.misplaced).toEqual(['chaos 1 0']);
    expect(r.ok).toBe(false);
  });

  it('a client missing a row, holding an unsent copy, a stale text or a non-empty outbox diverges', () => {
    const cases: ClientSnapshot[] = [
      client(0, A, ['m1', 'm2']),
      {
        ...client(0, A, ['m1', 'm2', 'm4']),
        messages: [...client(0, A, ['m1', 'm2', 'm4']).messages, { serverId: null, conversationId: 'ca1', accountId: A, text: 'x', state: 'sending' }],
      },
      { ...client(0, A, ['m1', 'm2', 'm4']), messages: client(0, A, ['m1', 'm2', 'm4']).messages.map((m) => (m.serverId === 'm2' ? { ...m, text: 'old' } : m)) },
      client(0, A, ['m1', 'm2', 'm4'], { outbox: 2 }),
      client(0, A, ['m1', 'm2', 'm4'], { outbox: -1 }),
      client(0, A, ['m1', 'm2', 'm4'], { conversations: [{ id: 'ca1', accountId: A }] }),
    ];
    for (const c of cases) {
      const r = judge(sent, server, [c, client(1, B, ['m3'])], convs);
      expect(r.divergent).toBe(1);
      expect(r.clients[0]!.divergent).toBe(true);
      expect(r.clients[1]!.divergent).toBe(false);
      expect(r.ok).toBe(false);
    }
  });

  it('a row of another account in a client is a leak, not a match', () => {
    const a = client(0, A, ['m1', 'm2', 'm4']);
    const leaked = {
      ...a,
      messages: [...a.messages, { serverId: 'm3', conversationId: 'cb1', accountId: B, text: 'chaos 1 0', state: 'sent' }],
      conversations: [...a.conversations, { id: 'cb1', accountId: B }],
    };
    const r = judge(sent, server, [leaked, client(1, B, ['m3'])], convs);
    expect(r.clients[0]!.leaked).toBe(2);
    expect(r.leaks).toBe(2);
    expect(r.ok).toBe(false);
    expect(formatReport(r)).toContain('leaked rows 2');
  });
});
