import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { applyRemoteChanges } from '../../../sync/receive/apply.ts';
import { archive, unarchive } from '../../../sync/commands/archive.ts';
import { markRead } from '../../../sync/commands/mark-read.ts';
import { retryMessage } from '../../../sync/commands/retry-message.ts';
import { sendMessage } from '../../../sync/commands/send-message.ts';
import type { SyncDb } from '../../../sync/db/schema.ts';
import { messages } from '../../../sync/queries.ts';
import { commandContext, freshDb } from './helpers/local-db.ts';
import { FakeServer } from './helpers/fake-server.ts';

let db: SyncDb;
let server: FakeServer;
let convId: string;

beforeEach(async () => {
  ({ db } = await freshDb());
  server = new FakeServer();
  const c = server.addConversation();
  convId = c.id;
  await applyRemoteChanges(db, server.page(0, 100), 'user-1');
  await applyRemoteChanges(db, { conversations: server.page(0, 100).conversations }, 'user-1');
});
afterEach(() => db.close());

describe('R1 commands', () => {
  it('R1.1 a command writes its change and its outbox entry in one transaction, before any network', async () => {
    const ctx = commandContext(db);
    // A failing transaction must leave neither half: make the outbox write fail and check the message is absent too.
    const add = db.outbox.add.bind(db.outbox);
    db.outbox.add = () => {
      throw new Error('disk full');
    };
    await expect(sendMessage(ctx, { conversationId: convId, text: 'Ahoj' })).rejects.toThrow('disk full');
    expect(await db.messages.count()).toBe(0);
    db.outbox.add = add;
    const h = await sendMessage(ctx, { conversationId: convId, text: 'Ahoj' });
    const seenInside = await db.outbox.count();
    expect(h).not.toBeNull();
    expect(seenInside).toBe(1);
    expect(ctx.notified).toBe(1);
    expect(server.calls).toEqual([]);
  });

  it('R1.2 a typed message is stored as sending before sendMessage returns; blank is ignored; text is trimmed', async () => {
    const ctx = commandContext(db);
    expect(await sendMessage(ctx, { conversationId: convId, text: '   \n ' })).toBeNull();
    const h = await sendMessage(ctx, { conversationId: convId, text: '  Dobrý deň \n' });
    const [m] = await messages(db, convId);
    expect(m).toMatchObject({ key: h!.key, text: 'Dobrý deň', state: 'sending', origin: 'optimistic', senderUserId: 'user-1', direction: 'user' });
    const [entry] = await db.outbox.toArray();
    expect(entry?.op).toMatchObject({ kind: 'send', text: 'Dobrý deň', correlationId: h!.correlationId });
    expect((await db.conversations.get(convId))?.lastMessage?.text).toBe('Dobrý deň');
  });

  it('R1.2 a caller-chosen correlation id gives the stored copy a key known before the write returns', async () => {
    const ctx = commandContext(db);
    const id = '6F9619FF-8B86-4011-B42D-00C04FC964FF';
    const h = await sendMessage(ctx, { conversationId: convId, text: 'Ahoj', correlationId: id });
    expect(h).toEqual({ key: `c:${id.toLowerCase()}`, correlationId: id.toLowerCase() });
    expect((await db.outbox.toArray())[0]?.op).toMatchObject({ kind: 'send', correlationId: id.toLowerCase() });
    await expect(sendMessage(ctx, { conversationId: convId, text: 'Ahoj', correlationId: 'nie-uuid' })).rejects.toThrow('UUID');
    expect(await db.messages.count()).toBe(1);
  });

  it('R1.2 a completed conversation takes no new message', async () => {
    const c = (await db.conversations.get(convId))!;
    await db.conversations.put({ ...c, status: 'completed' });
    expect(await sendMessage(commandContext(db), { conversationId: convId, text: 'Ahoj' })).toBeNull();
    expect(await db.messages.count()).toBe(0);
  });

  it('R1.2 messages typed in the same millisecond keep their typed order', async () => {
    const ctx = commandContext(db);
    for (const t of ['1', '2', '3', '4']) await sendMessage(ctx, { conversationId: convId, text: t });
    expect((await messages(db, convId)).map((m) => m.text)).toEqual(['1', '2', '3', '4']);
  });

  it('R1.5 retry removes the failed copy and sends its text again at the end, with the same correlation id', async () => {
    const ctx = commandContext(db, { now: () => Date.parse('2025-01-01T12:00:00Z') });
    const h = (await sendMessage(ctx, { conversationId: convId, text: 'Prvá' }))!;
    await db.messages.update(h.key, { state: 'failed', error: 'refused' });
    await db.outbox.clear();
    const later = commandContext(db, { now: () => Date.parse('2025-01-01T12:05:00Z') });
    await sendMessage(later, { conversationId: convId, text: 'Druhá' });
    expect(await retryMessage(later, 'nope')).toBe(false);
    expect(await retryMessage(later, h.key)).toBe(true);
    const list = await messages(db, convId);
    expect(list.map((m) => [m.text, m.state])).toEqual([
      ['Druhá', 'sending'],
      ['Prvá', 'sending'],
    ]);
    expect(list[1]?.error).toBeNull();
    expect((await db.outbox.toArray()).map((e) => e.op.kind === 'send' && e.op.correlationId)).toContain(h.correlationId);
    expect(await retryMessage(later, h.key)).toBe(false);
  });

  it('R1.6 archive and unarchive apply at once and coalesce into one queued entry', async () => {
    const ctx = commandContext(db);
    expect(await archive(ctx, convId)).toBe(true);
    expect((await db.conversations.get(convId))?.archived).toBe(1);
    expect(await archive(ctx, convId)).toBe(false);
    expect(await unarchive(ctx, convId)).toBe(true);
    const c = (await db.conversations.get(convId))!;
    expect([c.archived, c.archivedAt, c.pendingArchive]).toEqual([0, null, 1]);
    const entries = await db.outbox.toArray();
    expect(entries).toHaveLength(1);
    expect(entries[0]).toMatchObject({ rev: 1, op: { kind: 'archive', archivedAt: null } });
  });

  it('R1.7 read cursors coalesce: one entry per conversation with the newest message, never backwards', async () => {
    const m1 = server.addMessage(convId);
    const m2 = server.addMessage(convId);
    await applyRemoteChanges(db, { messages: [m1, m2] }, 'user-1');
    expect((await db.conversations.get(convId))?.unreadCount).toBe(2);
    const ctx = commandContext(db);
    expect(await markRead(ctx, convId, m1.id)).toBe(true);
    expect((await db.conversations.get(convId))?.unreadCount).toBe(1);
    expect(await markRead(ctx, convId, m2.id)).toBe(true);
    expect(await markRead(ctx, convId, m1.id)).toBe(false);
    const entries = await db.outbox.toArray();
    expect(entries).toHaveLength(1);
    expect(entries[0]?.op).toEqual({ kind: 'read', conversationId: convId, messageId: m2.id });
    expect((await db.conversations.get(convId))?.unreadCount).toBe(0);
  });

  it("R1.7 a move past only user messages is not made; a counted message arriving late before them is unread here as on the server, and the next read passes and pushes it", async () => {
    const ctx = commandContext(db);
    const s1 = server.addMessage(convId);
    await applyRemoteChanges(db, { messages: [s1] }, 'user-1');
    expect(await markRead(ctx, convId, s1.id)).toBe(true);
    // The server took s1 (its reply, as push.ts stores it): nothing is waiting any more.
    await db.outbox.clear();
    const taken = { user_id: 'user-1', conversation_id: convId, account_id: s1.account_id, last_read_message_id: s1.id, last_read_at: s1.created_at, updated_at: s1.created_at, change_seq: 1_000_000 };
    await applyRemoteChanges(db, { readCursors: [taken] }, 'user-1');
    expect((await db.readCursors.get(convId))?.pending).toBe(0);
    // The seed-150 order: a specialist reply placed before the user's own message reaches the device after it.
    const late = server.addMessage(convId, { direction: 'specialist', source: 'chatwoot' });
    const own = server.addMessage(convId, { direction: 'user', source: 'app' });
    const colleague = server.addMessage(convId, { direction: 'user', source: 'app' });
    await applyRemoteChanges(db, { messages: [own, colleague] }, 'user-1');
    expect(await markRead(ctx, convId, own.id)).toBe(false);
    expect(await markRead(ctx, convId, colleague.id)).toBe(false);
    expect(await db.outbox.count()).toBe(0);
    expect((await db.readCursors.get(convId))?.messageId).toBe(s1.id);
    await applyRemoteChanges(db, { messages: [late] }, 'user-1');
    // The server's cursor is s1 too: both count `late` unread.
    expect((await db.conversations.get(convId))?.unreadCount).toBe(1);
    expect(await markRead(ctx, convId, colleague.id)).toBe(true);
    expect((await db.outbox.toArray()).map((e) => e.op)).toEqual([{ kind: 'read', conversationId: convId, messageId: colleague.id }]);
    expect((await db.conversations.get(convId))?.unreadCount).toBe(0);
    expect(await markRead(ctx, convId, own.id)).toBe(false); // still never backwards
    await db.outbox.clear();
    for (const direction of ['ai', 'system'] as const) {
      const m = server.addMessage(convId, { direction });
      const after = server.addMessage(convId, { direction: 'user', source: 'app' });
      await applyRemoteChanges(db, { messages: [m, after] }, 'user-1');
      // The move lands on a user message but passes `m`: the server notifies it.
      expect(await markRead(ctx, convId, after.id)).toBe(true);
      expect((await db.outbox.toArray()).map((e) => e.op)).toEqual([{ kind: 'read', conversationId: convId, messageId: after.id }]);
      await db.outbox.clear();
    }
    // A read already waiting to go out takes a later position even when that passes only user messages.
    const s2 = server.addMessage(convId);
    const u2 = server.addMessage(convId, { direction: 'user', source: 'app' });
    await applyRemoteChanges(db, { messages: [s2, u2] }, 'user-1');
    expect(await markRead(ctx, convId, s2.id)).toBe(true);
    expect(await markRead(ctx, convId, u2.id)).toBe(true);
    expect((await db.outbox.toArray()).map((e) => e.op)).toEqual([{ kind: 'read', conversationId: convId, messageId: u2.id }]);
  });
});
