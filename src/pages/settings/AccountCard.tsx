import { useAuth } from '../../auth/auth-context.ts';
import { sk } from '../../text/sk.ts';
import { formatLastSignIn } from './last-sign-in.ts';
import { SettingsCard } from './SettingsCard.tsx';

export function AccountCard() {
  const { user } = useAuth();
  return (
    <SettingsCard title={sk.settings.accountTitle}>
      <dl className="grid grid-cols-1 gap-2 text-sm">
        <div>
          <dt className="text-slate-500">{sk.settings.email}</dt>
          <dd className="font-medium break-all" data-testid="account-email">
            {user?.email ?? sk.settings.unavailable}
          </dd>
        </div>
        <div>
          <dt className="text-slate-500">{sk.settings.lastSignIn}</dt>
          <dd className="font-medium" data-testid="last-sign-in">
            {formatLastSignIn(user?.last_sign_in_at)}
          </dd>
        </div>
      </dl>
    </SettingsCard>
  );
}
