// Every route of user-area.md section 2 and admin-area.md's route table. The chat list, chat,
// archived and specialists screens are placeholders until the sync engine lands; the admin
// screens (src/admin, loaded lazily) sit behind the super-admin guard.
import { createBrowserRouter, Navigate, type RouteObject } from 'react-router-dom';
import { adminRoutes } from '../admin/admin-routes.tsx';
import { AuthArea } from '../pages/AuthArea.tsx';
import { CallbackPage } from '../pages/auth/CallbackPage.tsx';
import { ForgotPasswordPage } from '../pages/auth/ForgotPasswordPage.tsx';
import { LoginPage } from '../pages/auth/LoginPage.tsx';
import { RegisterPage } from '../pages/auth/RegisterPage.tsx';
import { ResetPasswordPage } from '../pages/auth/ResetPasswordPage.tsx';
import { ArchivedPage } from '../pages/chats/ArchivedPage.tsx';
import { ChatsPage } from '../pages/chats/ChatsPage.tsx';
import { ChatPage } from '../pages/chat/ChatPage.tsx';
import { SpecialistsPage } from '../pages/specialists/SpecialistsPage.tsx';
import { DemoScrollPage } from '../pages/DemoScrollPage.tsx';
import { NotFoundPage } from '../pages/NotFoundPage.tsx';
import { SettingsPage } from '../pages/settings/SettingsPage.tsx';
import { RequireAuth } from './RequireAuth.tsx';
import { RequireSuperAdmin } from './RequireSuperAdmin.tsx';
import { SignedInArea } from './SignedInArea.tsx';

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
              { path: 'chats', element: <ChatsPage /> },
              { path: 'chats/:id', element: <ChatPage /> },
              { path: 'archived', element: <ArchivedPage /> },
              { path: 'specialists', element: <SpecialistsPage /> },
              { path: 'settings', element: <SettingsPage /> },
              { path: '_demo/scroll', element: <DemoScrollPage /> },
            ],
          },
          {
            path: '/admin',
            element: <RequireSuperAdmin />,
            children: adminRoutes,
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
