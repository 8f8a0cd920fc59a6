// A sortable column header (WAI-ARIA sortable table): aria-sort on the <th> of the sorted column, a
// real <button> inside so Tab reaches it and Enter/Space sort; the direction is an SVG arrow (no emoji).
import { admin } from '../../text/admin.ts';
import { AdminIcon } from '../ui/icons.tsx';
import type { SortKey, SortState } from './account-list.ts';

interface SortHeaderProps {
  label: string;
  column: SortKey;
  sort: SortState;
  onSort: (key: SortKey) => void;
}

export function SortHeader({ label, column, sort, onSort }: SortHeaderProps) {
  const active = sort.key === column;
  const ariaSort = active ? (sort.direction === 'asc' ? 'ascending' : 'descending') : 'none';
  return (
    <th scope="col" aria-sort={ariaSort} className="px-4 py-0">
      <button
        type="button"
        onClick={() => onSort(column)}
        className="focus-ring -mx-2 inline-flex items-center gap-1 rounded px-2 py-2.5 font-semibold uppercase hover:text-slate-900"
      >
        {label}
        <AdminIcon
          name={active ? (sort.direction === 'asc' ? 'sortAsc' : 'sortDesc') : 'sortNone'}
          className={active ? 'text-teal-800' : 'text-slate-400'}
          size={14}
        />
      </button>
    </th>
  );
}

/** The phone layout's sort control: the two columns as toggle buttons, the direction said in words too. */
export function SortButtons({ sort, onSort }: { sort: SortState; onSort: (key: SortKey) => void }) {
  const columns: [SortKey, string][] = [
    ['name', admin.accounts.sortName],
    ['last_activity', admin.accounts.sortActivity],
  ];
  return (
    <div role="group" aria-label={admin.accounts.sortBy} className="flex flex-wrap items-center gap-2">
      <span className="text-sm text-slate-600" aria-hidden="true">
        {admin.accounts.sortBy}:
      </span>
      {columns.map(([key, label]) => {
        const active = sort.key === key;
        return (
          <button
            key={key}
            type="button"
            aria-pressed={active}
            data-direction={active ? sort.direction : undefined}
            onClick={() => onSort(key)}
            className={`focus-ring inline-flex min-h-9 items-center gap-1 rounded-lg px-3 py-1.5 text-sm font-medium ${
              active ? 'bg-teal-700 text-white' : 'border border-slate-300 bg-white text-slate-800'
            }`}
          >
            {label}
            {active && <AdminIcon name={sort.direction === 'asc' ? 'sortAsc' : 'sortDesc'} label={sort.direction === 'asc' ? admin.accounts.sortAsc : admin.accounts.sortDesc} size={14} />}
          </button>
        );
      })}
    </div>
  );
}
