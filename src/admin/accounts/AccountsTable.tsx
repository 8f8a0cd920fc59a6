// The accounts table: Account (name, owner e-mail, Super Admin badge), Specialists, Last activity,
// Actions; 5 skeleton rows while loading; the two empty states.
import { admin } from '../../text/admin.ts';
import { formatDateTime } from '../lib/format.ts';
import { Badge } from '../ui/Badge.tsx';
import { Button } from '../ui/Button.tsx';
import { ownerIsSuperAdmin, type AdminAccountRow } from './account-list.ts';

interface AccountsTableProps {
  rows: AdminAccountRow[];
  loading: boolean;
  query: string;
  superAdminEmails: ReadonlySet<string>;
  onSettings: (row: AdminAccountRow) => void;
  onImpersonate: (row: AdminAccountRow) => void;
  onDelete: (email: string) => void;
}

const SKELETON_ROWS = 5;

function EmptyState({ query }: { query: string }) {
  if (query.trim() !== '') return <p className="p-4 text-center text-slate-600">{admin.accounts.noMatch(query.trim())}</p>;
  return (
    <div className="flex flex-col items-center gap-3 p-6 text-center">
      <p className="text-slate-600">{admin.accounts.none}</p>
      <Button variant="primary">{admin.accounts.create}</Button>
    </div>
  );
}

export function AccountsTable({ rows, loading, query, superAdminEmails, onSettings, onImpersonate, onDelete }: AccountsTableProps) {
  if (!loading && rows.length === 0) return <EmptyState query={query} />;
  return (
    <div className="overflow-x-auto rounded-xl border border-slate-200 bg-white">
      <table className="w-full min-w-[560px] text-left text-sm">
        <thead className="bg-slate-50 text-xs uppercase text-slate-500">
          <tr>
            <th className="px-3 py-2">{admin.accounts.colAccount}</th>
            <th className="px-3 py-2">{admin.accounts.colSpecialists}</th>
            <th className="px-3 py-2">{admin.accounts.colActivity}</th>
            <th className="px-3 py-2">{admin.accounts.colActions}</th>
          </tr>
        </thead>
        <tbody>
          {loading
            ? Array.from({ length: SKELETON_ROWS }, (_, i) => (
                <tr key={i} data-testid="account-skeleton" className="border-t border-slate-100">
                  {[0, 1, 2, 3].map((c) => (
                    <td key={c} className="px-3 py-3">
                      <div className="h-4 animate-pulse rounded bg-slate-200 motion-reduce:animate-none" />
                    </td>
                  ))}
                </tr>
              ))
            : rows.map((row) => {
                const superAdmin = ownerIsSuperAdmin(row, superAdminEmails);
                return (
                  <tr key={row.id} data-testid="account-row" data-account-id={row.id} className="border-t border-slate-100 align-top">
                    <td className="px-3 py-2">
                      <div className="font-medium" data-testid="account-name">
                        {row.name}
                      </div>
                      {row.owner_email && <div className="text-xs text-slate-500">{row.owner_email}</div>}
                      {superAdmin && <Badge tone="violet">{admin.accounts.superAdmin}</Badge>}
                    </td>
                    <td className="px-3 py-2">{row.specialists_count}</td>
                    <td className="px-3 py-2 whitespace-nowrap">{formatDateTime(row.last_activity) ?? admin.accounts.never}</td>
                    <td className="px-3 py-2">
                      <div className="flex flex-wrap gap-1">
                        <Button onClick={() => onSettings(row)}>{admin.accounts.settings}</Button>
                        <Button onClick={() => onImpersonate(row)}>{admin.accounts.impersonate}</Button>
                        {!superAdmin && row.owner_email && (
                          <Button variant="danger" onClick={() => onDelete(row.owner_email ?? '')}>
                            {admin.accounts.delete}
                          </Button>
                        )}
                      </div>
                    </td>
                  </tr>
                );
              })}
        </tbody>
      </table>
    </div>
  );
}
