import type { LocalMessage } from '../../../sync/model/local-types.ts';
import { clockTime } from './message-time.ts';
import { systemTone } from './message-kinds.ts';

/** A centred notice with its time: red for 'status_completed', green otherwise. */
export function SystemNotice({ message }: { message: LocalMessage }) {
  const red = systemTone(message.payload) === 'red';
  return (
    <div className="flex justify-center px-4 py-1">
      <p
        data-tone={red ? 'red' : 'green'}
        className={`max-w-[85%] rounded-full px-3 py-1 text-center text-xs font-medium ${red ? 'bg-red-50 text-red-800' : 'bg-emerald-50 text-emerald-800'}`}
      >
        {message.text} · <time dateTime={message.createdAt}>{clockTime(message.createdAt)}</time>
      </p>
    </div>
  );
}
