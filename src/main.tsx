import { startTransition, StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { BrowserRouter } from 'react-router-dom';
import { AuthProvider } from './auth/AuthProvider.tsx';
import { deferAuthClientUntilIdle, lazyAuthClient, loadSupabase } from './auth/lazy-supabase.ts';
import { hasStoredSession, readStoredSession } from './auth/stored-session.ts';
import { AppToaster } from './components/AppToaster.tsx';
import { LoadErrorBoundary } from './components/LoadErrorBoundary.tsx';
import { toastError, toastSuccess } from './lib/notify.ts';
import { hasAnyDraft } from './pages/chat/drafts.ts';
import { registerServiceWorker } from './pwa/register-sw.ts';
import { registerUpdateBlocker } from './pwa/update-gate.ts';
import { AppRoutes } from './routes/router.tsx';
import { loadSignedIn } from './routes/signed-in-loader.tsx';
import { pwaText } from './text/pwa.ts';
import { skShell as sk } from './text/sk-shell.ts';
import './index.css';

/** Pages that paint without knowing the session (the callback and reset pages need it at once). */
const SIGN_IN_PAGES = new Set(['/auth/login', '/auth/register', '/auth/forgot-password']);

// A visible build marker so an update can be told apart from the version it replaces.
document.documentElement.dataset['build'] = String(import.meta.env.VITE_BUILD_ID ?? 'dev');

// The entry holds React, the router, the toasts and the route tree only. With a stored session,
// supabase-js and the signed-in chunk (layout, sync engine, chat list) are fetched at once and in
// parallel rather than one after the other. A first visit to the sign-in pages paints the form first
// and fetches supabase-js when idle (its actions load it at once if used sooner); any other address
// needs the session check to decide, so it fetches supabase-js at once.
// The two loads run in tasks of their own (issue 40, Lighthouse's total blocking time): each chunk
// the bundler's preload helper links costs the main thread a request start (the signed-in chunk
// links about ten), and together with the entry's own evaluation that made one task of ~30 ms, ×4 on
// Lighthouse's phone. Zero-delay timers still start them while the first render is being sliced,
// long before it needs them.
if (hasStoredSession()) {
  setTimeout(() => void loadSupabase().catch(() => undefined), 0);
  setTimeout(() => void loadSignedIn().catch(() => undefined), 0);
} else if (SIGN_IN_PAGES.has(window.location.pathname)) {
  deferAuthClientUntilIdle();
} else {
  void loadSupabase().catch(() => undefined);
}

const announceLostSession = () => toastError(sk.auth.sessionExpired);

registerUpdateBlocker(hasAnyDraft);
// Registered while the page starts (not deferred to window load): register-sw decides whether a
// controller change should reload the page from the controller it sees then, and a worker that
// claims the page in between would otherwise look like an update and reload it once.
registerServiceWorker({ onOfflineReady: () => toastSuccess(pwaText.offlineReady) });

const root = document.getElementById('root');
if (!root) throw new Error('Root element not found');
// A transition, so React renders the first tree in slices that yield to the browser every few
// milliseconds instead of in one long task (issue 40: on /app/chats the painted snapshot is already on
// screen, so nothing is gained by rendering it in one piece). Its commit is still one step: what is
// shown never mixes two states.
const reactRoot = createRoot(root);
startTransition(() =>
  reactRoot.render(
    <StrictMode>
      <AuthProvider client={lazyAuthClient} onSessionLost={announceLostSession} initialSession={readStoredSession()}>
        <LoadErrorBoundary>
          <BrowserRouter>
            <AppRoutes />
          </BrowserRouter>
        </LoadErrorBoundary>
        <AppToaster />
      </AuthProvider>
    </StrictMode>,
  ),
);
