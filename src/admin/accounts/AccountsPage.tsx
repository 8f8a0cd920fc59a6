// /admin/accounts: search, count, sorting, the table with its row actions, empty states, 5 skeleton rows.
import { useCallback, useEffect, useMemo, useState } from 'react';
import { useNavigate } from 'react-router-dom';
import { useDocumentTitle } from '../../lib/use-document-title.ts';
import { admin } from '../../text/admin.ts';
import { messageOf } from '../lib/errors.ts';
import { adminError, adminSuccess } from '../lib/toasts.ts';
import { Button } from '../ui/Button.tsx';
import { SearchField } from '../ui/TextField.tsx';
import { filterAccounts, INITIAL_SORT, sortAccounts, toggleSort, type AdminAccountRow, type SortKey, type SortState } from './account-list.ts';
import { AccountsTable } from './AccountsTable.tsx';
import { deleteUser, impersonate, loadAccounts, type AccountsData } from './accounts-data.ts';

function SortButton({ label, column, sort, onSort }: { label: string; column: SortKey; sort: SortState; onSort: (k: SortKey) => void }) {
  const active = sort.key === column;
  return (
    <Button
      variant={active ? 'primary' : 'secondary'}
      aria-pressed={active}
      data-direction={active ? sort.direction : undefined}
      onClick={() => onSort(column)}
    >
      {label}
      {active && <span aria-hidden="true">{sort.direction === 'asc' ? '↑' : '↓'}</span>}
    </Button>
  );
}

export function AccountsPage() {
  useDocumentTitle(admin.accounts.title);
  const navigate = useNavigate();
  const [data, setData] = useState<AccountsData | null>(null);
  const [loading, setLoading] = useState(true);
  const [query, setQuery] = useState('');
  const [sort, setSort] = useState<SortState>(INITIAL_SORT);

  const reload = useCallback(async () => {
    setLoading(true);
    try {
      setData(await loadAccounts());
    } catch (err) {
      console.error('admin accounts:', err);
      adminError(admin.accounts.loadFailed);
      setData((d) => d ?? { rows: [], superAdminEmails: new Set() });
    } finally {
      setLoading(false);
    }
  }, []);

  useEffect(() => {
    void reload();
  }, [reload]);

  const rows = useMemo(() => sortAccounts(filterAccounts(data?.rows ?? [], query), sort), [data, query, sort]);

  const onImpersonate = async (row: AdminAccountRow) => {
    try {
      const account = await impersonate(row);
      adminSuccess(admin.accounts.impersonating(account.name));
      await navigate('/app/chats');
    } catch (err) {
      console.error('impersonation:', err);
      adminError(admin.accounts.impersonateFailed);
    }
  };

  const onDelete = async (email: string) => {
    if (!window.confirm(admin.accounts.confirmDelete(email))) return;
    try {
      await deleteUser(email);
      adminSuccess(admin.accounts.deleted(email));
      await reload();
    } catch (err) {
      adminError(admin.accounts.deleteFailed(messageOf(err)));
    }
  };

  return (
    <section className="flex flex-col gap-3" aria-busy={loading}>
      <SearchField label={admin.accounts.search} value={query} onChange={setQuery} />
      <div className="flex flex-wrap items-center gap-2">
        <h2 className="text-lg font-semibold" data-testid="accounts-heading">
          {admin.accounts.heading(rows.length)}
        </h2>
        <div className="ml-auto flex gap-2">
          <SortButton label={admin.accounts.sortName} column="name" sort={sort} onSort={(k) => setSort((s) => toggleSort(s, k))} />
          <SortButton label={admin.accounts.sortActivity} column="last_activity" sort={sort} onSort={(k) => setSort((s) => toggleSort(s, k))} />
        </div>
      </div>
      <AccountsTable
        rows={rows}
        loading={loading && data === null}
        query={query}
        superAdminEmails={data?.superAdminEmails ?? new Set()}
        onSettings={(row) => void navigate(`/admin/accounts/${row.id}/settings`)}
        onImpersonate={(row) => void onImpersonate(row)}
        onDelete={(email) => void onDelete(email)}
      />
    </section>
  );
}
