import { useState } from 'react';
import { useAccount } from '../../account/account-context.ts';
import { useStopImpersonation } from '../../account/use-stop-impersonation.ts';
import { sk } from '../../text/sk.ts';
import { SettingsCard } from './SettingsCard.tsx';

/** Shown only while impersonating: 'Zrušiť impersonáciu' ends it and returns to the chat list. */
export function ImpersonationCard() {
  const { isImpersonating, impersonation } = useAccount();
  const stop = useStopImpersonation();
  const [busy, setBusy] = useState(false);
  if (!isImpersonating || !impersonation) return null;
  return (
    <SettingsCard title={sk.settings.impersonationTitle}>
      <p className="text-sm text-slate-600">{sk.settings.impersonationHint(impersonation.account.name)}</p>
      <button
        type="button"
        className="btn-secondary"
        disabled={busy}
        onClick={() => {
          setBusy(true);
          void stop().finally(() => setBusy(false));
        }}
      >
        {sk.impersonation.cancel}
      </button>
    </SettingsCard>
  );
}
