// Section 7: the 50 newest integration events, searchable by conversation id or kind; a click opens
// the detail modal.
import { useState } from 'react';
import { admin } from '../../text/admin.ts';
import { formatDateTime } from '../lib/format.ts';
import { Badge } from '../ui/Badge.tsx';
import { Button } from '../ui/Button.tsx';
import { Card } from '../ui/Card.tsx';
import { Modal } from '../ui/Modal.tsx';
import { SearchField } from '../ui/TextField.tsx';
import type { IntegrationEvent } from './chatwoot-data.ts';
import { eventConversationId, filterEvents } from './event-search.ts';

export function EventsCard({ events, onReload }: { events: IntegrationEvent[]; onReload: () => void }) {
  const [query, setQuery] = useState('');
  const [open, setOpen] = useState<IntegrationEvent | null>(null);
  const shown = filterEvents(events, query);
  return (
    <Card title={admin.chatwoot.events} testId="cw-events" actions={<Button onClick={onReload}>{admin.chatwoot.reload}</Button>}>
      <SearchField label={admin.chatwoot.eventsSearch} value={query} onChange={setQuery} />
      {shown.length === 0 ? (
        <p className="text-sm text-slate-600">{admin.chatwoot.noEvents}</p>
      ) : (
        <ul className="flex h-64 flex-col gap-1 overflow-y-auto">
          {shown.map((e) => (
            <li key={e.id}>
              <button
                type="button"
                data-testid="event-row"
                onClick={() => setOpen(e)}
                className="focus-ring flex w-full flex-wrap items-center gap-2 rounded-lg border border-slate-200 p-2 text-left text-xs hover:bg-slate-50"
              >
                <Badge tone={e.level === 'error' ? 'red' : 'slate'}>{e.level}</Badge>
                <span className="font-mono">{e.kind}</span>
                {eventConversationId(e) && <span className="text-slate-500">#{eventConversationId(e)}</span>}
                <span className="ml-auto text-slate-500">{formatDateTime(e.created_at)}</span>
              </button>
            </li>
          ))}
        </ul>
      )}
      {open && (
        <Modal title={admin.chatwoot.eventDetail} closeLabel={admin.chatwoot.close} onClose={() => setOpen(null)}>
          <pre className="rounded bg-slate-50 p-2 text-xs whitespace-pre-wrap break-all" data-testid="event-detail">
            {JSON.stringify(open, null, 2)}
          </pre>
        </Modal>
      )}
    </Card>
  );
}
