// /admin/chatwoot: settings, webhook URL, control panel, function status, specialists' inboxes, send,
// actions, events, rich content test. On opening, the admin's own account is looked up (created if
// missing). Sections sit side by side where the page is wide enough (a container query, so it follows
// whatever width the admin shell gives it) and stack on a phone (issue 21 admin 12).
import { useCallback, useEffect, useState } from 'react';
import { useAuth } from '../../auth/auth-context.ts';
import { useDocumentTitle } from '../../lib/use-document-title.ts';
import { admin } from '../../text/admin.ts';
import { adminError } from '../lib/toasts.ts';
import { ActionsCard } from './ActionsCard.tsx';
import { AiProviderCard } from './AiProviderCard.tsx';
import { ensureOwnAccount, loadConfig, loadEvents, loadSpecialists, type ChatwootConfig, type CwSpecialist, type IntegrationEvent } from './chatwoot-data.ts';
import { ControlPanel } from './ControlPanel.tsx';
import { EventsCard } from './EventsCard.tsx';
import { FunctionStatusCard } from './FunctionStatusCard.tsx';
import { RichContentCard } from './RichContentCard.tsx';
import { SendCard } from './SendCard.tsx';
import { SpecialistInboxesCard } from './SpecialistInboxesCard.tsx';
import { SettingsCard } from './SettingsCard.tsx';
import { WebhookCard } from './WebhookCard.tsx';

export function ChatwootPage() {
  useDocumentTitle(admin.chatwoot.title);
  const { user } = useAuth();
  const userId = user?.id ?? null;
  const [accountId, setAccountId] = useState<string | null>(null);
  const [config, setConfig] = useState<ChatwootConfig | null>(null);
  const [specialists, setSpecialists] = useState<CwSpecialist[]>([]);
  const [events, setEvents] = useState<IntegrationEvent[]>([]);

  const reloadConfig = useCallback(async () => {
    try {
      setConfig(await loadConfig());
    } catch (err) {
      console.error('chatwoot config:', err);
    }
  }, []);
  const reloadEvents = useCallback(async () => {
    try {
      setEvents(await loadEvents());
    } catch (err) {
      console.error('integration events:', err);
    }
  }, []);

  const reloadSpecialists = useCallback(() => {
    loadSpecialists().then(setSpecialists, (err: unknown) => console.error('specialists:', err));
  }, []);

  useEffect(() => {
    void reloadConfig();
    void reloadEvents();
    reloadSpecialists();
  }, [reloadConfig, reloadEvents, reloadSpecialists]);

  useEffect(() => {
    if (!userId) return;
    let live = true;
    ensureOwnAccount(userId).then(
      (id) => live && setAccountId(id),
      (err: unknown) => {
        console.error('admin account:', err);
        adminError(admin.chatwoot.accountFailed);
      },
    );
    return () => {
      live = false;
    };
  }, [userId]);

  return (
    <div className="@container">
      <section className="grid min-w-0 grid-cols-1 items-start gap-3 *:min-w-0 @min-[44rem]:grid-cols-2" data-testid="cw-page">
        <SettingsCard config={config} onSaved={reloadConfig} />
        <WebhookCard />
        <ControlPanel />
        <FunctionStatusCard />
        <AiProviderCard />
        {/* Keyed by the connection: saving the settings lists the new Chatwoot's inboxes at once. */}
        <SpecialistInboxesCard key={config ? `${config.api_base_url}|${config.account_id}` : 'none'} specialists={specialists} onChanged={reloadSpecialists} />
        <SendCard specialists={specialists} accountId={accountId} onSent={() => void reloadEvents()} />
        <ActionsCard />
        <RichContentCard />
        <div className="min-w-0 @min-[44rem]:col-span-2">
          <EventsCard events={events} onReload={() => void reloadEvents()} />
        </div>
      </section>
    </div>
  );
}
