// The standard layout of /app and /admin: impersonation banner, header, page, bottom navigation.
import { useState } from 'react';
import { Outlet, useLocation } from 'react-router-dom';
import { DESKTOP_QUERY, useMedia } from '../lib/use-media.ts';
import { BottomNav } from './BottomNav.tsx';
import { Header } from './Header.tsx';
import { ImpersonationBanner } from './ImpersonationBanner.tsx';
import { layoutRules } from './layout-rules.ts';
import { PageTransition } from './PageTransition.tsx';

/**
 * The page's key: one for /app/chats and every /app/chats/{id} in two panes, else the path. Crossing
 * 1024 px on the same address (a window resized, a tablet turned) keeps the key the page already has:
 * the page is the same, and a new key would remount it, forgetting what is open in the chat and not
 * stored (a send waiting for the conversation to load, the files in the composer's tray).
 */
function usePageKey(pathname: string, twoPane: boolean): string {
  const fresh = twoPane ? '/app/chats' : pathname;
  const [page, setPage] = useState({ pathname, key: fresh });
  if (page.pathname === pathname) return page.key;
  setPage({ pathname, key: fresh });
  return fresh;
}

export function AppLayout() {
  const { pathname } = useLocation();
  const rules = layoutRules(pathname, useMedia(DESKTOP_QUERY));
  const pageKey = usePageKey(pathname, rules.twoPane);
  return (
    <div className={`flex flex-col ${rules.lockPageScroll ? 'h-dvh overflow-hidden' : 'min-h-dvh'}`}>
      <ImpersonationBanner />
      {rules.showHeader && <Header rules={rules} />}
      <main
        id="main"
        className={`mx-auto flex w-full ${rules.wide ? 'max-w-screen-2xl' : 'max-w-3xl'} flex-1 flex-col ${rules.lockPageScroll ? 'min-h-0' : ''} ${
          rules.showBottomNav ? 'pb-[calc(48px+env(safe-area-inset-bottom))]' : ''
        }`}
      >
        {/* Two panes (issue 40): opening another chat changes the right pane only, so the list keeps
            its place (one page key for /app/chats and every /app/chats/{id}). */}
        <PageTransition pageKey={pageKey} className={`flex flex-1 flex-col ${rules.lockPageScroll ? 'min-h-0' : ''}`}>
          <Outlet />
        </PageTransition>
      </main>
      {rules.showBottomNav && <BottomNav />}
    </div>
  );
}
