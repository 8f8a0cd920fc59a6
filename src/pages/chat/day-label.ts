// Day separators of the chat (issue 40): 'Dnes', 'Včera', else the weekday and date in Slovak
// ('streda 25. novembra', with the year when it is not this year's), in local time. The day key
// ('2026-11-25') tells two messages of the same local day apart from those of different days.
import { format } from 'date-fns';
import { sk as skLocale } from 'date-fns/locale';
import { sk } from '../../text/sk.ts';

/** The local calendar day of a timestamp, as 'yyyy-m-d' (only compared, never shown); '' when invalid. */
export function dayKey(iso: string): string {
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return '';
  return `${d.getFullYear()}-${d.getMonth() + 1}-${d.getDate()}`;
}

export function dayLabel(iso: string, now: Date = new Date()): string {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return '';
  const key = dayKey(iso);
  if (key === dayKey(now.toISOString())) return sk.chatActions.today;
  const yesterday = new Date(now.getFullYear(), now.getMonth(), now.getDate() - 1, 12);
  if (key === dayKey(yesterday.toISOString())) return sk.chatActions.yesterday;
  // date-fns' sk locale writes the month in the genitive when formatting ('25. novembra').
  const pattern = date.getFullYear() === now.getFullYear() ? 'EEEE d. MMMM' : 'EEEE d. MMMM yyyy';
  return format(date, pattern, { locale: skLocale });
}
