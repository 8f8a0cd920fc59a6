import { describe, expect, it } from 'vitest';
import { filterAccounts, INITIAL_SORT, ownerIsSuperAdmin, sortAccounts, toggleSort, type AdminAccountRow } from '../../../src/admin/accounts/account-list.ts';
import { formatDate, formatDateTime } from '../../../src/admin/lib/format.ts';

const row = (id: string, name: string, email: string | null, last: string | null): AdminAccountRow => ({
  id,
  name,
  owner_email: email,
  specialists_count: 1,
  last_activity: last,
});

const rows = [
  row('1', 'Čierny účet', 'cierny@poradna.test', '2026-01-03T10:00:00Z'),
  row('2', 'admin Account', 'admin@poradna.test', '2026-01-01T10:00:00Z'),
  row('3', 'Demo Account', 'demo@poradna.test', null),
  row('4', 'Zelený', 'zeleny@poradna.test', '2026-01-02T10:00:00Z'),
];

describe('admin accounts: sorting toggles per column', () => {
  it('starts by name ascending; a click on the same column toggles, another column resets to ascending', () => {
    expect(INITIAL_SORT).toEqual({ key: 'name', direction: 'asc' });
    const desc = toggleSort(INITIAL_SORT, 'name');
    expect(desc).toEqual({ key: 'name', direction: 'desc' });
    expect(toggleSort(desc, 'name')).toEqual({ key: 'name', direction: 'asc' });
    expect(toggleSort(desc, 'last_activity')).toEqual({ key: 'last_activity', direction: 'asc' });
  });

  it('sorts names with the Slovak collation, case-insensitively', () => {
    expect(sortAccounts(rows, { key: 'name', direction: 'asc' }).map((r) => r.id)).toEqual(['2', '1', '3', '4']);
    expect(sortAccounts(rows, { key: 'name', direction: 'desc' }).map((r) => r.id)).toEqual(['4', '3', '1', '2']);
  });

  it('sorts by last activity, accounts without activity first when ascending', () => {
    expect(sortAccounts(rows, { key: 'last_activity', direction: 'asc' }).map((r) => r.id)).toEqual(['3', '2', '4', '1']);
    expect(sortAccounts(rows, { key: 'last_activity', direction: 'desc' }).map((r) => r.id)).toEqual(['1', '4', '2', '3']);
  });

  it('does not change the input array', () => {
    const copy = [...rows];
    sortAccounts(rows, { key: 'name', direction: 'desc' });
    expect(rows).toEqual(copy);
  });
});

describe('admin accounts: search by name or e-mail', () => {
  it('is a case-insensitive substring match over name and owner e-mail', () => {
    expect(filterAccounts(rows, 'DEMO').map((r) => r.id)).toEqual(['3']);
    expect(filterAccounts(rows, 'zeleny@').map((r) => r.id)).toEqual(['4']);
    expect(filterAccounts(rows, 'account').map((r) => r.id)).toEqual(['2', '3']);
    expect(filterAccounts(rows, '  ')).toHaveLength(4);
    expect(filterAccounts(rows, 'nikto')).toEqual([]);
  });
});

describe('admin accounts: super-admin owners', () => {
  it('by the server e-mail list (any case) or the view flag', () => {
    const emails = new Set(['admin@poradna.test']);
    expect(ownerIsSuperAdmin(row('x', 'A', 'Admin@Poradna.test', null), emails)).toBe(true);
    expect(ownerIsSuperAdmin(row('x', 'A', 'demo@poradna.test', null), emails)).toBe(false);
    expect(ownerIsSuperAdmin({ ...row('x', 'A', null, null), owner_is_super_admin: true }, emails)).toBe(true);
  });
});

describe('admin date formats', () => {
  it('dd.MM.yyyy HH:mm and dd.MM.yyyy; nothing for missing or invalid dates', () => {
    const local = new Date(2026, 0, 5, 9, 7);
    expect(formatDateTime(local.toISOString())).toBe('05.01.2026 09:07');
    expect(formatDate(local.toISOString())).toBe('05.01.2026');
    expect(formatDateTime(null)).toBeNull();
    expect(formatDate('not a date')).toBeNull();
  });
});
