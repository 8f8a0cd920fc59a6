// What issue 40 adds to the message list, kept out of MessageList.tsx: the actions menu, the links a
// bubble reads (a reply's quote and the jump to it, with its highlight), the jump to the newest with
// its count, and the day of the topmost visible row for the overlay at the top.
import type { Virtualizer } from '@tanstack/react-virtual';
import { useCallback, useMemo, useState, type ReactNode, type RefObject } from 'react';
import type { LocalMessage } from '../../../sync/model/local-types.ts';
import { dayKey } from './day-label.ts';
import type { ListLinks } from './list-links.ts';
import { useMessageActions, type MessageActions } from './use-message-actions.tsx';
import { useNewWhileAway } from './use-new-while-away.ts';

interface ExtrasInput {
  messages: readonly LocalMessage[];
  virtualizer: Virtualizer<HTMLDivElement, Element>;
  /** The list's own 'reader is at the bottom' flag (it follows new messages while true). */
  atBottom: RefObject<boolean>;
  onReply: ((m: LocalMessage) => void) | undefined;
  peerName: string;
}

export interface ListExtras {
  links: ListLinks;
  listHandlers: MessageActions['listHandlers'];
  menu: ReactNode;
  /** The message a quote last jumped to: its row plays the highlight once (the state stays, no timer). */
  highlight: string | null;
  away: boolean;
  newCount: number;
  setAtBottom: (atBottom: boolean) => void;
  jumpToNewest: () => void;
  /** The topmost visible row's time once the list is scrolled from its very top, else undefined. */
  stickyIso: string | undefined;
  /**
   * Whether that day's pill shows: only while the reader scrolls away from the bottom (the
   * virtualizer's isScrolling, which ends ~150 ms after the last scroll event). At rest it would sit
   * over the first line of the topmost message, so it fades out (index.css, .sticky-day) as in
   * WhatsApp and Telegram; the list's own following of new messages at the bottom never shows it.
   */
  stickyShown: boolean;
}

export function useListExtras({ messages, virtualizer, atBottom, onReply, peerName }: ExtrasInput): ListExtras {
  const away = useNewWhileAway(messages);
  const actions = useMessageActions(messages, onReply);
  const [highlight, setHighlight] = useState<string | null>(null);
  const byServerId = useMemo(() => {
    const map = new Map<string, LocalMessage>();
    for (const m of messages) if (m.serverId) map.set(m.serverId, m);
    return map;
  }, [messages]);
  const openMenu = actions.openFrom;
  const links = useMemo<ListLinks>(
    () => ({
      byServerId: (id) => byServerId.get(id),
      jumpTo: (id) => {
        const quoted = byServerId.get(id);
        const at = quoted ? messages.indexOf(quoted) : -1;
        if (!quoted || at < 0) return;
        // Reading the original: the list stops following new messages until the reader comes back down.
        atBottom.current = false;
        virtualizer.scrollToIndex(at, { align: 'center' });
        setHighlight(quoted.key);
      },
      openMenu,
      peerName,
    }),
    [byServerId, messages, virtualizer, atBottom, openMenu, peerName],
  );
  const count = messages.length;
  const jumpToNewest = useCallback(() => {
    atBottom.current = true;
    virtualizer.scrollToIndex(count - 1, { align: 'end' });
  }, [atBottom, virtualizer, count]);
  const scrolled = (virtualizer.scrollOffset ?? 0) > 0;
  const stickyIso = scrolled ? messages[virtualizer.range?.startIndex ?? 0]?.createdAt : undefined;
  const stickyShown = stickyIso !== undefined && away.away && virtualizer.isScrolling;
  return {
    links,
    listHandlers: actions.listHandlers,
    menu: actions.menu,
    highlight,
    away: away.away,
    newCount: away.count,
    setAtBottom: away.setAtBottom,
    jumpToNewest,
    stickyIso,
    stickyShown,
  };
}

/** Whether the message at `i` is the first of its local day (a day separator goes above it). */
export function startsDay(messages: readonly LocalMessage[], i: number): boolean {
  const m = messages[i];
  if (!m) return false;
  const prev = messages[i - 1];
  return !prev || dayKey(prev.createdAt) !== dayKey(m.createdAt);
}
