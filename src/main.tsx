import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { BrowserRouter } from 'react-router-dom';
import { AuthProvider } from './auth/AuthProvider.tsx';
import { lazyAuthClient, loadSupabase } from './auth/lazy-supabase.ts';
import { hasStoredSession } from './auth/stored-session.ts';
import { AppToaster } from './components/AppToaster.tsx';
import { toastError, toastSuccess } from './lib/notify.ts';
import { hasAnyDraft } from './pages/chat/drafts.ts';
import { registerServiceWorker } from './pwa/register-sw.ts';
import { registerUpdateBlocker } from './pwa/update-gate.ts';
import { AppRoutes } from './routes/router.tsx';
import { loadSignedIn } from './routes/signed-in-loader.tsx';
import { pwaText } from './text/pwa.ts';
import { sk } from './text/sk.ts';
import './index.css';

// A visible build marker so an update can be told apart from the version it replaces.
document.documentElement.dataset['build'] = String(import.meta.env.VITE_BUILD_ID ?? 'dev');

// The entry holds React, the router, the toasts and the route tree only. supabase-js is fetched at
// once (the session decides every route); with a stored session the signed-in chunk (layout, sync
// engine, chat list) is fetched in parallel rather than after the session check.
void loadSupabase().catch(() => undefined);
if (hasStoredSession()) void loadSignedIn().catch(() => undefined);

const announceLostSession = () => toastError(sk.auth.sessionExpired);

registerUpdateBlocker(hasAnyDraft);
// Registered while the page starts (not deferred to window load): register-sw decides whether a
// controller change should reload the page from the controller it sees then, and a worker that
// claims the page in between would otherwise look like an update and reload it once.
registerServiceWorker({ onOfflineReady: () => toastSuccess(pwaText.offlineReady) });

const root = document.getElementById('root');
if (!root) throw new Error('Root element not found');
createRoot(root).render(
  <StrictMode>
    <AuthProvider client={lazyAuthClient} onSessionLost={announceLostSession}>
      <BrowserRouter>
        <AppRoutes />
      </BrowserRouter>
      <AppToaster />
    </AuthProvider>
  </StrictMode>,
);
