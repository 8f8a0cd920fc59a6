// A row's actions (Settings, Impersonate, Delete — Delete hidden for super-admin owners), shared by the
// desktop table and the phone cards. Each button keeps its visible text; the icon is decorative.
import { admin } from '../../text/admin.ts';
import { Button } from '../ui/Button.tsx';
import { AdminIcon } from '../ui/icons.tsx';
import type { AdminAccountRow } from './account-list.ts';

export interface RowActionHandlers {
  onSettings: (row: AdminAccountRow) => void;
  onImpersonate: (row: AdminAccountRow) => void;
  onDelete: (email: string) => void;
}

export function RowActions({ row, superAdmin, onSettings, onImpersonate, onDelete, fill = false }: RowActionHandlers & { row: AdminAccountRow; superAdmin: boolean; fill?: boolean }) {
  const grow = fill ? 'flex-1' : '';
  return (
    <div role="group" aria-label={admin.accounts.rowActions(row.name)} className="flex flex-wrap gap-1.5">
      <Button className={grow} onClick={() => onSettings(row)}>
        <AdminIcon name="settings" />
        {admin.accounts.settings}
      </Button>
      <Button className={grow} onClick={() => onImpersonate(row)}>
        <AdminIcon name="impersonate" />
        {admin.accounts.impersonate}
      </Button>
      {!superAdmin && row.owner_email && (
        <Button className={grow} variant={fill ? 'dangerOutline' : 'danger'} onClick={() => onDelete(row.owner_email ?? '')}>
          <AdminIcon name="delete" />
          {admin.accounts.delete}
        </Button>
      )}
    </div>
  );
}
