// /app/settings ('Nastavenia – Bezpečnosť').
import { useDocumentTitle } from '../../lib/use-document-title.ts';
import { sk } from '../../text/sk.ts';
import { AccountCard } from './AccountCard.tsx';
import { AppearanceCard } from './AppearanceCard.tsx';
import { ImpersonationCard } from './ImpersonationCard.tsx';
import { NotificationsCard } from './NotificationsCard.tsx';
import { SecurityCard } from './SecurityCard.tsx';
import { SessionCard } from './SessionCard.tsx';

export function SettingsPage() {
  useDocumentTitle(sk.nav.settings);
  return (
    <section className="flex flex-col gap-4 p-4">
      <h1 className="text-xl font-semibold">{sk.settings.title}</h1>
      <ImpersonationCard />
      <AccountCard />
      <SecurityCard />
      <NotificationsCard />
      <AppearanceCard />
      <SessionCard />
    </section>
  );
}
