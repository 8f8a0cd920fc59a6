// A day separator in the message list (issue 40): a centred pill between messages of different
// local days, announced as a separator with its label ('Dnes', 'Včera', 'streda 25. novembra').
import { dayLabel } from './day-label.ts';

export function DaySeparator({ iso }: { iso: string }) {
  const label = dayLabel(iso);
  return (
    <div
      role="separator"
      aria-label={label}
      data-testid="day-separator"
      className="flex justify-center px-3 pb-1 pt-2"
    >
      <span
        aria-hidden="true"
        className="rounded-full bg-slate-100 px-3 py-0.5 text-xs font-medium text-slate-700"
      >
        {label}
      </span>
    </div>
  );
}

/**
 * The label of the day the topmost visible row belongs to, laid over the top of the scroller
 * (the list is virtualized, so no separator row can be CSS-sticky). Hidden from assistive
 * technology: the separators in the list say the same. It stays mounted while the list is scrolled
 * so that it can fade: `shown` only while the reader scrolls (use-list-extras.tsx), and it fades out
 * shortly after (index.css, .sticky-day), so at rest it never covers the text under it.
 */
export function StickyDay({ iso, shown }: { iso: string | undefined; shown: boolean }) {
  if (!iso) return null;
  return (
    <div
      aria-hidden="true"
      data-testid="sticky-day"
      data-shown={shown || undefined}
      className="sticky-day pointer-events-none absolute inset-x-0 top-2 z-10 flex justify-center"
    >
      <span className="rounded-full bg-white/95 px-3 py-0.5 text-xs font-medium text-slate-700 shadow ring-1 ring-slate-200">
        {dayLabel(iso)}
      </span>
    </div>
  );
}
