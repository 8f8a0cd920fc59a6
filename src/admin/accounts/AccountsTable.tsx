// The accounts list in its two layouts (issue 21 admin item 12). Desktop (≥1024 px): a full-width
// table — Account (name, owner e-mail, Super Admin badge), Specialists, Last activity, Actions — whose
// Account and Last activity headers sort (aria-sort) and stick under the app header while the page
// scrolls. Phone: one card per account, actions on the card, so nothing needs a sideways scroll.
// 5 skeleton rows while loading; the two empty states.
import { admin } from '../../text/admin.ts';
import { formatDateTime } from '../lib/format.ts';
import { Badge } from '../ui/Badge.tsx';
import { Button } from '../ui/Button.tsx';
import { ownerIsSuperAdmin, type AdminAccountRow, type SortKey, type SortState } from './account-list.ts';
import { RowActions, type RowActionHandlers } from './RowActions.tsx';
import { SortHeader } from './SortHeader.tsx';

interface AccountsListProps extends RowActionHandlers {
  rows: AdminAccountRow[];
  loading: boolean;
  query: string;
  superAdminEmails: ReadonlySet<string>;
  sort: SortState;
  onSort: (key: SortKey) => void;
  desktop: boolean;
}

const SKELETON_ROWS = 5;

function EmptyState({ query }: { query: string }) {
  if (query.trim() !== '') return <p className="p-4 text-center text-slate-600">{admin.accounts.noMatch(query.trim())}</p>;
  return (
    <div className="flex flex-col items-center gap-3 p-6 text-center" data-testid="accounts-empty">
      <p className="text-slate-600">{admin.accounts.none}</p>
      <Button variant="primary">{admin.accounts.create}</Button>
    </div>
  );
}

function Owner({ row, superAdmin }: { row: AdminAccountRow; superAdmin: boolean }) {
  return (
    <>
      <div className="font-medium break-words" data-testid="account-name">
        {row.name}
      </div>
      {row.owner_email && <div className="text-xs break-all text-slate-600">{row.owner_email}</div>}
      {superAdmin && <Badge tone="violet">{admin.accounts.superAdmin}</Badge>}
    </>
  );
}

const skeletonBar = <div className="h-4 animate-pulse rounded bg-slate-200 motion-reduce:animate-none" />;

/** Sticks under the app header (min-h-14 + its 1 px border + the safe area). */
const STICKY_HEAD = 'sticky top-[calc(3.5rem+1px+env(safe-area-inset-top))] z-10';

function DesktopTable({ rows, loading, superAdminEmails, sort, onSort, ...handlers }: AccountsListProps) {
  return (
    <table className="w-full border-separate border-spacing-0 rounded-xl border border-slate-200 bg-white text-left text-sm" data-testid="accounts-table">
      <thead className={`${STICKY_HEAD} bg-slate-50 text-xs text-slate-600 shadow-[0_1px_0_var(--color-slate-200)]`} data-testid="accounts-thead">
        <tr>
          <SortHeader label={admin.accounts.colAccount} column="name" sort={sort} onSort={onSort} />
          <th scope="col" className="px-4 py-2.5 font-semibold uppercase">
            {admin.accounts.colSpecialists}
          </th>
          <SortHeader label={admin.accounts.colActivity} column="last_activity" sort={sort} onSort={onSort} />
          <th scope="col" className="px-4 py-2.5 font-semibold uppercase">
            {admin.accounts.colActions}
          </th>
        </tr>
      </thead>
      <tbody>
        {loading
          ? Array.from({ length: SKELETON_ROWS }, (_, i) => (
              <tr key={i} data-testid="account-skeleton">
                {[0, 1, 2, 3].map((c) => (
                  <td key={c} className="border-t border-slate-100 px-4 py-3">
                    {skeletonBar}
                  </td>
                ))}
              </tr>
            ))
          : rows.map((row) => {
              const superAdmin = ownerIsSuperAdmin(row, superAdminEmails);
              return (
                <tr key={row.id} data-testid="account-row" data-account-id={row.id} className="align-top hover:bg-slate-50">
                  <td className="border-t border-slate-100 px-4 py-3">
                    <Owner row={row} superAdmin={superAdmin} />
                  </td>
                  <td className="border-t border-slate-100 px-4 py-3 tabular-nums">{row.specialists_count}</td>
                  <td className="border-t border-slate-100 px-4 py-3 whitespace-nowrap tabular-nums">{formatDateTime(row.last_activity) ?? admin.accounts.never}</td>
                  <td className="border-t border-slate-100 px-4 py-2">
                    <RowActions row={row} superAdmin={superAdmin} {...handlers} />
                  </td>
                </tr>
              );
            })}
      </tbody>
    </table>
  );
}

function PhoneCards({ rows, loading, superAdminEmails, ...handlers }: AccountsListProps) {
  if (loading) {
    return (
      <ul className="flex flex-col gap-2">
        {Array.from({ length: SKELETON_ROWS }, (_, i) => (
          <li key={i} data-testid="account-skeleton" className="flex flex-col gap-2 rounded-xl border border-slate-200 bg-white p-3">
            {skeletonBar}
            {skeletonBar}
          </li>
        ))}
      </ul>
    );
  }
  return (
    <ul className="flex flex-col gap-2">
      {rows.map((row) => {
        const superAdmin = ownerIsSuperAdmin(row, superAdminEmails);
        return (
          <li key={row.id} data-testid="account-row" data-account-id={row.id} className="flex flex-col gap-2 rounded-xl border border-slate-200 bg-white p-3">
            <div className="min-w-0">
              <Owner row={row} superAdmin={superAdmin} />
            </div>
            <dl className="grid grid-cols-[auto_1fr] gap-x-3 text-sm">
              <dt className="text-slate-600">{admin.accounts.colSpecialists}</dt>
              <dd className="tabular-nums">{row.specialists_count}</dd>
              <dt className="text-slate-600">{admin.accounts.colActivity}</dt>
              <dd className="tabular-nums">{formatDateTime(row.last_activity) ?? admin.accounts.never}</dd>
            </dl>
            <RowActions row={row} superAdmin={superAdmin} fill {...handlers} />
          </li>
        );
      })}
    </ul>
  );
}

export function AccountsList(props: AccountsListProps) {
  if (!props.loading && props.rows.length === 0) return <EmptyState query={props.query} />;
  return props.desktop ? <DesktopTable {...props} /> : <PhoneCards {...props} />;
}
