// The conversation's messages, virtualized inside their own scroller so a 10,000-message chat keeps
// a bounded DOM. It opens at the newest message and sticks to the bottom while the reader is there
// (new messages, images that load); a message the user sends always scrolls into view.
import { useVirtualizer } from '@tanstack/react-virtual';
import { useEffect, useLayoutEffect, useRef, type ReactNode } from 'react';
import type { LocalMessage } from '../../../sync/local-types.ts';
import { markAfterPaint } from '../../data/perf-marks.ts';
import { sk } from '../../text/sk.ts';
import { MessageBubble } from './MessageBubble.tsx';

const ESTIMATED_MESSAGE_PX = 72;
const BOTTOM_SLACK_PX = 80;

interface MessageListProps {
  messages: LocalMessage[];
  onRetry: (key: string) => void;
  footer?: ReactNode;
}

export function MessageList({ messages, onRetry, footer }: MessageListProps) {
  const scrollRef = useRef<HTMLDivElement>(null);
  const atBottom = useRef(true);
  const count = messages.length;
  const last = messages[count - 1];
  const virtualizer = useVirtualizer({
    count,
    getScrollElement: () => scrollRef.current,
    estimateSize: () => ESTIMATED_MESSAGE_PX,
    overscan: 10,
    getItemKey: (i) => messages[i]?.key ?? i,
  });
  const total = virtualizer.getTotalSize();
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
    if (atBottom.current || last?.direction === 'user') {
      atBottom.current = true;
      virtualizer.scrollToIndex(count - 1, { align: 'end' });
    }
  }, [count, last?.key, last?.direction, virtualizer]);

  // Rows measured taller (markdown, images): stay pinned to the bottom.
  useEffect(() => {
    const el = scrollRef.current;
    if (el && atBottom.current) el.scrollTop = el.scrollHeight;
  }, [total]);

  return (
    <div
      ref={scrollRef}
      data-testid="message-scroller"
      className="min-h-0 flex-1 overflow-y-auto overscroll-contain"
      onScroll={(e) => {
        const el = e.currentTarget;
        atBottom.current = el.scrollHeight - el.scrollTop - el.clientHeight < BOTTOM_SLACK_PX;
      }}
    >
      <div role="list" aria-label={sk.chat.messagesLabel} className="relative w-full" style={{ height: total }}>
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
              className="absolute left-0 top-0 w-full"
              style={{ transform: `translateY(${item.start}px)` }}
            >
              <MessageBubble message={m} onRetry={onRetry} />
            </div>
          );
        })}
      </div>
      {footer}
    </div>
  );
}
