// The conversation rows, virtualized against the page scroll so hundreds of conversations keep a
// small DOM: only the rows near the viewport are rendered (list semantics kept with setsize/posinset).
import { useWindowVirtualizer } from '@tanstack/react-virtual';
import { useEffect, useLayoutEffect, useRef, useState } from 'react';
import { useMatch, useSearchParams } from 'react-router-dom';
import type { LocalConversation } from '../../../sync/model/local-types.ts';
import { draftTrays, drafts } from '../../../sync/queries.ts';
import { markAfterPaint } from '../../data/perf-marks.ts';
import { useSyncQuery } from '../../data/use-sync-query.ts';
import { DESKTOP_QUERY, useMedia } from '../../lib/use-media.ts';
import { skShell as sk } from '../../text/sk-shell.ts';
import { ConversationRow } from './ConversationRow.tsx';
import { keptListQuery } from './list-params.ts';

const ESTIMATED_ROW_PX = 96;
/** 'poradna:first-row' is set once per page load (bench row 1). */
let firstRowMarked = false;

interface ConversationListProps {
  conversations: LocalConversation[];
  archived: boolean;
  onToggleArchive: (conversationId: string) => void;
}

export function ConversationList({ conversations, archived, onToggleArchive }: ConversationListProps) {
  const listRef = useRef<HTMLDivElement>(null);
  const [scrollMargin, setScrollMargin] = useState(0);
  useLayoutEffect(() => {
    const el = listRef.current;
    if (el) setScrollMargin(el.getBoundingClientRect().top + window.scrollY);
  }, []);
  const virtualizer = useWindowVirtualizer({
    count: conversations.length,
    estimateSize: () => ESTIMATED_ROW_PX,
    overscan: 6,
    scrollMargin,
    getItemKey: (i) => conversations[i]?.id ?? i,
  });
  const items = virtualizer.getVirtualItems();
  // Issue 40: a conversation with an unsent draft shows it as its snippet ('Koncept: …').
  const draftRows = useSyncQuery((db) => drafts(db), [])?.value;
  const draftOf = new Map(draftRows?.map((d) => [d.conversationId, d.text]));
  // R16.5: a tray's files, named after 'Koncept:' when the draft has no text.
  const trayRows = useSyncQuery((db) => draftTrays(db), [])?.value;
  const trayOf = new Map(trayRows?.map((t) => [t.conversationId, t.files]));
  // Issue 40: on a desktop the open chat sits beside the list; its row is marked, and links keep the search.
  const openId = useMatch('/app/chats/:id')?.params.id;
  const kept = keptListQuery(useSearchParams()[0], useMedia(DESKTOP_QUERY));
  const shown = items.length > 0;
  useEffect(() => {
    if (!shown || firstRowMarked) return;
    firstRowMarked = true;
    markAfterPaint('poradna:first-row');
  }, [shown]);
  return (
    <div ref={listRef} role="list" aria-label={sk.chats.listLabel} className="relative w-full" style={{ height: virtualizer.getTotalSize() }}>
      {items.map((item) => {
        const c = conversations[item.index];
        if (!c) return null;
        return (
          <div
            key={item.key}
            role="listitem"
            aria-setsize={conversations.length}
            aria-posinset={item.index + 1}
            data-index={item.index}
            ref={virtualizer.measureElement}
            className="absolute left-0 top-0 w-full"
            style={{ transform: `translateY(${item.start - virtualizer.options.scrollMargin}px)` }}
          >
            <ConversationRow conversation={c} archived={archived} onToggleArchive={onToggleArchive} first={item.index === 0} draft={draftOf.get(c.id)} draftFiles={trayOf.get(c.id)} open={c.id === openId} query={kept} />
          </div>
        );
      })}
    </div>
  );
}
