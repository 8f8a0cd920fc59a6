// The 'jump to the newest' button (issue 40): shown while the reader is scrolled up, with how many
// messages arrived since they left the bottom ('3 nové správy'); a click brings them down.
import { sk } from '../../text/sk.ts';

export function JumpToNewest({ count, onJump }: { count: number; onJump: () => void }) {
  return (
    <button
      type="button"
      data-testid="jump-to-newest"
      onClick={onJump}
      aria-label={
        count > 0
          ? `${sk.chatActions.newCount(count)}. ${sk.chatActions.jumpToNewest}`
          : sk.chatActions.jumpToNewest
      }
      className="focus-ring absolute bottom-3 right-3 z-10 inline-flex h-10 items-center gap-1 rounded-full bg-white px-3 text-sm font-medium text-teal-800 shadow-md ring-1 ring-slate-200 hover:bg-slate-50"
    >
      {count > 0 && <span>{sk.chatActions.newCount(count)}</span>}
      <svg
        aria-hidden="true"
        viewBox="0 0 24 24"
        width="20"
        height="20"
        fill="none"
        stroke="currentColor"
        strokeWidth="2"
        strokeLinecap="round"
        strokeLinejoin="round"
      >
        <path d="M6 9l6 6 6-6" />
      </svg>
    </button>
  );
}
