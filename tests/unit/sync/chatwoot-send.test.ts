import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { applyRemoteChanges } from '../../../sync/receive/apply.ts';
import { sendMessage } from '../../../sync/commands/send-message.ts';
import { SPEC_TIMINGS } from '../../../sync/model/constants.ts';
import type { SyncDb } from '../../../sync/db/schema.ts';
import { flushOutbox } from '../../../sync/send/push.ts';
import type { SendInput } from '../../../sync/server/api.ts';
import { commandContext, freshDb } from './helpers/local-db.ts';
import { FakeServer } from './helpers/fake-server.ts';

let db: SyncDb;
let server: FakeServer;
afterEach(() => db.close());
beforeEach(async () => {
  ({ db } = await freshDb());
  server = new FakeServer();
});

describe('R6 transports', () => {
  it('R6.4 a send into a Chatwoot-carried conversation is marked for admin-chatwoot-send; others go direct', async () => {
    const chatwoot = server.addConversation({ chatwoot_conversation_id: '42' });
    const direct = server.addConversation();
    await applyRemoteChanges(db, server.page(0, 100), 'user-1', { kind: 'page', cursor: server.seq });
    const seen: SendInput[] = [];
    const api = server.api();
    const send = api.sendMessage.bind(api);
    api.sendMessage = (input) => {
      seen.push(input);
      return send(input);
    };
    const now = Date.parse('2025-01-01T12:00:00Z');
    const ctx = commandContext(db, { now: () => now });
    await sendMessage(ctx, { conversationId: chatwoot.id, text: 'Cez Chatwoot' });
    await sendMessage(ctx, { conversationId: direct.id, text: 'Priamo' });
    await flushOutbox({ db, server: api, userId: 'user-1', now: () => now, timings: SPEC_TIMINGS, onPullNeeded: () => undefined });
    expect(seen.map((s) => [s.text, s.viaChatwoot])).toEqual([
      ['Cez Chatwoot', true],
      ['Priamo', false],
    ]);
  });
});
