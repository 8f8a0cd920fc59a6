// Section 6: assign a conversation (empty assignee unassigns) and switch its status open/resolved.
// Both do nothing while the conversation id is empty; the id is Chatwoot's (a number, the one in
// Chatwoot's address bar), not ours (issue 21 admin 9), and the toasts say what happened (item 10).
// A refusal because Chatwoot is not set up says so (issue 37 admin 2), not the spec's generic
// 'Backend endpoint bude implementovaný v fáze 3.8', which stays for any other failure.
import { useState } from 'react';
import { admin } from '../../text/admin.ts';
import { adminError, adminSuccess } from '../lib/toasts.ts';
import { Button } from '../ui/Button.tsx';
import { Card } from '../ui/Card.tsx';
import { Switch } from '../ui/Switch.tsx';
import { TextField } from '../ui/TextField.tsx';
import { assignConversation, toggleStatus } from './chatwoot-data.ts';
import { isChatwootConversationId } from './config-validation.ts';
import { isChatwootNotConfigured } from './diagnostics.ts';

export function ActionsCard() {
  const [conversationId, setConversationId] = useState('');
  const [assigneeId, setAssigneeId] = useState('');
  const [resolved, setResolved] = useState(false);

  /** Runs an action on the entered conversation: nothing while the id is empty, a toast for an id that is not Chatwoot's, then the action's own toast or the failure's. */
  const onConversation = async (what: string, run: (id: string) => Promise<string>) => {
    const id = conversationId.trim();
    if (id === '') return;
    if (!isChatwootConversationId(id)) {
      adminError(admin.chatwoot.cwConversationIdInvalid);
      return;
    }
    try {
      adminSuccess(await run(id));
    } catch (err) {
      console.error(`${what}:`, err);
      adminError(isChatwootNotConfigured(err) ? admin.chatwoot.actionNotConfigured : admin.chatwoot.phaseFailure);
    }
  };

  const assign = () =>
    onConversation('assign', async (id) => {
      const assignee = assigneeId.trim();
      await assignConversation(id, assignee === '' ? null : assignee);
      return assignee === '' ? admin.chatwoot.unassignedOk : admin.chatwoot.assignedOk;
    });

  const setStatus = () =>
    onConversation('toggle status', async (id) => {
      const to = resolved ? 'resolved' : 'open';
      await toggleStatus(id, to);
      return admin.chatwoot.statusOk(to);
    });

  return (
    <Card title={admin.chatwoot.actions} testId="cw-actions">
      <TextField label={admin.chatwoot.cwConversationId} value={conversationId} onChange={(e) => setConversationId(e.target.value)} inputMode="numeric" />
      <div className="flex flex-wrap items-end gap-2">
        <TextField className="flex-1" label={admin.chatwoot.assigneeId} value={assigneeId} onChange={(e) => setAssigneeId(e.target.value)} inputMode="numeric" />
        <Button onClick={() => void assign()}>{admin.chatwoot.assign}</Button>
      </div>
      <div className="flex flex-wrap items-center gap-2">
        <Switch checked={resolved} onChange={setResolved} label={admin.chatwoot.statusSwitch} />
        <Button className="ml-auto" onClick={() => void setStatus()}>
          {admin.chatwoot.setStatus}
        </Button>
      </div>
    </Card>
  );
}
