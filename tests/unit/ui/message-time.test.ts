// The bubble's time, written by hand for speed, must be the string date-fns gives for the same
// patterns: 'HH:mm' on the same local day, else 'd. M. HH:mm'.
import { format, isSameDay } from 'date-fns';
import { sk as skLocale } from 'date-fns/locale';
import { describe, expect, it } from 'vitest';
import { messageTime } from '../../../src/pages/chat/message-time.ts';

const reference = (iso: string, now: Date) => {
  const d = new Date(iso);
  return format(d, isSameDay(d, now) ? 'HH:mm' : 'd. M. HH:mm', { locale: skLocale });
};

describe('messageTime', () => {
  it('matches date-fns for times across two years, today and not', () => {
    const now = new Date(2026, 10, 22, 9, 5);
    const start = new Date(2025, 0, 1, 0, 0).getTime();
    // Every 7 h 13 min over two years hits every hour, many minutes and both sides of DST changes.
    for (let t = start; t < start + 2 * 366 * 86_400_000; t += (7 * 60 + 13) * 60_000) {
      const iso = new Date(t).toISOString();
      expect(messageTime(iso, now), iso).toBe(reference(iso, now));
    }
    for (const [h, m] of [[0, 0], [0, 9], [9, 5], [23, 59]] as const) {
      const iso = new Date(2026, 10, 22, h, m).toISOString();
      expect(messageTime(iso, now)).toBe(reference(iso, now));
      expect(messageTime(iso, now)).toMatch(/^\d\d:\d\d$/);
    }
  });

  it('answers an empty string for an invalid time', () => {
    expect(messageTime('nie je čas')).toBe('');
  });
});
