// The /admin children, each screen loaded on demand so the user area's bundle stays small. An unknown
// sub-path shows the app's not-found screen (without the admin tabs), never an empty frame.
import { lazy } from 'react';
import { Navigate, type RouteObject } from 'react-router-dom';
import { NotFoundPage } from '../pages/NotFoundPage.tsx';
import { AdminShell } from './AdminShell.tsx';

const AccountsPage = lazy(() => import('./accounts/AccountsPage.tsx').then((m) => ({ default: m.AccountsPage })));
const AccountSettingsPage = lazy(() => import('./settings/AccountSettingsPage.tsx').then((m) => ({ default: m.AccountSettingsPage })));
const ChatwootPage = lazy(() => import('./chatwoot/ChatwootPage.tsx').then((m) => ({ default: m.ChatwootPage })));
const EdgeFunctionsPage = lazy(() => import('./edge/EdgeFunctionsPage.tsx').then((m) => ({ default: m.EdgeFunctionsPage })));
const TestRunnerPage = lazy(() => import('./tests/TestRunnerPage.tsx').then((m) => ({ default: m.TestRunnerPage })));

export const adminRoutes: RouteObject[] = [
  {
    element: <AdminShell />,
    children: [
      { index: true, element: <Navigate to="/admin/accounts" replace /> },
      { path: 'accounts', element: <AccountsPage /> },
      { path: 'accounts/:id/settings', element: <AccountSettingsPage /> },
      { path: 'chatwoot', element: <ChatwootPage /> },
      { path: 'edge-functions', element: <EdgeFunctionsPage /> },
      { path: 'tests', element: <TestRunnerPage /> },
    ],
  },
  { path: '*', element: <NotFoundPage embedded /> },
];
