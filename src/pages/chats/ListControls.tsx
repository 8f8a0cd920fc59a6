// Search box (?q) and filter chips (?filter) of the conversation lists.
import type { ConversationFilter } from '../../../sync/queries.ts';
import { sk } from '../../text/sk.ts';
import { FILTERS } from './list-params.ts';

interface ListControlsProps {
  q: string;
  filter: ConversationFilter;
  onSearch: (q: string) => void;
  onFilter: (filter: ConversationFilter) => void;
  showFilters: boolean;
}

export function ListControls({ q, filter, onSearch, onFilter, showFilters }: ListControlsProps) {
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
        <div role="group" aria-label={sk.chats.filtersLabel} className="-mx-1 flex gap-2 overflow-x-auto px-1 py-1">
          {FILTERS.map((f) => (
            <button
              key={f}
              type="button"
              aria-pressed={filter === f}
              onClick={() => onFilter(f)}
              className={`focus-ring min-h-9 shrink-0 rounded-full border px-3 text-sm font-medium ${
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
