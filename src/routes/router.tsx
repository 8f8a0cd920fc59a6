// Every route of user-area.md section 2 and admin-area.md's route table. Only the chat list and the
// archive are in the entry chunk; every other page is its own chunk (lazy-pages.tsx), and the admin
// area (src/admin, one lazy subtree with its own lazy screens) sits behind the super-admin guard.
import { Navigate, useRoutes, type RouteObject } from 'react-router-dom';
import { AuthArea } from '../pages/AuthArea.tsx';
import { ArchivedPage } from '../pages/chats/ArchivedPage.tsx';
import { ChatsPage } from '../pages/chats/ChatsPage.tsx';
import { NotFoundPage } from '../pages/NotFoundPage.tsx';
import {
  AdminArea,
  CallbackPage,
  ChatPage,
  DemoScrollPage,
  ForgotPasswordPage,
  LoginPage,
  page,
  RegisterPage,
  ResetPasswordPage,
  SettingsPage,
  SpecialistsPage,
} from './lazy-pages.tsx';
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
      { path: 'login', element: page(LoginPage) },
      { path: 'register', element: page(RegisterPage) },
      { path: 'forgot-password', element: page(ForgotPasswordPage) },
      { path: 'reset-password', element: page(ResetPasswordPage) },
      { path: 'callback', element: page(CallbackPage) },
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
              { path: 'chats/:id', element: page(ChatPage) },
              { path: 'archived', element: <ArchivedPage /> },
              { path: 'specialists', element: page(SpecialistsPage) },
              { path: 'settings', element: page(SettingsPage) },
              { path: '_demo/scroll', element: page(DemoScrollPage) },
            ],
          },
          {
            path: '/admin/*',
            element: <RequireSuperAdmin />,
            children: [{ path: '*', element: page(AdminArea) }],
          },
        ],
      },
    ],
  },
  { path: '*', element: <NotFoundPage /> },
];

/**
 * The route tree, rendered inside <BrowserRouter>. No screen uses loaders, actions or blockers, so
 * the data router (createBrowserRouter, about 9 KB gzip more in the entry chunk) is not needed.
 */
export function AppRoutes() {
  return useRoutes(routes);
}
