// R18.1/R18.4: the database's `changed` broadcast (payload {v: 1, account_id, change_seq, id}) as the
// engine reads it. It carries no row: only the account and its feed number, which the engine compares
// with its cursor before it pulls (receive/events.ts). Anything else is dropped, never guessed at.
import type { TransportEvent } from './transport.ts';

/** The broadcast event the database sends on `account:<id>` and `user:<id>` (migration 20261130100000). */
export const FEED_EVENT = 'changed';

/** The feed event of `payload`, or null when it is not a feed number of `accountId`. */
export function feedEvent(payload: unknown, accountId: string | null): TransportEvent | null {
  const p = payload as { account_id?: unknown; change_seq?: unknown } | null;
  if (accountId === null || p?.account_id !== accountId) return null;
  if (typeof p.change_seq !== 'number' || !Number.isSafeInteger(p.change_seq)) return null;
  return { kind: 'feed', accountId, changeSeq: p.change_seq };
}
