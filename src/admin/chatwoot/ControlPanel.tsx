// Section 3: the five diagnostic checks with their statuses and outcome messages.
import { useState } from 'react';
import { admin } from '../../text/admin.ts';
import { Badge } from '../ui/Badge.tsx';
import { Button } from '../ui/Button.tsx';
import { Card } from '../ui/Card.tsx';
import { CHECK_NAMES, RUNNERS, type CheckName, type CheckOutcome, type CheckStatus } from './diagnostics.ts';

const TONE: Record<CheckStatus, 'slate' | 'blue' | 'green' | 'amber' | 'red'> = {
  unchecked: 'slate',
  checking: 'blue',
  ok: 'green',
  warning: 'amber',
  error: 'red',
  notConfigured: 'slate',
};

const initial = (): Record<CheckName, CheckOutcome> =>
  Object.fromEntries(CHECK_NAMES.map((n) => [n, { status: 'unchecked', message: '' }])) as Record<CheckName, CheckOutcome>;

export function ControlPanel() {
  const [outcomes, setOutcomes] = useState(initial);
  const set = (name: CheckName, o: CheckOutcome) => setOutcomes((all) => ({ ...all, [name]: o }));

  const runOne = async (name: CheckName) => {
    set(name, { status: 'checking', message: '' });
    set(name, await RUNNERS[name]());
  };
  const runAll = async () => {
    await Promise.all(CHECK_NAMES.map((n) => runOne(n)));
  };
  const busy = CHECK_NAMES.some((n) => outcomes[n].status === 'checking');

  return (
    <Card
      title={admin.chatwoot.controlPanel}
      testId="cw-control-panel"
      actions={
        <Button variant="primary" disabled={busy} onClick={() => void runAll()}>
          {admin.chatwoot.runAll}
        </Button>
      }
    >
      <ul className="flex flex-col gap-2">
        {CHECK_NAMES.map((name) => {
          const o = outcomes[name];
          return (
            <li key={name} data-testid={`check-${name}`} data-status={o.status} className="flex flex-wrap items-center gap-2 rounded-lg border border-slate-200 p-2 text-sm">
              <span className="font-medium">{admin.chatwoot.checks[name]}</span>
              <Badge tone={TONE[o.status]}>{admin.chatwoot.statuses[o.status]}</Badge>
              <Button variant="ghost" className="ml-auto" disabled={o.status === 'checking'} onClick={() => void runOne(name)}>
                {admin.chatwoot.check}
              </Button>
              {o.message && <p className="w-full text-xs text-slate-600" data-testid="check-message">{o.message}</p>}
            </li>
          );
        })}
      </ul>
    </Card>
  );
}
