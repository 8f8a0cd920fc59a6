import { useState } from 'react';
import { resetPassword } from '../../auth/auth-actions.ts';
import { useAuth } from '../../auth/auth-context.ts';
import { toastError, toastSuccess } from '../../lib/notify.ts';
import { sk } from '../../text/sk.ts';
import { RESET_TOAST_MS } from '../auth/NewPasswordForm.tsx';
import { SettingsCard } from './SettingsCard.tsx';

/** 'Resetovať heslo' mails the signed-in user a reset link. */
export function SecurityCard() {
  const { user } = useAuth();
  const [busy, setBusy] = useState(false);

  const send = async () => {
    if (!user?.email) {
      toastError(sk.auth.missingEmailTitle, sk.auth.missingEmail);
      return;
    }
    setBusy(true);
    const result = await resetPassword(user.email, sk.errors.settingsResetFailed);
    setBusy(false);
    if (result.error) toastError(sk.toast.errorTitle, result.error);
    else toastSuccess(sk.auth.resetMailSent, { duration: RESET_TOAST_MS });
  };

  return (
    <SettingsCard title={sk.settings.securityTitle}>
      <button type="button" className="btn-secondary" disabled={busy} onClick={() => void send()}>
        {sk.settings.resetPassword}
      </button>
    </SettingsCard>
  );
}
