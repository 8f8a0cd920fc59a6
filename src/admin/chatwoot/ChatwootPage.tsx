// /admin/chatwoot: settings, webhook URL, control panel, function status, send, actions, events,
// rich content test. On opening, the admin's own account is looked up (created if missing).
import { useCallback, useEffect, useState } from 'react';
import { useAuth } from '../../auth/auth-context.ts';
import { useDocumentTitle } from '../../lib/use-document-title.ts';
import { admin } from '../../text/admin.ts';
import { adminError } from '../lib/toasts.ts';
import { ActionsCard } from './ActionsCard.tsx';
import { ensureOwnAccount, loadConfig, loadEvents, loadSpecialists, type ChatwootConfig, type CwSpecialist, type IntegrationEvent } from './chatwoot-data.ts';
import { ControlPanel } from './ControlPanel.tsx';
import { EventsCard } from './EventsCard.tsx';
import { FunctionStatusCard } from './FunctionStatusCard.tsx';
import { RichContentCard } from './RichContentCard.tsx';
import { SendCard } from './SendCard.tsx';
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

  useEffect(() => {
    void reloadConfig();
    void reloadEvents();
    loadSpecialists().then(setSpecialists, (err: unknown) => console.error('specialists:', err));
  }, [reloadConfig, reloadEvents]);

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
    <section className="flex flex-col gap-3">
      <SettingsCard config={config} onSaved={reloadConfig} />
      <WebhookCard />
      <ControlPanel />
      <FunctionStatusCard />
      <SendCard specialists={specialists} accountId={accountId} onSent={() => void reloadEvents()} />
      <ActionsCard />
      <EventsCard events={events} onReload={() => void reloadEvents()} />
      <RichContentCard />
    </section>
  );
}
