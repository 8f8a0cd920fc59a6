// /admin/accounts: search, count, sorting, the list with its row actions, empty states, 5 skeleton
// rows. A failed load shows the error state with 'Skúsiť znova' (and the spec's toast), never the
// "no accounts yet" empty state (issue 21 admin item 2). The count shows only once known ('Účty' while
// loading, never 'Účty (0)'), and deleting a user asks in the product's own dialog (ConfirmDialog:
// modal, focus on 'Zrušiť', Escape cancels), not the browser's confirm() (issue 37 admin 4).
import { useCallback, useEffect, useMemo, useState } from 'react';
import { useNavigate } from 'react-router-dom';
import { useDocumentTitle } from '../../lib/use-document-title.ts';
import { admin } from '../../text/admin.ts';
import { messageOf } from '../lib/errors.ts';
import { adminError, adminSuccess } from '../lib/toasts.ts';
import { DESKTOP_QUERY, useMedia } from '../../lib/use-media.ts';
import { ConfirmDialog } from '../ui/ConfirmDialog.tsx';
import { LoadFailed } from '../ui/LoadStates.tsx';
import { SearchField } from '../ui/TextField.tsx';
import { filterAccounts, INITIAL_SORT, sortAccounts, toggleSort, type AdminAccountRow, type SortKey, type SortState } from './account-list.ts';
import { AccountsList } from './AccountsTable.tsx';
import { deleteUser, impersonate, loadAccounts, type AccountsData } from './accounts-data.ts';
import { SortButtons } from './SortHeader.tsx';

type Load = { kind: 'loading' } | { kind: 'failed' } | { kind: 'ready'; data: AccountsData };

export function AccountsPage() {
  useDocumentTitle(admin.accounts.title);
  const navigate = useNavigate();
  const desktop = useMedia(DESKTOP_QUERY);
  const [load, setLoad] = useState<Load>({ kind: 'loading' });
  const [query, setQuery] = useState('');
  const [sort, setSort] = useState<SortState>(INITIAL_SORT);
  const [deleting, setDeleting] = useState<string | null>(null);

  const reload = useCallback(async () => {
    // A reload after a change keeps the list on screen; only the first load shows skeletons.
    setLoad((l) => (l.kind === 'ready' ? l : { kind: 'loading' }));
    try {
      const data = await loadAccounts();
      setLoad({ kind: 'ready', data });
    } catch (err) {
      console.error('admin accounts:', err);
      adminError(admin.accounts.loadFailed);
      setLoad({ kind: 'failed' });
    }
  }, []);

  useEffect(() => {
    void reload();
  }, [reload]);
  // Stable, so LoadFailed's 'online' listener (registered per onRetry) is not re-added each render.
  const retry = useCallback(() => {
    setLoad({ kind: 'loading' });
    void reload();
  }, [reload]);

  const data = load.kind === 'ready' ? load.data : null;
  const rows = useMemo(() => sortAccounts(filterAccounts(data?.rows ?? [], query), sort), [data, query, sort]);
  const onSort = (k: SortKey) => setSort((s) => toggleSort(s, k));

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
    setDeleting(null);
    try {
      await deleteUser(email);
      adminSuccess(admin.accounts.deleted(email));
      await reload();
    } catch (err) {
      adminError(admin.accounts.deleteFailed(messageOf(err)));
    }
  };

  if (load.kind === 'failed') {
    return (
      <LoadFailed message={admin.accounts.loadFailed} onRetry={retry} />
    );
  }

  return (
    <section className="flex flex-col gap-3" aria-busy={load.kind === 'loading'}>
      <div className="flex flex-col gap-3 lg:flex-row lg:items-center">
        <div className="lg:ml-auto lg:w-96">
          <SearchField label={admin.accounts.search} value={query} onChange={setQuery} />
        </div>
        <h2 className="text-lg font-semibold lg:order-first" data-testid="accounts-heading">
          {load.kind === 'ready' ? admin.accounts.heading(rows.length) : admin.accounts.title}
        </h2>
      </div>
      {!desktop && <SortButtons sort={sort} onSort={onSort} />}
      <AccountsList
        rows={rows}
        loading={load.kind === 'loading'}
        query={query}
        superAdminEmails={data?.superAdminEmails ?? new Set()}
        sort={sort}
        onSort={onSort}
        desktop={desktop}
        onSettings={(row) => void navigate(`/admin/accounts/${row.id}/settings`)}
        onImpersonate={(row) => void onImpersonate(row)}
        onDelete={setDeleting}
      />
      {deleting !== null && (
        <ConfirmDialog
          title={admin.accounts.confirmDeleteTitle}
          confirmLabel={admin.accounts.delete}
          cancelLabel={admin.chatwoot.cancel}
          onCancel={() => setDeleting(null)}
          onConfirm={() => void onDelete(deleting)}
        >
          <p>{admin.accounts.confirmDelete(deleting)}</p>
        </ConfirmDialog>
      )}
    </section>
  );
}
