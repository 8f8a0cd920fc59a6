// Every route of user-area.md section 2 and admin-area.md's route table. The entry chunk holds only
// the route tree, the guards and the auth area's frame: the signed-in layout with the chat list and
// the archive is one chunk (signed-in-loader.tsx), every other page is its own chunk
// (lazy-pages.tsx), and the admin area (src/admin, one lazy subtree with its own lazy screens) sits
// behind the super-admin guard.
import { useLayoutEffect } from 'react';
import { Navigate, useLocation, useRoutes, type RouteObject } from 'react-router-dom';
import { AuthArea } from '../pages/AuthArea.tsx';
import { NotFoundPage } from '../pages/NotFoundPage.tsx';
import { removeListSnapshotOffList } from '../pwa/snapshot-overlay.ts';
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
import { RequireAuth, SIGNED_IN_PLACEHOLDER } from './RequireAuth.tsx';
import { RequireSuperAdmin } from './RequireSuperAdmin.tsx';
import { RootRedirect } from './RootRedirect.tsx';
import { ArchivedPage, ChatsArea, ChatsIndex, SignedInArea } from './signed-in-loader.tsx';

export const routes: RouteObject[] = [
  { path: '/', element: <RootRedirect /> },
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
        // The same placeholder as the sign-in guard's, so the screen does not jump while the chunk loads.
        element: page(SignedInArea, 6, SIGNED_IN_PLACEHOLDER),
        children: [
          {
            path: '/app',
            children: [
              { index: true, element: <Navigate to="/app/chats" replace /> },
              {
                // The list, and the open chat beside it on a desktop (issue 40, ChatsArea.tsx).
                path: 'chats',
                element: page(ChatsArea),
                children: [
                  { index: true, element: page(ChatsIndex) },
                  { path: ':id', element: page(ChatPage) },
                ],
              },
              { path: 'archived', element: page(ArchivedPage) },
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
  const { pathname } = useLocation();
  useLayoutEffect(() => removeListSnapshotOffList(pathname), [pathname]);
  return useRoutes(routes);
}
