// Every route of user-area.md section 2 and admin-area.md's route table. The chat list, chat,
// archived and specialists screens are placeholders until the sync engine lands; admin screens
// are placeholders behind the super-admin guard.
import { createBrowserRouter, Navigate, type RouteObject } from 'react-router-dom';
import { AuthArea } from '../pages/AuthArea.tsx';
import { CallbackPage } from '../pages/auth/CallbackPage.tsx';
import { ForgotPasswordPage } from '../pages/auth/ForgotPasswordPage.tsx';
import { LoginPage } from '../pages/auth/LoginPage.tsx';
import { RegisterPage } from '../pages/auth/RegisterPage.tsx';
import { ResetPasswordPage } from '../pages/auth/ResetPasswordPage.tsx';
import { ChatPlaceholderPage } from '../pages/ChatPlaceholderPage.tsx';
import { DemoScrollPage } from '../pages/DemoScrollPage.tsx';
import { NotFoundPage } from '../pages/NotFoundPage.tsx';
import { PlaceholderPage } from '../pages/PlaceholderPage.tsx';
import { SettingsPage } from '../pages/settings/SettingsPage.tsx';
import { sk } from '../text/sk.ts';
import { RequireAuth } from './RequireAuth.tsx';
import { RequireSuperAdmin } from './RequireSuperAdmin.tsx';
import { SignedInArea } from './SignedInArea.tsx';

const adminPlaceholder = <PlaceholderPage documentTitle={sk.titles.admin} description={sk.placeholder.admin} />;

export const routes: RouteObject[] = [
  { path: '/', element: <Navigate to="/app/chats" replace /> },
  {
    path: '/auth',
    element: <AuthArea />,
    children: [
      { index: true, element: <Navigate to="/auth/login" replace /> },
      { path: 'login', element: <LoginPage /> },
      { path: 'register', element: <RegisterPage /> },
      { path: 'forgot-password', element: <ForgotPasswordPage /> },
      { path: 'reset-password', element: <ResetPasswordPage /> },
      { path: 'callback', element: <CallbackPage /> },
    ],
  },
  {
    element: <RequireAuth />,
    children: [
      {
        element: <SignedInArea />,
        children: [
          {
            path: '/app',
            children: [
              { index: true, element: <Navigate to="/app/chats" replace /> },
              { path: 'chats', element: <PlaceholderPage heading={sk.nav.chats} documentTitle={sk.nav.chats} description={sk.placeholder.chats} /> },
              { path: 'chats/:id', element: <ChatPlaceholderPage /> },
              { path: 'archived', element: <PlaceholderPage documentTitle={sk.titles.archived} description={sk.placeholder.archived} /> },
              {
                path: 'specialists',
                element: <PlaceholderPage heading={sk.specialists.title} documentTitle={sk.specialists.title} description={sk.placeholder.specialists} />,
              },
              { path: 'settings', element: <SettingsPage /> },
              { path: '_demo/scroll', element: <DemoScrollPage /> },
            ],
          },
          {
            path: '/admin',
            element: <RequireSuperAdmin />,
            children: [
              { index: true, element: <Navigate to="/admin/accounts" replace /> },
              { path: 'accounts', element: adminPlaceholder },
              { path: 'accounts/:id/settings', element: adminPlaceholder },
              { path: 'chatwoot', element: adminPlaceholder },
              { path: 'edge-functions', element: adminPlaceholder },
              { path: 'tests', element: adminPlaceholder },
            ],
          },
        ],
      },
    ],
  },
  { path: '*', element: <NotFoundPage /> },
];

export function createAppRouter() {
  return createBrowserRouter(routes);
}
