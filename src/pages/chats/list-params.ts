// The list's search and filter live in the address (?q=…&filter=…) so they survive reloads and back.
import type { ConversationFilter } from '../../../sync/queries.ts';

export const FILTERS: readonly ConversationFilter[] = ['all', 'unread', 'active', 'completed'];

export function parseFilter(value: string | null): ConversationFilter {
  return FILTERS.find((f) => f === value) ?? 'all';
}

/** The new query string: empty values and the default filter are left out. */
export function withListParams(current: URLSearchParams, patch: { q?: string; filter?: ConversationFilter }): URLSearchParams {
  const next = new URLSearchParams(current);
  if (patch.q !== undefined) {
    if (patch.q === '') next.delete('q');
    else next.set('q', patch.q);
  }
  if (patch.filter !== undefined) {
    if (patch.filter === 'all') next.delete('filter');
    else next.set('filter', patch.filter);
  }
  return next;
}
