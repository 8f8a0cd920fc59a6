import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { applyRemoteChanges, sweepExpiredCopies } from '../../../sync/receive/apply.ts';
import { sendMessage } from '../../../sync/commands/send-message.ts';
import type { SyncDb } from '../../../sync/db/schema.ts';
import { handleTransportEvent } from '../../../sync/receive/events.ts';
import { messages, typing } from '../../../sync/queries.ts';
import type { ExternalMessage } from '../../../sync/transports/transport.ts';
import { commandContext, freshDb } from './helpers/local-db.ts';
import { FakeServer } from './helpers/fake-server.ts';

let db: SyncDb;
let server: FakeServer;
let convId: string;
const T = Date.parse('2025-01-01T12:00:00Z');

const ext = (p: Partial<ExternalMessage> = {}): ExternalMessage => ({
  chatwootMessageId: '501',
  chatwootConversationId: '77',
  text: 'Dobrý deň z Chatwootu',
  direction: 'specialist',
  correlationId: null,
  createdAtMs: T,
  type: 'text',
  ...p,
});

beforeEach(async () => {
  ({ db } = await freshDb());
  server = new FakeServer();
  convId = server.addConversation({ chatwoot_conversation_id: '77' }).id;
  await applyRemoteChanges(db, server.page(0, 100), 'user-1');
});
afterEach(() => db.close());

describe('Chatwoot events in the store', () => {
  it('R3.3 a socket message shows at once as a provisional copy; its database row replaces it', async () => {
    const r = await handleTransportEvent(db, 'user-1', { kind: 'external-message', message: ext() }, T);
    expect(r.needPull).toBe(true);
    expect((await messages(db, convId)).map((m) => [m.key, m.origin])).toEqual([['x:501', 'external']]);
    // The same event again adds nothing.
    await handleTransportEvent(db, 'user-1', { kind: 'external-message', message: ext() }, T);
    expect(await db.messages.count()).toBe(1);
    const row = server.addMessage(convId, { text: 'Dobrý deň z Chatwootu', chatwoot_message_id: '501', source: 'chatwoot' });
    await applyRemoteChanges(db, { messages: [row] }, 'user-1');
    expect((await messages(db, convId)).map((m) => [m.serverId, m.origin])).toEqual([[row.id, 'server']]);
    // And a late socket event after the row changes nothing.
    await handleTransportEvent(db, 'user-1', { kind: 'external-message', message: ext() }, T);
    expect(await db.messages.count()).toBe(1);
  });

  it('R3.3 our own message echoed by Chatwoot is matched by its correlation id, not shown twice', async () => {
    const h = (await sendMessage(commandContext(db), { conversationId: convId, text: 'Moja otázka' }))!;
    await handleTransportEvent(db, 'user-1', { kind: 'external-message', message: ext({ direction: 'user', correlationId: h.correlationId, text: 'Moja otázka' }) }, T);
    const list = await messages(db, convId);
    expect(list).toHaveLength(1);
    expect(list[0]?.chatwootMessageId).toBe('501');
  });

  it('R3.5 an unmatched provisional copy goes after 30 s', async () => {
    await handleTransportEvent(db, 'user-1', { kind: 'external-message', message: ext() }, T);
    expect(await sweepExpiredCopies(db, T + 29_000)).toBe(0);
    expect(await sweepExpiredCopies(db, T + 31_000)).toBe(1);
    expect(await db.messages.count()).toBe(0);
  });

  it('R7.5 typing_on and typing_off from the socket set and clear the indicator; a specialist message clears it', async () => {
    await handleTransportEvent(db, 'user-1', { kind: 'typing', chatwootConversationId: '77', on: true }, T);
    expect((await typing(db, convId))?.startedAt).toBe(T);
    await handleTransportEvent(db, 'user-1', { kind: 'typing', chatwootConversationId: '77', on: false }, T);
    expect(await typing(db, convId)).toBeUndefined();
    await handleTransportEvent(db, 'user-1', { kind: 'typing', chatwootConversationId: '77', on: true }, T);
    const r = await handleTransportEvent(db, 'user-1', { kind: 'row', table: 'messages', op: 'INSERT', record: server.addMessage(convId), oldRecord: {} }, T);
    expect(r.specialistReplies).toEqual([convId]);
    expect(await typing(db, convId)).toBeUndefined();
  });

  it('R5.3 an event for an unknown Chatwoot conversation asks for a pull', async () => {
    const r = await handleTransportEvent(db, 'user-1', { kind: 'external-message', message: ext({ chatwootConversationId: '999' }) }, T);
    expect(r).toMatchObject({ needPull: true, changed: false });
  });
});

describe('a conversation row and the summary', () => {
  it('R2.7 the row a send brings for a stored conversation keeps its summary without reading its messages', async () => {
    const { IDBIndex } = await import('fake-indexeddb');
    const m = server.addMessage(convId, { text: 'Nová odpoveď' });
    await applyRemoteChanges(db, { messages: [m] }, 'user-1', { kind: 'event', changeSeq: m.change_seq });
    const before = await db.conversations.get(convId);
    expect(before?.lastMessage?.text).toBe('Nová odpoveď');
    expect(before?.unreadCount).toBe(1);
    const row = server.conversations.get(convId)!;
    const counts = vi.spyOn(IDBIndex.prototype, 'count');
    try {
      await applyRemoteChanges(db, { conversations: [row] }, 'user-1', { kind: 'event', changeSeq: row.change_seq });
      expect(counts).not.toHaveBeenCalled();
    } finally {
      counts.mockRestore();
    }
    const after = await db.conversations.get(convId);
    expect(after?.changeSeq).toBe(row.change_seq);
    expect(after?.lastMessageAt).not.toBeNull();
    expect({ last: after?.lastMessage, unread: after?.unreadCount, sortAt: after?.sortAt }).toEqual({ last: before?.lastMessage, unread: 1, sortAt: before?.sortAt });
  });

  it('R2.7 a conversation whose messages arrived before it gets its summary from them', async () => {
    const late = server.addConversation();
    const m = server.addMessage(late.id, { text: 'Prišla skôr' });
    await applyRemoteChanges(db, { messages: [m] }, 'user-1');
    await applyRemoteChanges(db, { conversations: [server.conversations.get(late.id)!] }, 'user-1');
    const c = await db.conversations.get(late.id);
    expect(c?.lastMessage?.text).toBe('Prišla skôr');
    expect(c?.unreadCount).toBe(1);
  });

  it('R18.4 a feed broadcast asks for a pull only above the cursor of its own account', async () => {
    await db.meta.put({ key: 'feed', accountId: 'acc-1', cursor: 7, pulledAt: null });
    const feed = (accountId: string, changeSeq: number) => handleTransportEvent(db, 'u1', { kind: 'feed', accountId, changeSeq }, T);
    expect((await feed('acc-1', 7)).needPull).toBe(false);
    expect((await feed('acc-1', 3)).needPull).toBe(false);
    expect((await feed('acc-1', 8)).needPull).toBe(true);
    expect((await feed('acc-2', 1)).needPull).toBe(true); // not the feed's account: the pull decides
  });
});
