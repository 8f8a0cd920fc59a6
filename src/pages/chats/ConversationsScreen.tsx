// /app/chats and /app/archived: the same list from the local store, active or archived variant.
// Loading text only while nothing local is known yet; empty texts follow the 1500 ms grace rule.
import { lazy, Suspense, useCallback } from 'react';
import { useSearchParams } from 'react-router-dom';
import { archivedCount } from '../../../sync/queries.ts';
import { useSyncEngine } from '../../data/sync-context.ts';
import { useConversationList } from '../../data/use-conversation-list.ts';
import { useSyncQuery } from '../../data/use-sync-query.ts';
import { useSyncStatus } from '../../data/use-sync-status.ts';
import { useEmptyGrace } from '../../lib/use-empty-grace.ts';
import { skShell as sk } from '../../text/sk-shell.ts';
import { ArchivedRow } from './ArchivedRow.tsx';
import { ConversationList } from './ConversationList.tsx';
import { ListBanner } from './ListBanner.tsx';
import { ListControls } from './ListControls.tsx';
import { parseFilter, withListParams } from './list-params.ts';
import { useListSnapshot } from './use-list-snapshot.ts';

// R15.7: the messages section and the search worker's client load only once something is typed.
const MessageHits = lazy(() => import('../../search/MessageHits.tsx'));

export function ConversationsScreen({ archived }: { archived: boolean }) {
  const engine = useSyncEngine();
  const status = useSyncStatus();
  const [params, setParams] = useSearchParams();
  const q = params.get('q') ?? '';
  const filter = archived ? 'all' : parseFilter(params.get('filter'));
  const list = useConversationList({ archived, q, filter });
  const archivedTotal = useSyncQuery((db) => archivedCount(db), []);
  const rows = list?.value;
  const searching = q.trim() !== '' || filter !== 'all';
  const textSearch = q.trim() !== '';
  // Nothing known yet: no query answer, or an empty store that has never been pulled.
  const loading = rows === undefined || (rows.length === 0 && !status.loaded && !searching);
  const showEmpty = useEmptyGrace(loading ? undefined : rows.length);
  // One state at a time (issue 21 item 6): while nothing is known and the load failed, the banner
  // says so alone — no loading text under it, no archived count that is not known either.
  const failedEmpty = loading && status.connection === 'error';
  useListSnapshot({ loading, saveable: !archived && !searching && !loading && rows.length > 0, rows });

  const toggleArchive = useCallback(
    (id: string) => {
      if (!engine) return;
      const run = archived ? engine.commands.unarchive(id) : engine.commands.archive(id);
      run.catch((err: unknown) => console.warn('archive:', err));
    },
    [engine, archived],
  );

  return (
    <section className="flex flex-col pb-4" aria-label={archived ? sk.titles.archived : sk.chats.title}>
      {/* The header holds the archived list's h1 ('Archivované'). */}
      {!archived && <h1 className="sr-only">{sk.chats.title}</h1>}
      <ListBanner status={status} onRetry={() => engine?.syncNow()} />
      <ListControls
        q={q}
        filter={filter}
        showFilters={!archived}
        onSearch={(value) => setParams(withListParams(params, { q: value }), { replace: true })}
        onFilter={(value) => setParams(withListParams(params, { filter: value }), { replace: true })}
      />
      {!archived && !loading && <ArchivedRow count={archivedTotal?.value} />}
      <div className="mt-2">
        {failedEmpty ? null : loading ? (
          <p role="status" className="px-4 py-6 text-center text-slate-600">
            {sk.chats.loading}
          </p>
        ) : rows.length > 0 ? (
          <ConversationList conversations={rows} archived={archived} onToggleArchive={toggleArchive} />
        ) : showEmpty ? (
          <EmptyText archived={archived} searching={searching} textSearch={textSearch} />
        ) : null}
        {!archived && textSearch && (
          <Suspense fallback={null}>
            <MessageHits q={q.trim()} />
          </Suspense>
        )}
      </div>
    </section>
  );
}

/** A text search that found nothing says 'No conversations match your search' (spec); a filter alone says so in Slovak. */
function EmptyText({ archived, searching, textSearch }: { archived: boolean; searching: boolean; textSearch: boolean }) {
  const [text, hint] = archived
    ? searching
      ? [sk.chats.archivedEmptySearch, null]
      : [sk.chats.archivedEmpty, sk.chats.archivedEmptyHint]
    : [textSearch ? sk.chats.emptySearch : searching ? sk.chats.emptyFilter : sk.chats.empty, null];
  return (
    <div role="status" data-testid="empty-state" className="px-4 py-10 text-center">
      <p className="font-medium text-slate-700">{text}</p>
      {hint && <p className="mt-1 text-sm text-slate-500">{hint}</p>}
    </div>
  );
}
