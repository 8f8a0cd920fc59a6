import { useState } from 'react';
import { useNavigate } from 'react-router-dom';
import { clearImpersonation } from '../../account/impersonation-store.ts';
import { signOut } from '../../auth/auth-actions.ts';
import { toastError, toastSuccess } from '../../lib/notify.ts';
import { sk } from '../../text/sk.ts';
import { SettingsCard } from './SettingsCard.tsx';

/** 'Odhlásiť sa': a global sign-out, then /auth/login with the toast 'Odhlásený'. */
export function SessionCard() {
  const navigate = useNavigate();
  const [busy, setBusy] = useState(false);

  const leave = async () => {
    setBusy(true);
    const result = await signOut();
    if (result.error) {
      setBusy(false);
      toastError(sk.toast.errorTitle, result.error);
      return;
    }
    clearImpersonation();
    toastSuccess(sk.auth.signedOut);
    await navigate('/auth/login', { replace: true });
  };

  return (
    <SettingsCard title={sk.settings.sessionTitle}>
      <button type="button" className="btn-danger" disabled={busy} onClick={() => void leave()}>
        {sk.settings.signOut}
      </button>
    </SettingsCard>
  );
}
