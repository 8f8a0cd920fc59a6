// Which bars, title and back button a path gets (user-area.md section 2, admin-area.md route table).
import { skShell as sk } from '../text/sk-shell.ts';

export interface LayoutRules {
  showHeader: boolean;
  showBottomNav: boolean;
  /** The single chat scrolls inside itself; the page must not. */
  lockPageScroll: boolean;
  title: string | null;
  backTo: string | null;
  /** Full-width content (the admin area on desktop: tables, side-by-side sections); else a 768 px column. */
  wide: boolean;
  /**
   * The header's plan badge (the signed-in account's plan). Not on an admin page about another account
   * (/admin/accounts/{id}/…), where it read as that account's plan (issue 37 admin 4); the page itself
   * shows that account's plan.
   */
  showPlan: boolean;
  /**
   * Issue 40: the list and the open chat side by side (/app/chats and /app/chats/{id} on a screen
   * at least 1024 px wide, src/pages/chats/ChatsArea.tsx). The chat then keeps the app's header and
   * navigation, the page scrolls the list, and the chat pane holds still beside it.
   */
  twoPane: boolean;
}

const SINGLE_CHAT = /^\/app\/chats\/[^/]+\/?$/;
const CHATS = /^\/app\/chats\/?$/;

/** `desktop`: the screen is at least 1024 px wide (DESKTOP_QUERY). */
export function layoutRules(pathname: string, desktop = false): LayoutRules {
  const rules: LayoutRules = { showHeader: true, showBottomNav: true, lockPageScroll: false, title: null, backTo: null, wide: false, showPlan: true, twoPane: false };
  if (desktop && (CHATS.test(pathname) || SINGLE_CHAT.test(pathname))) return { ...rules, wide: true, twoPane: true };
  if (SINGLE_CHAT.test(pathname)) {
    return { ...rules, showHeader: false, showBottomNav: false, lockPageScroll: true, backTo: '/app/chats' };
  }
  if (/^\/app\/archived\/?$/.test(pathname)) {
    return { ...rules, showBottomNav: false, title: sk.titles.archived, backTo: '/app/chats' };
  }
  if (pathname.includes('/assign')) return { ...rules, backTo: '/app/chats' };
  if (pathname === '/admin' || pathname.startsWith('/admin/')) {
    const depth = pathname.split('/').filter(Boolean).length;
    const otherAccount = /^\/admin\/accounts\/[^/]+/.test(pathname);
    return { ...rules, title: sk.titles.admin, backTo: depth > 2 ? '/admin/accounts' : null, wide: true, showPlan: !otherAccount };
  }
  return rules;
}
