// 'Upozornenia' (issue 20, R11.1): the state of notifications on this device, turning them on and off,
// and what to do when the browser refused or cannot show them (iOS outside the home screen). The
// browser's permission prompt comes only from this card's button (or the prompt after the first
// sent message), never on load.
import { useEffect, useState } from 'react';
import { toastError, toastInfo, toastSuccess } from '../../lib/notify.ts';
import { currentPushState, disablePush, enablePush, type PushState } from '../../pwa/push.ts';
import { pushText } from '../../pwa/push-texts.ts';
import { SettingsCard } from './SettingsCard.tsx';

export function NotificationsCard() {
  const [state, setState] = useState<PushState | null>(null);
  const [busy, setBusy] = useState(false);

  useEffect(() => {
    let live = true;
    const read = () =>
      void currentPushState()
        .then((s) => live && setState(s))
        .catch(() => live && setState('off'));
    read();
    // The user may change the permission in the browser's site settings while the card is open.
    document.addEventListener('visibilitychange', read);
    return () => {
      live = false;
      document.removeEventListener('visibilitychange', read);
    };
  }, []);

  const run = async (action: () => Promise<PushState>, wanted: PushState) => {
    setBusy(true);
    try {
      const s = await action();
      setState(s);
      if (s === wanted) toastSuccess(wanted === 'on' ? pushText.turnedOn : pushText.turnedOff);
      else if (s === 'blocked') toastInfo(pushText.refused);
    } catch (err) {
      console.warn('push:', err);
      toastError(pushText.failed);
      setState(await currentPushState().catch(() => 'off' as const));
    } finally {
      setBusy(false);
    }
  };

  return (
    <SettingsCard title={pushText.title}>
      <div data-testid="push-card" data-state={state ?? 'loading'} className="flex flex-col gap-3">
        <p className="text-sm">
          {pushText.stateLabel}: <strong data-testid="push-state">{state ? pushText.state[state] : '…'}</strong>
        </p>
        {state && <p className="text-sm text-slate-700">{pushText.hint[state]}</p>}
        {state === 'off' && (
          <button type="button" className="btn-primary self-start" disabled={busy} onClick={() => void run(enablePush, 'on')}>
            {pushText.turnOn}
          </button>
        )}
        {state === 'on' && (
          <button type="button" className="btn-secondary self-start" disabled={busy} onClick={() => void run(disablePush, 'off')}>
            {pushText.turnOff}
          </button>
        )}
      </div>
    </SettingsCard>
  );
}
