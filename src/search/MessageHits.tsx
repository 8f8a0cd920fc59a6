// R15.7: the 'Správy' section under the conversations that match by name: messages on this device
// whose words start with every word typed, newest first, each with a snippet whose matches are
// marked (<mark>), linking to the chat at that message (?m=<key>, ChatPage scrolls there). Loaded
// lazily by the list (React.lazy) the first time something is typed. The count is announced.
import { useEffect, useState } from 'react';
import { Link, useSearchParams } from 'react-router-dom';
import type { LocalConversation } from '../../sync/model/local-types.ts';
import type { MessageHit, SearchAnswer } from '../../sync/search/device.ts';
import { useAuth } from '../auth/auth-context.ts';
import { useSyncQuery } from '../data/use-sync-query.ts';
import { formatRelativeTime } from '../lib/relative-time.ts';
import { DESKTOP_QUERY, useMedia } from '../lib/use-media.ts';
import { keptListQuery } from '../pages/chats/list-params.ts';
import { sk } from '../text/sk.ts';
import { searchClient } from './client.ts';

type State = { q: string; answer: SearchAnswer } | { q: string; failed: true };

export default function MessageHits({ q }: { q: string }) {
  const { user } = useAuth();
  const userId = user?.id ?? null;
  const [state, setState] = useState<State | null>(null);
  useEffect(() => {
    if (!userId) return;
    let live = true;
    // Answers arrive in the order asked, so the last one set is the newest query's.
    const client = searchClient(userId);
    const ask = () =>
      client.search(q).then(
        (answer) => live && setState({ q, answer }),
        () => live && setState({ q, failed: true }),
      );
    void ask();
    // Messages that arrive (or are indexed) while the results are shown join them.
    const off = client.onChange(() => void ask());
    return () => {
      live = false;
      off();
    };
  }, [q, userId]);
  const hits = state && 'answer' in state ? state.answer.hits : [];
  // Issue 40: on a desktop a hit opens beside the list, which keeps showing these results.
  const kept = keptListQuery(useSearchParams()[0], useMedia(DESKTOP_QUERY));
  const ids = [...new Set(hits.map((h) => h.conversationId))];
  const conversations = useSyncQuery((db) => db.conversations.bulkGet(ids), [ids.join(',')])?.value;
  const byId = new Map((conversations ?? []).filter((c): c is LocalConversation => !!c).map((c) => [c.id, c]));

  return (
    <section aria-labelledby="message-hits-heading" className="mt-3" data-testid="message-hits">
      <h2 id="message-hits-heading" className="px-4 pb-1 text-xs font-semibold uppercase tracking-wide text-slate-600">
        {sk.search.messagesHeading}
      </h2>
      <p role="status" className={state && 'answer' in state && state.answer.total > 0 ? 'sr-only' : 'px-4 py-3 text-sm text-slate-600'}>
        {state === null ? sk.search.searching : 'failed' in state ? sk.search.failed : sk.search.found(state.answer.total)}
      </p>
      {hits.length > 0 && (
        <ul aria-label={sk.search.resultsLabel}>
          {hits.map((h) => (
            <HitRow key={h.key} hit={h} kept={kept} name={byId.get(h.conversationId)?.specialist?.name?.trim() || sk.chats.unknownSpecialist} />
          ))}
        </ul>
      )}
      {state && 'answer' in state && state.answer.total > hits.length && <p className="px-4 py-2 text-xs text-slate-500">{sk.search.shownOf(hits.length, state.answer.total)}</p>}
    </section>
  );
}

function HitRow({ hit, name, kept }: { hit: MessageHit; name: string; kept: string }) {
  const own = hit.direction === 'user';
  return (
    <li>
      <Link
        to={`/app/chats/${encodeURIComponent(hit.conversationId)}?m=${encodeURIComponent(hit.key)}${kept ? `&${kept}` : ''}`}
        data-testid="message-hit"
        className="focus-ring flex flex-col gap-0.5 border-b border-slate-100 px-4 py-2.5 focus-visible:ring-inset focus-visible:ring-offset-0"
      >
        <span className="flex items-center gap-2">
          <span className="min-w-0 flex-1 truncate text-sm font-semibold text-slate-900">{name}</span>
          <time dateTime={hit.createdAt} className="shrink-0 text-xs text-slate-500">
            {formatRelativeTime(hit.createdAt)}
          </time>
        </span>
        <span className="line-clamp-2 text-sm text-slate-700">
          {own && <span className="text-slate-500">{sk.search.you}: </span>}
          {hit.snippet.parts.map((p, i) =>
            p.hit ? (
              <mark key={i} className="rounded-sm bg-amber-200 px-0.5 text-slate-900">
                {p.text}
              </mark>
            ) : (
              <span key={i}>{p.text}</span>
            ),
          )}
        </span>
      </Link>
    </li>
  );
}
