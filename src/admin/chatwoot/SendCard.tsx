// Section 5: send a message as the admin's account to a specialist's Chatwoot inbox. When Chatwoot is
// not set up, that is the cause named (issue 37 admin 2), before the spec's own checks (a missing
// inbox ID is no cause while there is no Chatwoot to send to).
import { useState } from 'react';
import { admin } from '../../text/admin.ts';
import { messageOf } from '../lib/errors.ts';
import { adminError, adminSuccess } from '../lib/toasts.ts';
import { Button } from '../ui/Button.tsx';
import { Card } from '../ui/Card.tsx';
import { sendMessage, type CwSpecialist } from './chatwoot-data.ts';
import { chatwootConfigured, isChatwootNotConfigured } from './diagnostics.ts';
import { validateSend } from './send-validation.ts';

export function SendCard({ specialists, accountId, onSent }: { specialists: CwSpecialist[]; accountId: string | null; onSent: () => void }) {
  const [specialistId, setSpecialistId] = useState('');
  const [message, setMessage] = useState('');
  const [sending, setSending] = useState(false);

  const send = async () => {
    const check = validateSend({ specialist: specialists.find((s) => s.id === specialistId) ?? null, message, accountId });
    setSending(true);
    try {
      if (!(await chatwootConfigured())) {
        adminError(admin.chatwoot.actionNotConfigured);
        return;
      }
      if (!check.ok) {
        adminError(check.error);
        return;
      }
      await sendMessage(check.accountId, check.inboxId, check.content);
      adminSuccess(admin.chatwoot.sent);
      setMessage('');
      onSent();
    } catch (err) {
      adminError(isChatwootNotConfigured(err) ? admin.chatwoot.actionNotConfigured : messageOf(err, admin.chatwoot.sendFailed) || admin.chatwoot.sendFailed);
    } finally {
      setSending(false);
    }
  };

  return (
    <Card title={admin.chatwoot.send} testId="cw-send">
      <label className="flex flex-col gap-1 text-sm">
        <span className="font-medium text-slate-700">{admin.chatwoot.specialist}</span>
        <select value={specialistId} onChange={(e) => setSpecialistId(e.target.value)} className="focus-ring rounded-lg border border-slate-300 bg-white px-3 py-2 text-base">
          <option value="">{admin.chatwoot.chooseSpecialist}</option>
          {specialists.map((s) => (
            <option key={s.id} value={s.id}>
              {s.name}
              {s.chatwoot_inbox_id !== null ? ` (inbox ${s.chatwoot_inbox_id})` : ''}
            </option>
          ))}
        </select>
      </label>
      <label className="flex flex-col gap-1 text-sm">
        <span className="font-medium text-slate-700">{admin.chatwoot.message}</span>
        <textarea value={message} onChange={(e) => setMessage(e.target.value)} rows={3} className="focus-ring rounded-lg border border-slate-300 px-3 py-2 text-base" />
      </label>
      <div>
        <Button variant="primary" disabled={sending} onClick={() => void send()}>
          {admin.chatwoot.sendButton}
        </Button>
      </div>
    </Card>
  );
}
