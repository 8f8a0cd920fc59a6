// Section 4: whether the seven Chatwoot functions are deployed (HEAD; anything but 404 counts).
import { useState } from 'react';
import { admin } from '../../text/admin.ts';
import { Badge } from '../ui/Badge.tsx';
import { Button } from '../ui/Button.tsx';
import { Card } from '../ui/Card.tsx';
import { HEAD_FUNCTIONS, headFunction } from './diagnostics.ts';

export function FunctionStatusCard() {
  const [status, setStatus] = useState<Record<string, boolean> | null>(null);
  const [checking, setChecking] = useState(false);
  const check = async () => {
    setChecking(true);
    const pairs = await Promise.all(HEAD_FUNCTIONS.map(async (n) => [n, await headFunction(n)] as const));
    setStatus(Object.fromEntries(pairs));
    setChecking(false);
  };
  const missing = status ? HEAD_FUNCTIONS.filter((n) => !status[n]) : [];
  return (
    <Card
      title={admin.chatwoot.functions}
      testId="cw-functions"
      actions={
        <Button disabled={checking} onClick={() => void check()}>
          {admin.chatwoot.functionsCheck}
        </Button>
      }
    >
      {status && (
        <ul className="flex flex-col gap-1 text-sm">
          {HEAD_FUNCTIONS.map((n) => (
            <li key={n} data-testid="function-status" data-function={n} data-deployed={status[n]} className="flex items-center gap-2">
              <span className="font-mono text-xs">{n}</span>
              <span className="ml-auto">
                <Badge tone={status[n] ? 'green' : 'red'}>{status[n] ? admin.chatwoot.deployed : admin.chatwoot.missing}</Badge>
              </span>
            </li>
          ))}
        </ul>
      )}
      {missing.length > 0 && <p className="text-xs text-amber-800">{admin.chatwoot.missingHint}</p>}
    </Card>
  );
}
