// R7.5 with R13.1: the user asks again while (or right after) the AI's previous answer streams. That
// answer's later writes (its next pieces, its final version clearing `streaming`) reach the device after
// the new question started typing; they are not the reply to it and must leave its typing dots on.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { sendMessage } from '../../../sync/commands/send-message.ts';
import type { SyncDb } from '../../../sync/db/schema.ts';
import type { RemoteMessage } from '../../../sync/model/remote-types.ts';
import { applyRemoteChanges } from '../../../sync/receive/apply.ts';
import { handleTransportEvent } from '../../../sync/receive/events.ts';
import { typing } from '../../../sync/queries.ts';
import { FakeServer } from './helpers/fake-server.ts';
import { commandContext, freshDb } from './helpers/local-db.ts';

let db: SyncDb;
let server: FakeServer;
let convId: string;
const T = Date.parse('2025-01-01T12:00:00Z');

beforeEach(async () => {
  ({ db } = await freshDb());
  server = new FakeServer();
  convId = server.addConversation().id; // an AI specialist's
  await applyRemoteChanges(db, server.page(0, 100), 'user-1');
});
afterEach(() => db.close());

/** The worker's next write of a streamed reply (R13.1): the whole text so far, the account's next number. */
function nextVersion(m: RemoteMessage, text: string, streaming: boolean): RemoteMessage {
  const v = { ...m, text, payload: streaming ? { streaming: true } : null, change_seq: ++server.seq };
  server.messages.set(m.id, v);
  return v;
}
const event = (op: 'INSERT' | 'UPDATE', record: RemoteMessage) => handleTransportEvent(db, 'user-1', { kind: 'row', table: 'messages', op, record, oldRecord: {} }, T);
const ask = (text: string) => sendMessage(commandContext(db), { conversationId: convId, text });

describe('R7.5 typing and a streamed reply', () => {
  it('R7.5 R13.1 a later version of a stored reply (its next piece, its final write) leaves the next question’s typing on; the new reply clears it', async () => {
    await ask('Prvá otázka');
    expect(await typing(db, convId)).toBeDefined();
    const first = server.addMessage(convId, { text: 'Demo', payload: { streaming: true } });
    expect((await event('INSERT', first)).specialistReplies).toEqual([convId]);
    expect(await typing(db, convId)).toBeUndefined();

    await ask('Druhá otázka');
    expect(await typing(db, convId)).toBeDefined();
    // The first answer's next piece and its final version, by realtime and by a pull's page.
    expect((await event('UPDATE', nextVersion(first, 'Demo odpoveď', true))).specialistReplies).toEqual([]);
    expect(await typing(db, convId)).toBeDefined();
    const last = nextVersion(first, 'Demo odpoveď na prvú otázku.', false);
    await applyRemoteChanges(db, { messages: [last] }, 'user-1');
    expect(await typing(db, convId)).toBeDefined();
    expect((await event('UPDATE', last)).specialistReplies).toEqual([]);
    expect(await typing(db, convId)).toBeDefined();

    // The reply to the second question: its first write clears it.
    expect((await event('INSERT', server.addMessage(convId, { text: 'Druhá', payload: { streaming: true } }))).specialistReplies).toEqual([convId]);
    expect(await typing(db, convId)).toBeUndefined();
  });

  it('R7.5 a reply first seen in its final version (the device missed the earlier ones) clears typing', async () => {
    await ask('Otázka');
    const reply = server.addMessage(convId, { text: 'Demo', payload: { streaming: true } });
    const final = nextVersion(reply, 'Demo odpoveď.', false);
    expect((await event('UPDATE', final)).specialistReplies).toEqual([convId]);
    expect(await typing(db, convId)).toBeUndefined();
  });
});
