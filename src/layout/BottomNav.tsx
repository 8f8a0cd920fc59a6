// Bottom tabs, 48 px plus the safe-area inset. The Admin tab appears only once the super-admin
// check has answered yes: hidden while it loads or when it failed.
import { NavLink } from 'react-router-dom';
import { useAccount } from '../account/account-context.ts';
import { skShell as sk } from '../text/sk-shell.ts';
import { NavIcon, type NavIconName } from './nav-icons.tsx';

interface Tab {
  to: string;
  label: string;
  icon: NavIconName;
}

const TABS: Tab[] = [
  { to: '/app/chats', label: sk.nav.chats, icon: 'chats' },
  { to: '/app/specialists', label: sk.nav.specialists, icon: 'specialists' },
  { to: '/app/settings', label: sk.nav.settings, icon: 'settings' },
];
const ADMIN_TAB: Tab = { to: '/admin/accounts', label: sk.nav.admin, icon: 'admin' };

export function BottomNav() {
  const { isSuperAdmin } = useAccount();
  const tabs = isSuperAdmin === true ? [...TABS, ADMIN_TAB] : TABS;
  return (
    <nav
      aria-label={sk.app.mainNav}
      data-bottom-nav=""
      className="fixed inset-x-0 bottom-0 z-20 border-t border-slate-200 bg-white pb-[env(safe-area-inset-bottom)]"
    >
      <ul className="mx-auto flex h-12 max-w-3xl">
        {tabs.map((tab) => (
          <li key={tab.to} className="flex-1">
            <NavLink
              to={tab.to}
              className={({ isActive }) =>
                `focus-ring flex h-12 flex-col items-center justify-center gap-0.5 text-[11px] font-medium leading-none ${
                  isActive ? 'text-teal-700' : 'text-slate-500 hover:text-slate-800'
                }`
              }
            >
              <NavIcon name={tab.icon} />
              {tab.label}
            </NavLink>
          </li>
        ))}
      </ul>
    </nav>
  );
}
