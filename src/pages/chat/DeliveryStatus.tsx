// R11.9: where an own message is, as an icon with a Slovak accessible label beside its time:
// waiting (clock: 'Čaká na pripojenie' / 'Čaká na prihlásenie' / 'Odosiela sa…', R9.5's pendingReason),
// sent (✓ 'Odoslané': the server has it), read (✓✓ 'Prečítané': the server's read_at, which only
// moves forward). A failed send keeps its reason and retry in the bubble (R9.3). Icons are inline SVG,
// decorative (aria-hidden); the label is the accessible name, also shown as a tooltip.
import type { LocalMessage } from '../../../sync/model/local-types.ts';
import { pendingReason } from '../../../sync/views.ts';
import { TEXT_WAITS_FOR_NETWORK, TEXT_WAITS_FOR_SIGN_IN } from '../../../sync/model/texts.ts';
import { useSyncStatus } from '../../data/use-sync-status.ts';
import { sk } from '../../text/sk.ts';

export const DELIVERY_LABEL = { sent: 'Odoslané', read: 'Prečítané' } as const;

export type Delivery = 'sending' | 'sent' | 'read' | 'failed';

export function deliveryOf(m: Pick<LocalMessage, 'state' | 'readAt'>): Delivery {
  if (m.state === 'sending' || m.state === 'failed') return m.state;
  return m.readAt ? 'read' : 'sent';
}

const ICONS = {
  clock: 'M12 21a9 9 0 1 0 0-18 9 9 0 0 0 0 18zm0-13v4.5l3 2',
  check: 'M4 12.5l5 5L20 6.5',
  double: 'M1.5 12.5l5 5L17.5 6.5M11 16l1.5 1.5L23 6.5',
} as const;

function Icon({ name }: { name: keyof typeof ICONS }) {
  return (
    <svg aria-hidden="true" viewBox="0 0 24 24" width="14" height="14" fill="none" stroke="currentColor" strokeWidth="2.2" strokeLinecap="round" strokeLinejoin="round" className="shrink-0">
      <path d={ICONS[name]} />
    </svg>
  );
}

/** The label and icon of an own sent or read message (the time stays beside it). */
export function DeliveryMark({ delivery }: { delivery: 'sent' | 'read' }) {
  const label = DELIVERY_LABEL[delivery];
  return (
    <span data-testid="delivery" data-delivery={delivery} role="img" aria-label={label} title={label} className={delivery === 'read' ? 'text-teal-700' : 'text-slate-600'}>
      <Icon name={delivery === 'read' ? 'double' : 'check'} />
    </span>
  );
}

/** R9.5: a queued message says what it waits for (only sending bubbles subscribe to the status). */
export function PendingLabel() {
  const reason = pendingReason(useSyncStatus());
  const text = reason === 'network' ? TEXT_WAITS_FOR_NETWORK : reason === 'sign-in' ? TEXT_WAITS_FOR_SIGN_IN : sk.chat.sending;
  return (
    <span data-testid="pending-label" data-delivery="sending" className="inline-flex items-center gap-1">
      <Icon name="clock" />
      {text}
    </span>
  );
}
