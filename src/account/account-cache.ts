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

const adminKey = (userId: string) => `poradna.super-admin.${userId}`;

/**
 * The last super-admin answer for a user, so an offline start still shows the 'Admin' tab (issue 37
 * admin 4): the tab only links to /admin, whose every read is checked by the server (RLS,
 * is_super_admin) and which offline says it needs a connection; the cache grants nothing.
 */
export function readCachedSuperAdmin(userId: string): boolean | null {
  const v = localStorage.getItem(adminKey(userId));
  return v === '1' ? true : v === '0' ? false : null;
}

export function writeCachedSuperAdmin(userId: string, value: boolean): void {
  try {
    localStorage.setItem(adminKey(userId), value ? '1' : '0');
  } catch {
    /* storage full or unavailable: the tab waits for the network next time */
  }
}
