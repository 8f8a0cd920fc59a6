// The last account seen for a user, so a cold start without network still shows the plan badge.
import type { Account } from '../data/remote-account.ts';

const key = (userId: string) => `poradna.account.${userId}`;

export function readCachedAccount(userId: string): Account | null {
  try {
    const value = JSON.parse(localStorage.getItem(key(userId)) ?? 'null') as Account | null;
    return value && typeof value.id === 'string' ? value : null;
  } catch {
    return null;
  }
}

export function writeCachedAccount(userId: string, account: Account): void {
  try {
    localStorage.setItem(key(userId), JSON.stringify(account));
  } catch {
    /* storage full or unavailable: the badge just waits for the network next time */
  }
}
