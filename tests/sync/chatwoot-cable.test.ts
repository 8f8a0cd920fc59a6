// R6.2 with the real @rails/actioncable client against the Chatwoot double's RoomChannel.
import type { Consumer } from '@rails/actioncable';
import type { SupabaseClient } from '@supabase/supabase-js';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { systemClock } from '../../sync/model/clock.ts';
import { createChatwootCableTransport } from '../../sync/transports/chatwoot-cable.ts';
import { createChatwootFeed } from '../../sync/transports/chatwoot-feed.ts';
import type { Transport, TransportEvent, TransportStatus } from '../../sync/transports/transport.ts';
import { loadActionCable } from '../doubles/chatwoot/cable-client.ts';
import { startChatwootDouble, type ChatwootDouble } from '../doubles/chatwoot/server.ts';
import { waitFor } from '../unit/sync/helpers/wait.ts';

let cw: ChatwootDouble;
let transport: Transport | null = null;

beforeEach(async () => {
  cw = await startChatwootDouble({ pingIntervalMs: 500 });
});
afterEach(async () => {
  await transport?.close();
  transport = null;
  await cw.stop();
});

describe('Chatwoot cable transport', () => {
  it('R6.2 receives agent messages, typing and status changes; reconnects after the server drops the socket', async () => {
    const inbox = cw.inboxes[0]!;
    const { contactInbox } = cw.createContact(inbox.id, { name: 'Používateľ' });
    const conversation = cw.openConversation(contactInbox.id);
    const events: TransportEvent[] = [];
    const statuses: TransportStatus[] = [];
    transport = createChatwootCableTransport({
      url: cw.cableUrl,
      clock: systemClock,
      random: () => 0,
      credentials: async () => ({ pubsubToken: contactInbox.pubsubToken, accountId: cw.accountId }),
      createConsumer: async (url) => (await loadActionCable()).createConsumer(url) as unknown as Consumer,
    });
    transport.subscribe({ onEvent: (e) => events.push(e), onStatus: (s) => statuses.push(s) });
    await waitFor(() => transport!.status() === 'connected', 'subscription confirmed', 5000);

    cw.agentReply(conversation.displayId, 'Dobrý deň, ako pomôžem?');
    const msg = await waitFor(() => events.find((e) => e.kind === 'external-message'), 'message.created', 5000);
    expect(msg).toMatchObject({ message: { text: 'Dobrý deň, ako pomôžem?', direction: 'specialist', chatwootConversationId: String(conversation.displayId) } });

    cw.setTyping(conversation.displayId, true);
    await waitFor(() => events.find((e) => e.kind === 'typing' && e.on), 'typing_on', 5000);
    cw.setTyping(conversation.displayId, false);
    await waitFor(() => events.find((e) => e.kind === 'typing' && !e.on), 'typing_off', 5000);

    cw.agentReply(conversation.displayId, 'Súkromná poznámka', { private: true });
    cw.resolve(conversation.displayId);
    await waitFor(() => events.filter((e) => e.kind === 'changed').length >= 2, 'status change', 5000);
    expect(events.filter((e) => e.kind === 'external-message').map((e) => e.kind === 'external-message' && e.message.text)).toEqual(['Dobrý deň, ako pomôžem?']);

    cw.disconnectSockets(true);
    await waitFor(() => statuses.includes('disconnected'), 'disconnect seen', 5000);
    await waitFor(() => transport!.status() === 'connected', 'reconnected by the spec back-off', 5000);
  });
});

describe('Chatwoot feed', () => {
  it('R6.2 subscribes once per contact token the pubsub-token function names, and forwards their events', async () => {
    const a = cw.createContact(cw.inboxes[0]!.id);
    const b = cw.createContact(cw.inboxes[1]!.id);
    const convA = cw.openConversation(a.contactInbox.id);
    const convB = cw.openConversation(b.contactInbox.id);
    const supabase = {
      functions: {
        invoke: async () => ({
          data: { pubsub_token: a.contactInbox.pubsubToken, account_id: cw.accountId, tokens: [a, b].map((x, i) => ({ inbox_id: i, pubsub_token: x.contactInbox.pubsubToken })) },
          error: null,
        }),
      },
    } as unknown as SupabaseClient;
    const events: TransportEvent[] = [];
    transport = createChatwootFeed({
      supabase,
      cableUrl: cw.cableUrl,
      clock: systemClock,
      createConsumer: async (url) => (await loadActionCable()).createConsumer(url) as unknown as Consumer,
    });
    transport.subscribe({ onEvent: (e) => events.push(e), onStatus: () => undefined });
    await waitFor(() => transport!.status() === 'connected', 'connected', 5000);
    // The feed says connected once any one of its subscriptions is; an event sent before the other
    // is confirmed is not streamed to it (as on Chatwoot), so wait for both, not a fixed pause.
    const tokens = [a, b].map((x) => x.contactInbox.pubsubToken);
    await waitFor(() => tokens.every((t) => cw.cableSubscribed(t)), 'both inboxes subscribed', 10_000);
    cw.agentReply(convA.displayId, 'pre A');
    cw.agentReply(convB.displayId, 'pre B');
    await waitFor(() => events.filter((e) => e.kind === 'external-message').length === 2, 'both inboxes', 5000);
  });

  it('R6.2 an account without Chatwoot conversations has nothing to listen to', async () => {
    const supabase = { functions: { invoke: async () => ({ data: { pubsub_token: null, account_id: null, tokens: [] }, error: null }) } } as unknown as SupabaseClient;
    transport = createChatwootFeed({ supabase, cableUrl: cw.cableUrl, clock: systemClock });
    transport.subscribe({ onEvent: () => undefined, onStatus: () => undefined });
    await waitFor(() => transport!.status() === 'idle', 'idle');
  });
});
