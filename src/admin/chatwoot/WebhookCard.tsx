// Section 2: the read-only webhook URL with a copy button. The server refuses deliveries without the
// ?secret= parameter, so the note says so.
import { admin } from '../../text/admin.ts';
import { adminError, adminSuccess } from '../lib/toasts.ts';
import { Button } from '../ui/Button.tsx';
import { Card } from '../ui/Card.tsx';

export function webhookUrl(origin: string): string {
  return `${origin}/functions/v1/chatwoot-webhook`;
}

export function WebhookCard() {
  const url = webhookUrl(window.location.origin);
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(url);
      adminSuccess(admin.chatwoot.copied);
    } catch (err) {
      adminError(err instanceof Error ? err.message : String(err));
    }
  };
  return (
    <Card title={admin.chatwoot.webhook}>
      <div className="flex gap-2">
        <input readOnly value={url} aria-label={admin.chatwoot.webhook} className="min-w-0 flex-1 rounded-lg border border-slate-300 bg-slate-50 px-3 py-2 font-mono text-xs" />
        <Button onClick={() => void copy()}>{admin.chatwoot.copy}</Button>
      </div>
      <p className="text-xs text-slate-600">{admin.chatwoot.webhookNote}</p>
    </Card>
  );
}
