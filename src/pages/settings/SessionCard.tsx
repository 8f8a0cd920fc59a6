import { useState } from 'react';
import { useNavigate } from 'react-router-dom';
import { clearImpersonation } from '../../account/impersonation-store.ts';
import { signOut } from '../../auth/auth-actions.ts';
import { useSyncEngine } from '../../data/sync-context.ts';
import { toastError, toastSuccess } from '../../lib/notify.ts';
import { sk } from '../../text/sk.ts';
import { SettingsCard } from './SettingsCard.tsx';

/** 'Odhlásiť sa': a global sign-out, the user's local database deleted (R1.11), then /auth/login with the toast 'Odhlásený'. */
export function SessionCard() {
  const navigate = useNavigate();
  const engine = useSyncEngine();
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
    await engine?.signOut().catch((err: unknown) => console.warn('sync sign-out:', err));
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
