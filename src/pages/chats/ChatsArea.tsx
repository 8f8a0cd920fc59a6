// /app/chats and /app/chats/{id} (issue 40). Below 1024 px each address is its own screen, as on a
// phone before: the child route (the list, or the chat) fills the page. From 1024 px (DESKTOP_QUERY)
// both show side by side, as in WhatsApp Web: the list on the left, the open chat on the right, or a
// quiet pane with a hint while none is open. The addresses stay the specification's.
// Invariants:
// - the list is one element across chat changes (the layout's page key is /app/chats for both
//   addresses, AppLayout.tsx), so its scroll position, search and virtualized rows stay put;
// - the list scrolls with the page, so its window virtualizer works unchanged; the right pane is
//   sticky under the app header and ends at the bottom navigation, and its own lists scroll inside;
// - the open chat's row is marked (aria-current="page", ConversationRow.tsx);
// - keyboard: Tab goes from the list to the chat pane (document order); Escape in the chat pane, when
//   no menu or dialog takes it, returns to the open chat's row; closing the chat (its back button)
//   returns focus to that row as well.
import { lazy, Suspense, useEffect, useRef, type KeyboardEvent } from 'react';
import { Outlet, useMatch } from 'react-router-dom';
import { LoadErrorBoundary } from '../../components/LoadErrorBoundary.tsx';
import { DESKTOP_QUERY, useMedia } from '../../lib/use-media.ts';
import { ChatsPage } from './ChatsPage.tsx';
import { ConversationsScreen } from './ConversationsScreen.tsx';

// The desktop's quiet pane is fetched once a desktop shows it, not before a phone's list paints (bench
// row 8a); its place is kept by an empty pane of the same colour meanwhile.
const EmptyChatPane = lazy(() => import('./EmptyChatPane.tsx').then((m) => ({ default: m.EmptyChatPane })));

export function ChatsArea() {
  return <Panes desktop={useMedia(DESKTOP_QUERY)} />;
}

/** /app/chats itself: the list on a phone; on a desktop the list is the area's, and this is the empty pane. */
export function ChatsIndex() {
  return useMedia(DESKTOP_QUERY) ? (
    <LoadErrorBoundary fallback={<div className="flex-1 bg-slate-100" />}>
      <Suspense fallback={<div className="flex-1 bg-slate-100" />}>
        <EmptyChatPane />
      </Suspense>
    </LoadErrorBoundary>
  ) : (
    <ChatsPage />
  );
}

/** The row of a conversation in the list, found by its link (rows keep the list's search after the id). */
function rowOf(id: string): HTMLElement | null {
  return document.querySelector<HTMLElement>(`a[data-testid="conversation-row"][href^=${JSON.stringify(`/app/chats/${encodeURIComponent(id)}`)}]`);
}

/**
 * One tree shape at both widths (on a phone the wrappers are `display: contents`), and crossing
 * 1024 px on the same address keeps AppLayout's page key, so the open chat is not remounted: what is
 * open in it but not stored (a send waiting for the conversation, the tray's files, its search, a
 * reply quote) stays. Drafts are stored anyway.
 */
function Panes({ desktop }: { desktop: boolean }) {
  const openId = useMatch('/app/chats/:id')?.params.id ?? null;
  const lastOpen = useRef(openId);
  useEffect(() => {
    const closed = lastOpen.current;
    lastOpen.current = openId;
    if (desktop && closed && !openId) rowOf(closed)?.focus();
  }, [openId, desktop]);
  const onKeyDown = (e: KeyboardEvent<HTMLDivElement>) => {
    if (!desktop || e.key !== 'Escape' || e.defaultPrevented || !openId) return;
    // The lightbox (a portal, whose events still bubble here through React) and menus keep Escape.
    if (e.target instanceof Element && e.target.closest('[role="dialog"], [role="menu"]')) return;
    const row = rowOf(openId);
    if (!row) return;
    e.preventDefault();
    row.focus();
  };
  return (
    <div data-testid={desktop ? 'two-pane' : undefined} className={desktop ? 'flex flex-1' : 'contents'}>
      {desktop && (
        <div className="w-[22rem] shrink-0 border-r border-slate-200 xl:w-[26rem]">
          <ConversationsScreen archived={false} />
        </div>
      )}
      <div
        data-testid={desktop ? 'chat-pane' : undefined}
        onKeyDown={onKeyDown}
        className={
          desktop
            ? 'sticky top-[calc(3.5rem+1px+env(safe-area-inset-top))] flex h-[calc(100dvh-3.5rem-1px-48px-env(safe-area-inset-top)-env(safe-area-inset-bottom))] min-w-0 flex-1 flex-col self-start overscroll-contain'
            : 'contents'
        }
      >
        <Outlet />
      </div>
    </div>
  );
}
