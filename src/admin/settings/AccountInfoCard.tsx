import { admin } from '../../text/admin.ts';
import { formatDate } from '../lib/format.ts';
import { Card } from '../ui/Card.tsx';
import type { AccountRow } from './settings-data.ts';

export function AccountInfoCard({ account }: { account: AccountRow }) {
  return (
    <Card title={admin.settings.info}>
      <dl className="grid grid-cols-[auto_1fr] gap-x-3 gap-y-1 text-sm">
        <dt className="text-slate-500">{admin.settings.ownerEmail}</dt>
        <dd data-testid="owner-email">{account.owner_email ?? '—'}</dd>
        <dt className="text-slate-500">{admin.settings.created}</dt>
        <dd data-testid="created-at">{formatDate(account.created_at) ?? '—'}</dd>
      </dl>
    </Card>
  );
}
