// Section 1: view or edit the API base URL and the Account ID; both are required.
import { useEffect, useState } from 'react';
import { admin } from '../../text/admin.ts';
import { FunctionCallError } from '../lib/functions.ts';
import { adminError, adminSuccess } from '../lib/toasts.ts';
import { Button } from '../ui/Button.tsx';
import { Card } from '../ui/Card.tsx';
import { TextField } from '../ui/TextField.tsx';
import { saveConfig, type ChatwootConfig } from './chatwoot-data.ts';

export function SettingsCard({ config, onSaved }: { config: ChatwootConfig | null; onSaved: () => Promise<void> }) {
  const [url, setUrl] = useState('');
  const [accountId, setAccountId] = useState('');
  const [saving, setSaving] = useState(false);
  useEffect(() => {
    setUrl(config?.api_base_url ?? '');
    setAccountId(config ? String(config.account_id) : '');
  }, [config]);

  const save = async () => {
    const u = url.trim();
    const a = accountId.trim();
    if (u === '' || a === '') {
      adminError(admin.chatwoot.required);
      return;
    }
    setSaving(true);
    try {
      const n = Number(a);
      if (!Number.isInteger(n) || n <= 0) throw new Error(`invalid account id ${a}`);
      await saveConfig(config, u, n);
      adminSuccess(admin.chatwoot.saved);
      await onSaved();
    } catch (err) {
      console.error('chatwoot config:', err);
      // A 400 carries the server's Slovak reason (e.g. a URL on a private network); show it.
      adminError(err instanceof FunctionCallError && err.status === 400 ? `${admin.chatwoot.saveFailed}: ${err.message}` : admin.chatwoot.saveFailed);
    } finally {
      setSaving(false);
    }
  };

  return (
    <Card title={admin.chatwoot.settings} testId="cw-settings">
      <TextField label={admin.chatwoot.apiBaseUrl} value={url} onChange={(e) => setUrl(e.target.value)} inputMode="url" />
      <TextField label={admin.chatwoot.accountId} value={accountId} onChange={(e) => setAccountId(e.target.value)} inputMode="numeric" />
      <div>
        <Button variant="primary" disabled={saving} onClick={() => void save()}>
          {admin.chatwoot.save}
        </Button>
      </div>
    </Card>
  );
}
