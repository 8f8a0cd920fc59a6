import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { RouterProvider } from 'react-router-dom';
import { AuthProvider } from './auth/AuthProvider.tsx';
import { AppToaster } from './components/AppToaster.tsx';
import { toastError } from './lib/notify.ts';
import { createAppRouter } from './routes/router.tsx';
import { supabase } from './supabase.ts';
import { sk } from './text/sk.ts';
import './index.css';

const router = createAppRouter();
const announceLostSession = () => toastError(sk.auth.sessionExpired);

const root = document.getElementById('root');
if (!root) throw new Error('Root element not found');
createRoot(root).render(
  <StrictMode>
    <AuthProvider client={supabase.auth} onSessionLost={announceLostSession}>
      <RouterProvider router={router} />
      <AppToaster />
    </AuthProvider>
  </StrictMode>,
);
