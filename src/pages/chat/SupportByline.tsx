// Issue 37 admin item 1: a message support wrote while impersonating the account carries
// payload.sent_by_support, set by the server alone (migration 20261129130000). Every device of the
// account, and the admin, shows it attributed to support above the bubble.
import type { LocalMessage } from '../../../sync/model/local-types.ts';
import { sk } from '../../text/sk.ts';

export function sentBySupport(m: Pick<LocalMessage, 'payload'>): boolean {
  return m.payload?.sent_by_support === true;
}

export function SupportByline({ message }: { message: Pick<LocalMessage, 'payload'> }) {
  if (!sentBySupport(message)) return null;
  return (
    <p data-testid="support-byline" className="mb-0.5 px-1 text-xs font-medium text-amber-800">
      {sk.walk.supportByline}
    </p>
  );
}
