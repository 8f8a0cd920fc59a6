// Search inside the open chat (issue 40, the header's search): the device index (sync/search, in the
// search worker) asked for the words typed, its hits of this conversation only, oldest to newest;
// the newest is shown first, 'Predchádzajúci/Ďalší výskyt' (or Enter / Shift+Enter) move between
// them. The hit shown is the chat's ?m= (replace, not a history entry), which MessageList scrolls to
// and marks as it does for a hit chosen in the list. Loaded lazily (React.lazy) when first opened.
import { useEffect, useRef, useState, type KeyboardEvent } from 'react';
import { useSearchParams } from 'react-router-dom';
import type { MessageHit } from '../../sync/search/device.ts';
import { useAuth } from '../auth/auth-context.ts';
import { sk } from '../text/sk.ts';
import { searchClient } from './client.ts';

/** Enough for the hits of one conversation: the index answers across all of them, newest first. */
const LIMIT = 1000;

type Found = { q: string; hits: MessageHit[] } | { q: string; failed: true };

export default function ChatSearch({ conversationId, onClose }: { conversationId: string; onClose: () => void }) {
  const userId = useAuth().user?.id ?? null;
  const [q, setQ] = useState('');
  const [found, setFound] = useState<Found | null>(null);
  const [at, setAt] = useState(0);
  const [params, setParams] = useSearchParams();
  const input = useRef<HTMLInputElement>(null);
  useEffect(() => input.current?.focus(), []);

  const query = q.trim();
  useEffect(() => {
    if (!userId || query === '') return;
    let live = true;
    searchClient(userId)
      .search(query, LIMIT)
      .then(
        (answer) => {
          if (!live) return;
          const hits = answer.hits.filter((h) => h.conversationId === conversationId).sort((a, b) => a.createdAt.localeCompare(b.createdAt));
          setFound({ q: query, hits });
          setAt(hits.length - 1);
        },
        () => live && setFound({ q: query, failed: true }),
      );
    return () => {
      live = false;
    };
  }, [query, userId, conversationId]);

  const hits = found && 'hits' in found && found.q === query && query !== '' ? found.hits : [];
  const current = hits[at];
  // The hit shown is the chat's ?m=; leaving the search leaves the last one marked.
  const currentKey = current?.key ?? null;
  useEffect(() => {
    if (currentKey === null || params.get('m') === currentKey) return;
    const next = new URLSearchParams(params);
    next.set('m', currentKey);
    setParams(next, { replace: true });
  }, [currentKey, params, setParams]);

  const move = (step: number) => hits.length > 0 && setAt((i) => (i + step + hits.length) % hits.length);
  const onKeyDown = (e: KeyboardEvent<HTMLInputElement>) => {
    if (e.key === 'Enter') move(e.shiftKey ? 1 : -1);
    else if (e.key === 'Escape') onClose();
    else return;
    e.preventDefault();
  };
  const status =
    query === '' || found === null || found.q !== query ? '' : 'failed' in found ? sk.chatSearch.failed : hits.length === 0 ? sk.chatSearch.none : sk.chatSearch.position(hits.length - at, hits.length);

  return (
    <div data-testid="chat-search" className="flex items-center gap-1 border-b border-slate-200 bg-white px-2 py-1.5">
      <input
        ref={input}
        type="search"
        value={q}
        onChange={(e) => setQ(e.target.value)}
        onKeyDown={onKeyDown}
        aria-label={sk.chatSearch.label}
        placeholder={sk.chatSearch.placeholder}
        className="field min-w-0 flex-1"
      />
      <span role="status" className="min-w-16 px-1 text-center text-xs text-slate-600">
        {status}
      </span>
      <IconButton label={sk.chatSearch.previous} disabled={hits.length < 2} onClick={() => move(-1)} path="M6 15l6-6 6 6" />
      <IconButton label={sk.chatSearch.next} disabled={hits.length < 2} onClick={() => move(1)} path="M6 9l6 6 6-6" />
      <IconButton label={sk.chatSearch.close} onClick={onClose} path="M6 6l12 12M18 6L6 18" />
    </div>
  );
}

function IconButton({ label, onClick, path, disabled = false }: { label: string; onClick: () => void; path: string; disabled?: boolean }) {
  return (
    <button type="button" aria-label={label} title={label} disabled={disabled} onClick={onClick} className="focus-ring inline-flex h-11 w-11 shrink-0 items-center justify-center rounded-full text-slate-700 hover:bg-slate-100 disabled:opacity-40">
      <svg aria-hidden="true" viewBox="0 0 24 24" width="20" height="20" fill="none" stroke="currentColor" strokeWidth="2" strokeLinecap="round" strokeLinejoin="round">
        <path d={path} />
      </svg>
    </button>
  );
}
