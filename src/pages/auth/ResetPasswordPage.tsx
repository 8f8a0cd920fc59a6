// /auth/reset-password: 'Overujeme odkaz...' while the link is read, then the new-password form or
// the 'Odkaz expiroval' screen. Opened without link parameters, an existing session gets the form.
import { Link } from 'react-router-dom';
import { useAuth } from '../../auth/auth-context.ts';
import { sk } from '../../text/sk.ts';
import { AuthCard } from './AuthCard.tsx';
import { NewPasswordForm } from './NewPasswordForm.tsx';
import { useLinkSession } from './use-link-session.ts';

export function ResetPasswordPage() {
  const outcome = useLinkSession();
  const { session, loading } = useAuth();

  if (!outcome || (!outcome.ok && outcome.reason === 'missing' && loading)) {
    return (
      <AuthCard title={sk.auth.resetTitle}>
        <p role="status" aria-busy="true" className="text-slate-600">
          {sk.auth.verifying}
        </p>
      </AuthCard>
    );
  }

  const usable = outcome.ok || (outcome.reason === 'missing' && session !== null);
  if (!usable) {
    return (
      <AuthCard title={sk.auth.expiredTitle}>
        <p className="mb-5 text-sm text-slate-600">{sk.auth.expiredHint}</p>
        <div className="flex flex-col gap-3">
          <Link to="/auth/forgot-password" className="btn-primary">
            {sk.auth.sendAgain}
          </Link>
          <Link to="/auth/login" className="btn-secondary">
            {sk.auth.backToLogin}
          </Link>
        </div>
      </AuthCard>
    );
  }

  return (
    <AuthCard title={sk.auth.resetTitle}>
      <NewPasswordForm />
    </AuthCard>
  );
}
