// A bubble's time (issue 37 user item 12, R1.14): when the message was written. A message delivered
// a minute or more after it was written (queued offline) says both in its title and accessible name,
// so the user is told the truth about when the server got it.
import type { LocalMessage } from '../../../sync/model/local-types.ts';
import { sk } from '../../text/sk.ts';
import { clockTime } from './message-time.ts';
import { deliveredLater, writtenAtOf, writtenTimeLabel } from './written-time.ts';

export function MessageTime({ message: m }: { message: Pick<LocalMessage, 'createdAt' | 'payload'> }) {
  const label = writtenTimeLabel(m);
  const later = deliveredLater(m);
  const detail = later ? sk.walk.writtenDelivered(label, clockTime(m.createdAt)) : undefined;
  return (
    <time dateTime={writtenAtOf(m)} title={detail} aria-label={detail} data-testid="message-time">
      {label}
    </time>
  );
}
