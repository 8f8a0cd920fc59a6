// R6.2 with the real @rails/actioncable client against the Chatwoot double's RoomChannel.
import type { Consumer } from '@rails/actioncable';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { systemClock } from '../../sync/clock.ts';
import { createChatwootCableTransport } from '../../sync/transports/chatwoot-cable.ts';
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
