// The admin header's tabs (admin-area.md section 2): Účty and Testy on top; under Testy the sub-tabs
// Chatwoot, Edge Funkcie and Testy.
import { admin } from '../text/admin.ts';

export interface AdminTab {
  label: string;
  to: string;
}

export const TOP_TABS: readonly AdminTab[] = [
  { label: admin.tabs.accounts, to: '/admin/accounts' },
  { label: admin.tabs.tests, to: '/admin/chatwoot' },
];

export const TESTS_SUB_TABS: readonly AdminTab[] = [
  { label: admin.tabs.chatwoot, to: '/admin/chatwoot' },
  { label: admin.tabs.edgeFunctions, to: '/admin/edge-functions' },
  { label: admin.tabs.testRunner, to: '/admin/tests' },
];

export type AdminSection = 'accounts' | 'tests';

export function adminSection(pathname: string): AdminSection {
  return TESTS_SUB_TABS.some((t) => pathname === t.to || pathname.startsWith(`${t.to}/`)) ? 'tests' : 'accounts';
}
