// The /admin frame under the app header (title Admin, back button on deeper paths): the top tabs,
// the Testy sub-tabs, and the lazily loaded screen. Full width on desktop (layout-rules.ts `wide`).
// Offline the screen is replaced by the needs-a-connection notice: every admin screen reads the server
// and its chunk is not precached, so it would otherwise wait forever (issue 21 admin item 2).
import { Suspense } from 'react';
import { Link, Outlet, useLocation } from 'react-router-dom';
import { Skeleton } from '../components/Skeleton.tsx';
import { admin } from '../text/admin.ts';
import { adminSection, TESTS_SUB_TABS, TOP_TABS, type AdminTab } from './admin-tabs.ts';
import { useOnline } from './lib/use-online.ts';
import { NeedsConnection } from './ui/LoadStates.tsx';

function TabBar({ tabs, current, label, small }: { tabs: readonly AdminTab[]; current: string | null; label: string; small?: boolean }) {
  return (
    <nav aria-label={label} className={`flex gap-1 overflow-x-auto ${small ? '' : 'border-b border-slate-200'}`}>
      {tabs.map((t) => {
        const active = t.to === current;
        return (
          <Link
            key={t.label + t.to}
            to={t.to}
            aria-current={active ? 'page' : undefined}
            className={`focus-ring whitespace-nowrap px-3 py-2 text-sm font-medium ${
              small
                ? `rounded-full ${active ? 'bg-teal-700 text-white' : 'bg-slate-100 text-slate-700 hover:bg-slate-200'}`
                : `-mb-px border-b-2 ${active ? 'border-teal-700 text-teal-800' : 'border-transparent text-slate-600 hover:text-slate-900'}`
            }`}
          >
            {t.label}
          </Link>
        );
      })}
    </nav>
  );
}

export function AdminShell() {
  const { pathname } = useLocation();
  const section = adminSection(pathname);
  const sub = TESTS_SUB_TABS.find((t) => pathname.startsWith(t.to))?.to ?? null;
  const online = useOnline();
  return (
    <div className="flex flex-col gap-3 px-3 pt-2 pb-6 lg:px-6">
      <TabBar tabs={TOP_TABS} current={section === 'accounts' ? '/admin/accounts' : '/admin/chatwoot'} label={admin.tabs.label} />
      {section === 'tests' && <TabBar tabs={TESTS_SUB_TABS} current={sub} label={admin.tabs.subLabel} small />}
      {online ? (
        <Suspense fallback={<Skeleton lines={5} />}>
          <Outlet />
        </Suspense>
      ) : (
        <NeedsConnection />
      )}
    </div>
  );
}
