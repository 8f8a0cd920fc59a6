import { unreadLabel } from '../lib/unread.ts';
import { skShell as sk } from '../text/sk-shell.ts';

export function UnreadBadge({ count }: { count: number }) {
  const label = unreadLabel(count);
  if (label === null) return null;
  return (
    <span
      aria-label={sk.badges.unread(count)}
      className="inline-flex h-5 min-w-5 items-center justify-center rounded-full bg-teal-700 px-1.5 text-xs font-semibold text-white"
    >
      {label}
    </span>
  );
}
