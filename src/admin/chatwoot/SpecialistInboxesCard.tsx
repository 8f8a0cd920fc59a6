// The specialists section of /admin/chatwoot (issue 21 admin item 6): each specialist with the Chatwoot
// inbox it sends to, chosen from the inboxes admin-chatwoot-inboxes lists. Only API inboxes can be
// chosen; the server checks the same (admin-chatwoot-specialist-inbox) and refuses an inbox already
// used by another specialist.
import { useCallback, useEffect, useState } from 'react';
import { admin } from '../../text/admin.ts';
import { FunctionCallError } from '../lib/functions.ts';
import { adminError, adminSuccess } from '../lib/toasts.ts';
import { Card } from '../ui/Card.tsx';
import { loadInboxes, setSpecialistInbox, type CwInbox, type CwSpecialist } from './chatwoot-data.ts';

const API_CHANNEL = 'Channel::Api';

type InboxState = { kind: 'loading' } | { kind: 'ready'; inboxes: CwInbox[] } | { kind: 'failed'; notConfigured: boolean };

export function SpecialistInboxesCard({ specialists, onChanged }: { specialists: CwSpecialist[]; onChanged: () => void }) {
  const [state, setState] = useState<InboxState>({ kind: 'loading' });
  const [saving, setSaving] = useState<string | null>(null);

  const reload = useCallback(() => {
    loadInboxes().then(
      (inboxes) => setState({ kind: 'ready', inboxes }),
      (err: unknown) => setState({ kind: 'failed', notConfigured: err instanceof FunctionCallError && err.status === 503 }),
    );
  }, []);
  useEffect(reload, [reload]);

  const choose = async (s: CwSpecialist, value: string) => {
    const inboxId = value === '' ? null : Number(value);
    setSaving(s.id);
    try {
      await setSpecialistInbox(s.id, inboxId);
      adminSuccess(admin.chatwoot.inboxSaved(s.name));
      onChanged();
    } catch (err) {
      adminError(err instanceof FunctionCallError && err.status !== null && err.status < 500 ? `${admin.chatwoot.inboxSaveFailed}: ${err.message}` : admin.chatwoot.inboxSaveFailed);
    } finally {
      setSaving(null);
    }
  };

  const inboxes = state.kind === 'ready' ? state.inboxes : [];
  return (
    <Card title={admin.chatwoot.inboxes} testId="cw-inboxes">
      <p className="text-xs text-slate-600">{admin.chatwoot.inboxesNote}</p>
      {state.kind === 'failed' && (
        <p role="alert" className="text-sm text-red-700" data-testid="cw-inboxes-error">
          {state.notConfigured ? admin.chatwoot.inboxesNotConfigured : admin.chatwoot.inboxesUnavailable}
        </p>
      )}
      <ul className="flex flex-col gap-2">
        {specialists.map((s) => {
          const known = s.chatwoot_inbox_id === null || inboxes.some((i) => i.id === s.chatwoot_inbox_id);
          return (
            <li key={s.id} data-testid="cw-inbox-row" data-specialist={s.name} className="flex flex-wrap items-center gap-2 rounded-lg border border-slate-200 p-2 text-sm">
              <span className="min-w-0 flex-1">
                <span className="font-medium">{s.name}</span>
                {s.role && <span className="block text-xs text-slate-600">{s.role}</span>}
              </span>
              <select
                aria-label={`${s.name}: Chatwoot inbox`}
                className="focus-ring w-full rounded-lg border border-slate-300 bg-white px-2 py-1.5 text-base sm:w-56"
                value={s.chatwoot_inbox_id === null ? '' : String(s.chatwoot_inbox_id)}
                disabled={state.kind !== 'ready' || saving === s.id}
                onChange={(e) => void choose(s, e.target.value)}
              >
                <option value="">{admin.chatwoot.noInbox}</option>
                {!known && s.chatwoot_inbox_id !== null && <option value={String(s.chatwoot_inbox_id)}>{admin.chatwoot.currentInbox(s.chatwoot_inbox_id)}</option>}
                {inboxes.map((i) => (
                  <option key={i.id} value={String(i.id)} disabled={i.channel_type !== API_CHANNEL}>
                    {admin.chatwoot.inboxOption(i.name, i.id)}
                    {i.channel_type !== API_CHANNEL ? ` – ${admin.chatwoot.inboxNotApi(i.channel_type)}` : ''}
                  </option>
                ))}
              </select>
            </li>
          );
        })}
      </ul>
    </Card>
  );
}
