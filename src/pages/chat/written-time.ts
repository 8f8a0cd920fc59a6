// Issue 37 user item 12 (sync/SPEC.md R1.14): a bubble shows when its message was WRITTEN
// (payload.written_at, which the server kept within bounds), not when the server received it; a
// message without one (a reply, an older row) shows created_at. The list files a message under the
// day of created_at (its order), so when the written day is another one the time says the date too.
import type { LocalMessage } from '../../../sync/model/local-types.ts';
import { clockTime, messageTime } from './message-time.ts';

type Timed = Pick<LocalMessage, 'createdAt' | 'payload'>;

/** The ISO time the message was written: payload.written_at when it is a time, else created_at. */
export function writtenAtOf(m: Timed): string {
  const w = m.payload?.written_at;
  return typeof w === 'string' && !Number.isNaN(Date.parse(w)) ? w : m.createdAt;
}

const dayOf = (iso: string): string => new Date(iso).toDateString();

/** 'HH:mm', or 'd. M. HH:mm' when written on another (local) day than the one it is filed under. */
export function writtenTimeLabel(m: Timed): string {
  const at = writtenAtOf(m);
  return dayOf(at) === dayOf(m.createdAt) ? clockTime(at) : messageTime(at, new Date(m.createdAt));
}

/** True when the written time differs from the receive time by a minute or more (worth saying so). */
export function deliveredLater(m: Timed): boolean {
  return Date.parse(m.createdAt) - Date.parse(writtenAtOf(m)) >= 60_000;
}
