// Section 1: view or edit the API base URL and the Account ID; both are required, the URL must be a
// URL and the account id a positive integer (config-validation.ts; the server checks again).
import { useEffect, useRef, useState, type ReactNode } from 'react';
import { admin } from '../../text/admin.ts';
import { FunctionCallError } from '../lib/functions.ts';
import { adminError, adminSuccess } from '../lib/toasts.ts';
import { Button } from '../ui/Button.tsx';
import { Card } from '../ui/Card.tsx';
import { TextField } from '../ui/TextField.tsx';
import { saveConfig, type ChatwootConfig } from './chatwoot-data.ts';
import { validateConfig } from './config-validation.ts';

export function SettingsCard({ config, onSaved }: { config: ChatwootConfig | null; onSaved: () => Promise<void> }) {
  const [url, setUrl] = useState('');
  const [accountId, setAccountId] = useState('');
  const [saving, setSaving] = useState(false);
  // The stored values fill the form until the admin types: a config (re)load that arrives later must
  // not overwrite what they entered (seen as a race in the e2e: 'not a url' replaced by the saved URL).
  const edited = useRef(false);
  useEffect(() => {
    if (edited.current) return;
    setUrl(config?.api_base_url ?? '');
    setAccountId(config ? String(config.account_id) : '');
  }, [config]);

  const [fieldError, setFieldError] = useState<{ field: 'url' | 'accountId' | 'both'; error: string } | null>(null);

  const save = async () => {
    const check = validateConfig(url, accountId);
    if (!check.ok) {
      setFieldError(check);
      adminError(check.error);
      return;
    }
    setFieldError(null);
    setSaving(true);
    try {
      await saveConfig(config, check.url, check.accountId);
      edited.current = false;
      adminSuccess(admin.chatwoot.saved);
      await onSaved();
    } catch (err) {
      console.error('chatwoot config:', err);
      // A 400 carries the server's Slovak reason (e.g. a URL on a private network); show it.
      const reason = err instanceof FunctionCallError && err.status === 400 ? err.message : null;
      if (reason) setFieldError({ field: reason.startsWith('Account ID') ? 'accountId' : 'url', error: reason });
      adminError(reason ? `${admin.chatwoot.saveFailed}: ${reason}` : admin.chatwoot.saveFailed);
    } finally {
      setSaving(false);
    }
  };

  const errorFor = (field: 'url' | 'accountId') => (fieldError && (fieldError.field === field || fieldError.field === 'both') ? fieldError.error : null);
  return (
    <Card title={admin.chatwoot.settings} testId="cw-settings">
      <FieldWithError error={errorFor('url')} testId="cw-url-error">
        <TextField label={admin.chatwoot.apiBaseUrl} value={url} onChange={(e) => {
            edited.current = true;
            setUrl(e.target.value);
          }} inputMode="url" type="url" placeholder="https://chatwoot.example.com" aria-invalid={errorFor('url') !== null} />
      </FieldWithError>
      <FieldWithError error={errorFor('accountId')} testId="cw-account-error">
        <TextField label={admin.chatwoot.accountId} value={accountId} onChange={(e) => {
            edited.current = true;
            setAccountId(e.target.value);
          }} inputMode="numeric" aria-invalid={errorFor('accountId') !== null} />
      </FieldWithError>
      <div>
        <Button variant="primary" disabled={saving} onClick={() => void save()}>
          {admin.chatwoot.save}
        </Button>
      </div>
    </Card>
  );
}

function FieldWithError({ error, testId, children }: { error: string | null; testId: string; children: ReactNode }) {
  return (
    <div className="flex flex-col gap-1">
      {children}
      {error && (
        <p role="alert" data-testid={testId} className="text-xs text-red-700">
          {error}
        </p>
      )}
    </div>
  );
}
