// Search box (?q) and filter chips (?filter) of the conversation lists. On a narrow phone the chips
// may not all fit: the row scrolls, and while more chips lie beyond the right edge that edge fades
// out (data-more), so a cut-off chip reads as 'scroll for more' (issue 21 item 15).
import { useCallback, useLayoutEffect, useRef, useState } from 'react';
import type { ConversationFilter } from '../../../sync/queries.ts';
import { skShell as sk } from '../../text/sk-shell.ts';
import { FILTERS } from './list-params.ts';

interface ListControlsProps {
  q: string;
  filter: ConversationFilter;
  onSearch: (q: string) => void;
  onFilter: (filter: ConversationFilter) => void;
  showFilters: boolean;
}

function useMoreToTheRight() {
  const ref = useRef<HTMLDivElement>(null);
  const [more, setMore] = useState(false);
  const measure = useCallback(() => {
    const el = ref.current;
    if (el) setMore(el.scrollLeft + el.clientWidth < el.scrollWidth - 1);
  }, []);
  useLayoutEffect(() => {
    measure();
    window.addEventListener('resize', measure);
    return () => window.removeEventListener('resize', measure);
  }, [measure]);
  return { ref, more, measure };
}

export function ListControls({ q, filter, onSearch, onFilter, showFilters }: ListControlsProps) {
  const chips = useMoreToTheRight();
  return (
    <div className="flex flex-col gap-2 px-4 pt-3">
      <input
        type="search"
        value={q}
        onChange={(e) => onSearch(e.target.value)}
        placeholder={sk.chats.searchPlaceholder}
        aria-label={sk.chats.searchLabel}
        className="field w-full"
      />
      {showFilters && (
        <div
          ref={chips.ref}
          onScroll={chips.measure}
          role="group"
          aria-label={sk.chats.filtersLabel}
          data-more={chips.more}
          className={`-mx-1 flex gap-1.5 overflow-x-auto px-1 py-1 ${chips.more ? '[mask-image:linear-gradient(to_right,#000_calc(100%-40px),transparent)]' : ''}`}
        >
          {FILTERS.map((f) => (
            <button
              key={f}
              type="button"
              aria-pressed={filter === f}
              onClick={() => onFilter(f)}
              className={`focus-ring min-h-9 shrink-0 rounded-full border px-2.5 text-sm font-medium ${
                filter === f ? 'border-teal-700 bg-teal-700 text-white' : 'border-slate-300 bg-white text-slate-700 hover:bg-slate-50'
              }`}
            >
              {sk.chats.filters[f]}
            </button>
          ))}
        </div>
      )}
    </div>
  );
}
