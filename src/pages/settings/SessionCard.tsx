import { useEffect, useRef, useState } from 'react';
import { useNavigate } from 'react-router-dom';
import { clearImpersonation } from '../../account/impersonation-store.ts';
import { signOut } from '../../auth/auth-actions.ts';
import { useSyncEngine } from '../../data/sync-context.ts';
import { useSyncQuery } from '../../data/use-sync-query.ts';
import { toastError, toastSuccess } from '../../lib/notify.ts';
import { unregisterForSignOut } from '../../pwa/push.ts';
import { sk } from '../../text/sk.ts';
import { SettingsCard } from './SettingsCard.tsx';
import { isUnsentText } from './unsent-count.ts';

/**
 * 'Odhlásiť sa': a global sign-out, the user's local database deleted (R1.11), then /auth/login with the
 * toast 'Odhlásený'. While messages wait in the outbox, the first press only warns (they would be lost
 * with the database); the warning disappears by itself once they are sent.
 */
export function SessionCard() {
  const navigate = useNavigate();
  const engine = useSyncEngine();
  const [busy, setBusy] = useState(false);
  const [asked, setAsked] = useState(false);
  const unsent = useSyncQuery((db) => db.outbox.filter(isUnsentText).count(), [])?.value ?? 0;
  const warning = asked && unsent > 0;
  const stay = useRef<HTMLButtonElement>(null);
  // The pressed button is replaced by the warning: keep keyboard focus on the safe choice.
  useEffect(() => {
    if (warning) stay.current?.focus();
  }, [warning]);

  const leave = async () => {
    setBusy(true);
    // R11.2: the server forgets this device while the session can still say whose it is.
    await unregisterForSignOut();
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
      {warning ? (
        <div role="alert" className="space-y-3">
          <p className="text-sm">
            {sk.settings.unsentWarning(unsent)} {sk.settings.unsentHint(unsent)}
          </p>
          <div className="flex flex-wrap gap-2">
            <button type="button" className="btn-danger" disabled={busy} onClick={() => void leave()}>
              {sk.settings.signOutAnyway}
            </button>
            <button ref={stay} type="button" className="btn-secondary" disabled={busy} onClick={() => setAsked(false)}>
              {sk.settings.staySignedIn}
            </button>
          </div>
        </div>
      ) : (
        <button type="button" className="btn-danger" disabled={busy} onClick={() => (unsent > 0 ? setAsked(true) : void leave())}>
          {sk.settings.signOut}
        </button>
      )}
    </SettingsCard>
  );
}
