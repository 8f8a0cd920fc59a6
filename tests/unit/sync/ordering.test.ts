import { describe, expect, it } from 'vitest';
import { compareConversations, compareMessages, orderKeyOf } from '../../../sync/model/ordering.ts';
import { msFromTimestamp, normalizeTimestamp, timestampFromMs } from '../../../sync/model/timestamps.ts';

describe('R4 ordering', () => {
  it('R4.1 timestamps in any server form normalize to one sortable UTC form with microseconds', () => {
    expect(normalizeTimestamp('2025-03-01T10:00:00.123456+00:00')).toBe('2025-03-01T10:00:00.123456Z');
    expect(normalizeTimestamp('2025-03-01 12:00:00.5+02')).toBe('2025-03-01T10:00:00.500000Z');
    expect(normalizeTimestamp('2025-03-01T10:00:00Z')).toBe('2025-03-01T10:00:00.000000Z');
    expect(normalizeTimestamp('2025-03-01T00:30:00-01:30')).toBe('2025-03-01T02:00:00.000000Z');
    expect(normalizeTimestamp('yesterday')).toBeNull();
    expect(timestampFromMs(Date.parse('2025-03-01T10:00:00.007Z'))).toBe('2025-03-01T10:00:00.007000Z');
    expect(msFromTimestamp('2025-03-01T10:00:00.007999Z')).toBe(Date.parse('2025-03-01T10:00:00.007Z'));
  });

  it('R4.1 messages order by created_at (to the microsecond), then id', () => {
    const a = { orderKey: orderKeyOf('2025-03-01T10:00:00.000001Z', 'ffff') };
    const b = { orderKey: orderKeyOf('2025-03-01T10:00:00.000002Z', '0000') };
    const c = { orderKey: orderKeyOf('2025-03-01T10:00:00.000002Z', '1111') };
    expect([c, b, a].sort(compareMessages)).toEqual([a, b, c]);
  });

  it('R4.2 conversations order by newest activity first, ties by id', () => {
    const rows = [
      { id: 'b', sortAt: '2025-03-01T10:00:00.000000Z' },
      { id: 'a', sortAt: '2025-03-01T10:00:00.000000Z' },
      { id: 'c', sortAt: '2025-03-02T10:00:00.000000Z' },
    ];
    expect(rows.sort(compareConversations).map((r) => r.id)).toEqual(['c', 'a', 'b']);
  });
});
