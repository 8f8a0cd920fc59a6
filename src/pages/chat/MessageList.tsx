// The conversation's messages, virtualized inside their own scroller so a 10,000-message chat keeps
// a bounded DOM. It opens at the newest message and sticks to the bottom while the reader is there
// (new messages, images that load); a message the user sends always scrolls into view. Issue 40:
// a day separator opens each day's first row, the topmost visible row's day is laid over the top,
// a reader scrolled up is offered a jump to the newest (an arrival never moves their view), and the
// list opens the actions menu of a message (use-message-actions.tsx) and jumps to a reply's quote.
import { useVirtualizer } from '@tanstack/react-virtual';
import { memo, useCallback, useEffect, useLayoutEffect, useRef, type ReactNode } from 'react';
import type { LocalMessage } from '../../../sync/model/local-types.ts';
import { markAfterPaint } from '../../data/perf-marks.ts';
import { sk } from '../../text/sk.ts';
import { estimateRowPx } from './estimate-row.ts';
import { MessageBubble } from './MessageBubble.tsx';
import { DaySeparator, StickyDay } from './DaySeparator.tsx';
import { JumpToNewest } from './JumpToNewest.tsx';
import { ListLinksContext } from './list-links.ts';
import { startsDay, useListExtras } from './use-list-extras.tsx';

const BOTTOM_SLACK_PX = 80;
/**
 * Rows rendered beyond each edge of the viewport. Every mounted row costs a render, a layout and a
 * ResizeObserver measurement, and a fast scroll replaces them all each frame, so keep it small.
 */
const OVERSCAN = 3;
const FALLBACK_WIDTH_PX = 360;
/** A day separator's height (pt-2, pb-1, a 20 px pill), added to the guess of a day's first row. */
const SEPARATOR_PX = 32;

interface MessageListProps {
  messages: LocalMessage[];
  onRetry: (key: string) => void;
  footer?: ReactNode;
  /**
   * The first message that was unread when the chat opened (issue 21 item 14): a 'Nové správy'
   * divider goes above it and the chat opens there instead of at the bottom.
   */
  firstUnreadKey?: string | null;
  /** R15.8: the message a search hit opened the chat at: scrolled to (before the unread divider) and highlighted. */
  foundKey?: string | null;
  /** 'Odpovedať' in a message's menu; without it the menu only copies. */
  onReply?: ((m: LocalMessage) => void) | undefined;
  /** The other side's name, in a quote of their message. */
  peerName?: string;
}

/**
 * Memoised: the chat screen renders again for what does not touch the list (the conversation's row
 * after every message, the sync status), and each list render recomputes the virtualizer's rows.
 */
export const MessageList = memo(List);

function List({ messages, onRetry, footer, firstUnreadKey = null, foundKey = null, onReply, peerName = '' }: MessageListProps) {
  const scrollRef = useRef<HTMLDivElement>(null);
  const atBottom = useRef(true);
  const lastScrollTop = useRef(0);
  const openedAtUnread = useRef(false);
  const count = messages.length;
  const last = messages[count - 1];
  // Stable per list: a new getItemKey makes the virtualizer recompute every row's offset.
  const getItemKey = useCallback((i: number) => messages[i]?.key ?? i, [messages]);
  // Estimates close to the measured height keep the scrollbar honest and the corrections small.
  // The virtualizer asks for every unmeasured row each time a measurement lands, so each row's guess
  // is computed once per width and kept by key (a message's text does not change under its key).
  const widthPx = useRef(FALLBACK_WIDTH_PX);
  const estimates = useRef<{ widthPx: number; byKey: Map<string, number> }>({ widthPx: FALLBACK_WIDTH_PX, byKey: new Map() });
  const estimateSize = useCallback(
    (i: number) => {
      const m = messages[i];
      if (!m) return estimateRowPx(m, widthPx.current);
      let cache = estimates.current;
      if (cache.widthPx !== widthPx.current) cache = estimates.current = { widthPx: widthPx.current, byKey: new Map() };
      let px = cache.byKey.get(m.key);
      if (px === undefined) cache.byKey.set(m.key, (px = estimateRowPx(m, cache.widthPx) + (startsDay(messages, i) ? SEPARATOR_PX : 0)));
      return px;
    },
    [messages],
  );
  useLayoutEffect(() => {
    const el = scrollRef.current;
    if (!el) return;
    // The scroller also gets shorter when a row opens below it (the notifications prompt, a phone's
    // keyboard): a reader at the bottom stays there, so the latest message is never hidden by it.
    const observer = new ResizeObserver(([entry]) => {
      if (entry && entry.contentRect.width > 0) widthPx.current = entry.contentRect.width;
      if (atBottom.current) el.scrollTop = el.scrollHeight;
    });
    observer.observe(el);
    return () => observer.disconnect();
  }, []);
  const virtualizer = useVirtualizer({
    count,
    getScrollElement: () => scrollRef.current,
    estimateSize,
    overscan: OVERSCAN,
    getItemKey,
  });
  const total = virtualizer.getTotalSize();
  const extras = useListExtras({ messages, virtualizer, atBottom, onReply, peerName });
  const lastRendered = virtualizer.getVirtualItems().some((item) => item.index === count - 1);

  // Bench marks: the newest message on screen once per opening, and each own bubble just typed.
  const lastMarked = useRef(false);
  const seenLastKey = useRef<string | null>(null);
  useEffect(() => {
    if (lastRendered && !lastMarked.current) {
      lastMarked.current = true;
      markAfterPaint('poradna:last-message');
    }
  }, [lastRendered]);
  useEffect(() => {
    const key = last?.key ?? null;
    if (seenLastKey.current !== null && key !== seenLastKey.current && last?.direction === 'user' && last.state === 'sending') {
      markAfterPaint('poradna:bubble-painted', last.text);
    }
    seenLastKey.current = key;
  }, [last]);

  // New last message: follow it when the reader is at the bottom or when it is their own.
  useLayoutEffect(() => {
    if (count === 0) return;
    if (!openedAtUnread.current && foundKey !== null) {
      const at = messages.findIndex((m) => m.key === foundKey);
      if (at >= 0) {
        openedAtUnread.current = true;
        atBottom.current = false;
        virtualizer.scrollToIndex(at, { align: 'center' });
        return;
      }
    }
    if (!openedAtUnread.current && firstUnreadKey !== null) {
      openedAtUnread.current = true;
      const at = messages.findIndex((m) => m.key === firstUnreadKey);
      if (at > 0) {
        atBottom.current = false;
        virtualizer.scrollToIndex(at, { align: 'start' });
        return;
      }
    }
    if (atBottom.current || last?.direction === 'user') {
      atBottom.current = true;
      virtualizer.scrollToIndex(count - 1, { align: 'end' });
    }
    // eslint-disable-next-line react-hooks/exhaustive-deps -- messages/firstUnreadKey/foundKey matter only at the first opening
  }, [count, last?.key, last?.direction, virtualizer]);

  // Issue 40: the chat's own search moves between hits (?m= changes while the chat is open); the
  // first opening at a hit is the effect above's. A hit not loaded yet is scrolled to once it is.
  const shownFound = useRef(foundKey);
  useLayoutEffect(() => {
    if (foundKey === null || foundKey === shownFound.current) return;
    const at = messages.findIndex((m) => m.key === foundKey);
    if (at < 0) return;
    shownFound.current = foundKey;
    atBottom.current = false;
    virtualizer.scrollToIndex(at, { align: 'center' });
  }, [foundKey, messages, virtualizer]);

  // The footer (the typing dots) lies after the virtual rows, so neither following a new message nor
  // `total` brings it into view: a reader at the bottom is kept there whenever it opens, before the
  // frame is painted. Without this the dots opened below the scroller's edge and were seen only if
  // something else resized the scroller after them (the notifications prompt opening later did;
  // opening first, its row sat where the dots were, issue 40). A commit, not a resize observer: the
  // dots can go and come back between two frames (the message's state flickering), which leaves the
  // footer's size unchanged for an observer while the scroll position was clamped in between.
  const hasFooter = footer !== undefined && footer !== null && footer !== false;
  useLayoutEffect(() => {
    const el = scrollRef.current;
    if (el && hasFooter && atBottom.current) el.scrollTop = el.scrollHeight;
  }, [hasFooter]);

  // Rows measured taller (markdown, images): stay pinned to the bottom.
  useEffect(() => {
    const el = scrollRef.current;
    if (el && atBottom.current) el.scrollTop = el.scrollHeight;
  }, [total]);

  return (
    <ListLinksContext.Provider value={extras.links}>
      <div className="relative flex min-h-0 flex-1 flex-col">
        <StickyDay iso={extras.stickyIso} shown={extras.stickyShown} />
        <div
          ref={scrollRef}
          data-testid="message-scroller"
          // In the tab order (issue 37, axe scrollable-region-focusable): a keyboard user scrolls the
          // history with the arrow keys once Tab reaches it.
          tabIndex={0}
          role="region"
          aria-label={sk.chat.historyLabel}
          className="focus-ring min-h-0 flex-1 overflow-y-auto overscroll-contain focus-visible:ring-inset focus-visible:ring-offset-0"
          onScroll={(e) => {
            // Only a move up leaves the bottom. Content growing below the reader (a backlog arriving
            // page by page, rows measured taller than guessed) also puts the bottom out of reach
            // while scrollTop stays, and must not stop the list following it (the 10,000-message
            // journey stopped at message 73 so under load, in the run of 6aeac48).
            const el = e.currentTarget;
            if (el.scrollHeight - el.scrollTop - el.clientHeight < BOTTOM_SLACK_PX) atBottom.current = true;
            else if (el.scrollTop < lastScrollTop.current) atBottom.current = false;
            lastScrollTop.current = el.scrollTop;
            extras.setAtBottom(atBottom.current);
          }}
        >
          <div role="list" aria-label={sk.chat.messagesLabel} className="relative w-full" style={{ height: total }} {...extras.listHandlers}>
            {virtualizer.getVirtualItems().map((item) => {
              const m = messages[item.index];
              if (!m) return null;
              return (
                <div
                  key={item.key}
                  role="listitem"
                  aria-setsize={count}
                  aria-posinset={item.index + 1}
                  data-index={item.index}
                  ref={virtualizer.measureElement}
                  className={`absolute left-0 top-0 w-full ${m.key === extras.highlight ? 'message-highlight' : ''} ${m.key === foundKey ? 'bg-amber-50' : ''}`}
                  style={{ transform: `translateY(${item.start}px)` }}
                  data-highlighted={m.key === extras.highlight ? 'true' : undefined}
                  data-found={m.key === foundKey || undefined}
                >
                  {m.key === foundKey && <span className="sr-only">{sk.search.foundMessage}</span>}
                  {startsDay(messages, item.index) && <DaySeparator iso={m.createdAt} />}
                  {m.key === firstUnreadKey && item.index > 0 && (
                    <div data-testid="unread-divider" className="flex items-center gap-2 px-3 py-1 text-xs font-semibold text-teal-800">
                      <span aria-hidden="true" className="h-px flex-1 bg-teal-700" />
                      {sk.chat.newMessages}
                      <span aria-hidden="true" className="h-px flex-1 bg-teal-700" />
                    </div>
                  )}
                  <MessageBubble message={m} onRetry={onRetry} />
                </div>
              );
            })}
          </div>
          {footer}
        </div>
        {extras.away && <JumpToNewest count={extras.newCount} onJump={extras.jumpToNewest} />}
      </div>
      {extras.menu}
    </ListLinksContext.Provider>
  );
}
