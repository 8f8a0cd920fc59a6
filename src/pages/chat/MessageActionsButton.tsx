// The visible, keyboard-reachable way to a message's actions menu (issue 40): always in the tab
// order, shown when the row is hovered (a mouse) or the button is focused; a phone uses a long press.
import { sk } from '../../text/sk.ts';
import { useListLinks } from './list-links.ts';

export function MessageActionsButton({ messageKey }: { messageKey: string }) {
  const links = useListLinks();
  if (!links) return null;
  return (
    <button
      type="button"
      aria-label={sk.chatActions.openMenu}
      aria-haspopup="menu"
      data-testid="message-actions"
      onClick={(e) => links.openMenu(messageKey, e.currentTarget)}
      className="focus-ring inline-flex h-8 w-8 shrink-0 items-center justify-center self-center rounded-full text-slate-600 opacity-0 hover:bg-slate-100 focus:opacity-100 group-hover:opacity-100"
    >
      <svg aria-hidden="true" viewBox="0 0 24 24" width="18" height="18" fill="currentColor">
        <circle cx="5" cy="12" r="1.8" />
        <circle cx="12" cy="12" r="1.8" />
        <circle cx="19" cy="12" r="1.8" />
      </svg>
    </button>
  );
}
