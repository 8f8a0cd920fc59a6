// Day separators (issue 40): 'Dnes', 'Včera', else the Slovak weekday and date (month in the
// genitive, as a date is said: 'streda 25. novembra'), with the year only when it is not this year's.
import { describe, expect, it } from 'vitest';
import { dayKey, dayLabel } from '../../../src/pages/chat/day-label.ts';
import { clockTime } from '../../../src/pages/chat/message-time.ts';

const now = new Date(2026, 10, 27, 9, 30); // Friday 27 November 2026, local time
const at = (y: number, mo: number, d: number, h = 12, mi = 0) => new Date(y, mo, d, h, mi).toISOString();

describe('dayLabel', () => {
  it("says 'Dnes' for any time of today, midnight to midnight", () => {
    expect(dayLabel(at(2026, 10, 27, 0, 0), now)).toBe('Dnes');
    expect(dayLabel(at(2026, 10, 27, 23, 59), now)).toBe('Dnes');
  });

  it("says 'Včera' for yesterday, also across a month's end", () => {
    expect(dayLabel(at(2026, 10, 26, 0, 1), now)).toBe('Včera');
    expect(dayLabel(at(2026, 10, 30, 23, 0), new Date(2026, 11, 1, 8))).toBe('Včera');
    expect(dayLabel(at(2025, 11, 31, 22), new Date(2026, 0, 1, 0, 30))).toBe('Včera');
  });

  it('names the weekday and the date in Slovak for an older day of this year', () => {
    expect(dayLabel(at(2026, 10, 25), now)).toBe('streda 25. novembra');
    expect(dayLabel(at(2026, 0, 4), now)).toBe('nedeľa 4. januára');
    expect(dayLabel(at(2026, 6, 1), now)).toBe('streda 1. júla');
  });

  it('adds the year for a day of another year', () => {
    expect(dayLabel(at(2025, 10, 25), now)).toBe('utorok 25. novembra 2025');
  });

  it('is empty for a time that cannot be read', () => {
    expect(dayLabel('nie je čas', now)).toBe('');
    expect(dayKey('nie je čas')).toBe('');
  });
});

describe('dayKey', () => {
  it('is one value per local day and differs between neighbouring days', () => {
    expect(dayKey(at(2026, 10, 27, 0, 0))).toBe(dayKey(at(2026, 10, 27, 23, 59)));
    expect(dayKey(at(2026, 10, 27, 23, 59))).not.toBe(dayKey(at(2026, 10, 28, 0, 0)));
  });
});

describe('clockTime', () => {
  it('shows only the local time, whatever the day (the separator says the day)', () => {
    expect(clockTime(at(2025, 2, 3, 7, 5))).toBe('07:05');
    expect(clockTime(at(2026, 10, 27, 23, 59))).toBe('23:59');
    expect(clockTime('x')).toBe('');
  });
});
