// Section 8: the rich messages of one of OUR conversations (a UUID, issue 21 admin 9), newest first,
// of any account (admin_rich_messages).
import { useState } from 'react';
import { admin } from '../../text/admin.ts';
import { formatDateTime } from '../lib/format.ts';
import { adminError } from '../lib/toasts.ts';
import { Button } from '../ui/Button.tsx';
import { Card } from '../ui/Card.tsx';
import { TextField } from '../ui/TextField.tsx';
import { loadRichMessages, type RichMessage } from './chatwoot-data.ts';
import { isUuid } from './config-validation.ts';

export function RichContentCard() {
  const [conversationId, setConversationId] = useState('');
  const [rows, setRows] = useState<RichMessage[] | null>(null);
  const load = async () => {
    const id = conversationId.trim();
    if (!isUuid(id)) {
      adminError(admin.chatwoot.ourConversationIdInvalid);
      return;
    }
    try {
      setRows(await loadRichMessages(id));
    } catch (err) {
      console.error('rich messages:', err);
      adminError(admin.chatwoot.richFailed);
    }
  };
  return (
    <Card title={admin.chatwoot.rich} testId="cw-rich">
      <div className="flex flex-wrap items-end gap-2">
        <TextField className="flex-1" label={admin.chatwoot.ourConversationId} value={conversationId} onChange={(e) => setConversationId(e.target.value)} />
        <Button disabled={conversationId.trim() === ''} onClick={() => void load()}>
          {admin.chatwoot.load}
        </Button>
      </div>
      {rows &&
        (rows.length === 0 ? (
          <p className="text-sm text-slate-600">{admin.chatwoot.richEmpty}</p>
        ) : (
          <ul className="flex h-64 flex-col gap-2 overflow-y-auto text-xs">
            {rows.map((m) => (
              <li key={m.id} className="rounded-lg border border-slate-200 p-2">
                <div className="text-slate-500">{formatDateTime(m.created_at)}</div>
                {m.text && <div>{m.text}</div>}
                <pre className="whitespace-pre-wrap break-all">{JSON.stringify(m.payload, null, 2)}</pre>
              </li>
            ))}
          </ul>
        ))}
    </Card>
  );
}
