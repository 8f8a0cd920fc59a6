// Every page that /app/chats does not need to paint, each in its own chunk: the chat screen (with
// micromark, the lightbox and the composer), specialists, settings, the auth pages and the demo.
// The chat list and the archive travel with the signed-in layout (signed-in-loader.tsx), which the
// entry starts fetching at once when a session is stored. `preloadUserPages` fetches the user-area chunks once the browser is idle, so
// opening a chat right after the list appeared does not wait for the network (offline, the service
// worker serves them from its precache either way).
import { lazy, Suspense, type ComponentType, type ReactNode } from 'react';
import { Skeleton } from '../components/Skeleton.tsx';

type Loader = () => Promise<{ default: ComponentType }>;

const loadChat: Loader = () => import('../pages/chat/ChatPage.tsx').then((m) => ({ default: m.ChatPage }));
const loadSpecialists: Loader = () => import('../pages/specialists/SpecialistsPage.tsx').then((m) => ({ default: m.SpecialistsPage }));
const loadSettings: Loader = () => import('../pages/settings/SettingsPage.tsx').then((m) => ({ default: m.SettingsPage }));

export const ChatPage = lazy(loadChat);
export const SpecialistsPage = lazy(loadSpecialists);
export const SettingsPage = lazy(loadSettings);
export const AdminArea = lazy(() => import('./AdminArea.tsx').then((m) => ({ default: m.AdminArea })));
export const DemoScrollPage = lazy(() => import('../pages/DemoScrollPage.tsx').then((m) => ({ default: m.DemoScrollPage })));
export const LoginPage = lazy(() => import('../pages/auth/LoginPage.tsx').then((m) => ({ default: m.LoginPage })));
export const RegisterPage = lazy(() => import('../pages/auth/RegisterPage.tsx').then((m) => ({ default: m.RegisterPage })));
export const ForgotPasswordPage = lazy(() => import('../pages/auth/ForgotPasswordPage.tsx').then((m) => ({ default: m.ForgotPasswordPage })));
export const ResetPasswordPage = lazy(() => import('../pages/auth/ResetPasswordPage.tsx').then((m) => ({ default: m.ResetPasswordPage })));
export const CallbackPage = lazy(() => import('../pages/auth/CallbackPage.tsx').then((m) => ({ default: m.CallbackPage })));

/** A lazy page behind its own loading placeholder (the layout around it stays on screen). */
export function page(Page: ComponentType, lines = 5, className?: string): ReactNode {
  return (
    <Suspense fallback={<Skeleton lines={lines} className={className ?? ''} />}>
      <Page />
    </Suspense>
  );
}

let preloaded = false;

/**
 * Fetch the signed-in pages' chunks when the main thread is idle; once per page load. One page per
 * idle period: each import links its chunks and compiles the ones already fetched, ~5 ms a page on
 * this machine, and the three in one callback made a task Lighthouse's 4× phone counts as blocking
 * (issue 40).
 */
export function preloadUserPages(): void {
  if (preloaded) return;
  preloaded = true;
  const pending = [loadChat, loadSpecialists, loadSettings];
  const next = () => {
    const load = pending.shift();
    if (!load) return;
    void load().catch(() => undefined);
    later(next);
  };
  later(next);
}

function later(fn: () => void): void {
  if ('requestIdleCallback' in window) window.requestIdleCallback(fn, { timeout: 3000 });
  else setTimeout(fn, 1500);
}
