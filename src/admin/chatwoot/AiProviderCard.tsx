// Issue 39 leftover: the diagnostics say whether an AI provider is configured and reachable (function
// admin-ai-status; the key stays on the server, the provider is named by host and model). Without
// one the built-in demo responder answers (sync/SPEC.md R13.6), which is said as not configured,
// not as an error.
import { useState } from 'react';
import { admin } from '../../text/admin.ts';
import { Badge } from '../ui/Badge.tsx';
import { Button } from '../ui/Button.tsx';
import { Card } from '../ui/Card.tsx';
import { invokeFunction } from '../lib/functions.ts';

interface AiStatus {
  configured: boolean;
  host: string | null;
  model: string | null;
  reachable: boolean | null;
  latency_ms: number | null;
  error: string | null;
}

type Shown = { tone: 'green' | 'slate' | 'red'; badge: string; text: string };

function describe(s: AiStatus): Shown {
  const t = admin.aiStatus;
  if (!s.configured) return { tone: 'slate', badge: t.badgeDemo, text: t.demo };
  if (s.reachable && !s.error) return { tone: 'green', badge: t.badgeOk, text: t.reachable(s.host ?? '', s.model ?? '', s.latency_ms ?? 0) };
  if (s.reachable) return { tone: 'red', badge: t.badgeError, text: t.keyRefused(s.host ?? '') };
  return { tone: 'red', badge: t.badgeError, text: t.unreachable(s.host ?? '', s.error ?? '') };
}

export function AiProviderCard() {
  const [shown, setShown] = useState<Shown | null>(null);
  const [checking, setChecking] = useState(false);
  const check = async () => {
    setChecking(true);
    try {
      setShown(describe(await invokeFunction<AiStatus>('admin-ai-status')));
    } catch (err) {
      setShown({ tone: 'red', badge: admin.aiStatus.badgeError, text: admin.aiStatus.failed(err instanceof Error ? err.message : String(err)) });
    } finally {
      setChecking(false);
    }
  };
  return (
    <Card
      title={admin.aiStatus.title}
      testId="ai-provider"
      actions={
        <Button disabled={checking} onClick={() => void check()}>
          {checking ? admin.aiStatus.checking : admin.aiStatus.check}
        </Button>
      }
    >
      {shown && (
        <p role="status" data-testid="ai-provider-status" className="flex items-start gap-2 text-sm text-slate-800">
          <Badge tone={shown.tone}>{shown.badge}</Badge>
          <span>{shown.text}</span>
        </p>
      )}
    </Card>
  );
}
