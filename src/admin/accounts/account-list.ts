// Pure rules of the accounts list (admin-area.md section 2): search by name or owner e-mail, sort by
// name or last activity; a click on the current column toggles the direction, another column starts
// ascending.
import { matchesQuery } from '../lib/search.ts';

export interface AdminAccountRow {
  id: string;
  name: string;
  owner_email: string | null;
  specialists_count: number;
  last_activity: string | null;
  owner_is_super_admin?: boolean;
}

export type SortKey = 'name' | 'last_activity';
export type SortDirection = 'asc' | 'desc';
export interface SortState {
  key: SortKey;
  direction: SortDirection;
}

export const INITIAL_SORT: SortState = { key: 'name', direction: 'asc' };

export function toggleSort(current: SortState, key: SortKey): SortState {
  if (current.key !== key) return { key, direction: 'asc' };
  return { key, direction: current.direction === 'asc' ? 'desc' : 'asc' };
}

function time(value: string | null): number {
  const t = value ? Date.parse(value) : Number.NaN;
  return Number.isNaN(t) ? Number.NEGATIVE_INFINITY : t;
}

export function sortAccounts<T extends AdminAccountRow>(rows: readonly T[], sort: SortState): T[] {
  const sign = sort.direction === 'asc' ? 1 : -1;
  return [...rows].sort((a, b) => {
    const primary =
      sort.key === 'name' ? a.name.localeCompare(b.name, 'sk', { sensitivity: 'base' }) : time(a.last_activity) - time(b.last_activity);
    return primary !== 0 ? sign * primary : a.id.localeCompare(b.id);
  });
}

export function filterAccounts<T extends AdminAccountRow>(rows: readonly T[], query: string): T[] {
  return rows.filter((r) => matchesQuery(query, [r.name, r.owner_email]));
}

/** Whether the row's owner is a super admin: by the server's e-mail list, or the view's own flag. */
export function ownerIsSuperAdmin(row: AdminAccountRow, superAdminEmails: ReadonlySet<string>): boolean {
  return row.owner_is_super_admin === true || (row.owner_email !== null && superAdminEmails.has(row.owner_email.toLowerCase()));
}
