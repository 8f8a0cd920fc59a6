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

/**
 * What a link from the list to a chat carries after its '?' (issue 40): on a desktop the list stays
 * beside the open chat, so the search and the filter go along and the list does not jump back to
 * every conversation; on a phone the list is left behind, and the chat's address is bare ('').
 */
export function keptListQuery(current: URLSearchParams, desktop: boolean): string {
  if (!desktop) return '';
  const kept = new URLSearchParams();
  for (const key of ['q', 'filter']) {
    const value = current.get(key);
    if (value) kept.set(key, value);
  }
  return kept.toString();
}
