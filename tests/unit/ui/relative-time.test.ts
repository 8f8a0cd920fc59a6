import { format } from 'date-fns';
import { sk as skLocale } from 'date-fns/locale';
import { describe, expect, it } from 'vitest';
import { formatRelativeTime } from '../../../src/lib/relative-time.ts';

const now = new Date('2025-03-15T12:00:00Z');
const ago = (ms: number) => new Date(now.getTime() - ms);
const MIN = 60_000;
const HOUR = 60 * MIN;
const DAY = 24 * HOUR;

describe('formatRelativeTime (user-area.md section 9)', () => {
  it("says 'Teraz' under one hour", () => {
    expect(formatRelativeTime(ago(0), now)).toBe('Teraz');
    expect(formatRelativeTime(ago(59 * MIN), now)).toBe('Teraz');
  });
  it("says '{n}h' from one hour to under 24 hours", () => {
    expect(formatRelativeTime(ago(HOUR), now)).toBe('1h');
    expect(formatRelativeTime(ago(5 * HOUR + 59 * MIN), now)).toBe('5h');
    expect(formatRelativeTime(ago(DAY - 1), now)).toBe('23h');
  });
  it("says '{n}d' from one day to under 7 days", () => {
    expect(formatRelativeTime(ago(DAY), now)).toBe('1d');
    expect(formatRelativeTime(ago(7 * DAY - 1), now)).toBe('6d');
  });
  it('gives a Slovak short date from 7 days on', () => {
    expect(formatRelativeTime(new Date(2025, 0, 5, 10, 0), now)).toBe('5. 1. 2025');
    expect(formatRelativeTime(ago(7 * DAY), now)).toMatch(/^\d{1,2}\. \d{1,2}\. \d{4}$/);
  });
  it("writes the short date as date-fns' 'P' in the Slovak locale does (it is lightFormat without a locale, bench row 8a)", () => {
    // Every 9 h 7 min over three years: every day of the month, both sides of DST changes.
    const start = new Date(2023, 0, 1, 0, 0).getTime();
    for (let t = start; t < start + 3 * 366 * DAY; t += (9 * 60 + 7) * MIN) {
      const d = new Date(t);
      const later = new Date(t + 8 * DAY);
      expect(formatRelativeTime(d, later), d.toISOString()).toBe(format(d, 'P', { locale: skLocale }));
    }
  });
  it('accepts ISO strings and treats future times as now', () => {
    expect(formatRelativeTime(ago(2 * HOUR).toISOString(), now)).toBe('2h');
    expect(formatRelativeTime(new Date(now.getTime() + 5 * MIN), now)).toBe('Teraz');
  });
  it('gives an empty string for an invalid date', () => {
    expect(formatRelativeTime('not a date', now)).toBe('');
  });
});
