// A message's time in the bubble: 'HH:mm' today, else a short Slovak date with the time.
import { format, isToday } from 'date-fns';
import { sk as skLocale } from 'date-fns/locale';

export function messageTime(iso: string): string {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return '';
  return format(date, isToday(date) ? 'HH:mm' : 'd. M. HH:mm', { locale: skLocale });
}
