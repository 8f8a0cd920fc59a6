// Conversation-row time (user-area.md section 9): under 1 h 'Teraz', under 24 h '{n}h', under 7 days
// '{n}d', otherwise a Slovak short date. A time in the future (clock skew) counts as 'Teraz'.
// "Now" is the server's clock as the sync engine learnt it (sync/SPEC.md R9.11), so a phone whose
// clock is hours off still reads '3h' for a message three hours old, not 'Teraz' or '1h'.
// The short date is date-fns' lightFormat, not its format with the Slovak locale: every row of the
// list needs it before it paints, and format with its Slovak and default English locales was 7 KB
// gzip of the JavaScript loaded before that paint (bench row 8a). The date is numeric, so it needs
// no locale text: the unit test compares it with format's 'P' in the Slovak locale ('d. M. y').
import { lightFormat } from 'date-fns/lightFormat';
import { serverNow } from '../../sync/session/server-time.ts';
import { skShell as sk } from '../text/sk-shell.ts';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;

export function formatRelativeTime(value: Date | string | number, now: Date = new Date(serverNow())): string {
  const date = value instanceof Date ? value : new Date(value);
  if (Number.isNaN(date.getTime())) return '';
  const elapsed = now.getTime() - date.getTime();
  if (elapsed < HOUR) return sk.time.now;
  if (elapsed < DAY) return sk.time.hours(Math.floor(elapsed / HOUR));
  if (elapsed < 7 * DAY) return sk.time.days(Math.floor(elapsed / DAY));
  return lightFormat(date, 'd. M. y');
}
