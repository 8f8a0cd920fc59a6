import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { applyRemoteChanges } from '../../../sync/receive/apply.ts';
import { archive } from '../../../sync/commands/archive.ts';
import { markRead } from '../../../sync/commands/mark-read.ts';
import { requestSpecialist } from '../../../sync/commands/request-specialist.ts';
import { sendMessage } from '../../../sync/commands/send-message.ts';
import { startConversation } from '../../../sync/commands/start-conversation.ts';
import { ASSISTANT_SPECIALIST_ID, SPEC_TIMINGS } from '../../../sync/model/constants.ts';
import type { SyncDb } from '../../../sync/db/schema.ts';
import { pickDue, retryDelay, RetrySchedule, type OutboxEntry } from '../../../sync/send/outbox.ts';
import { flushOutbox, type PushDeps } from '../../../sync/send/push.ts';
import { messages } from '../../../sync/queries.ts';
import {
  TEXT_CONVERSATION_COMPLETED,
  TEXT_REQUEST_NO_ACCOUNT,
  TEXT_SEND_FAILED,
  TEXT_START_FAILED,
} from '../../../sync/model/texts.ts';
import { commandContext, freshDb } from './helpers/local-db.ts';
import { FakeServer } from './helpers/fake-server.ts';
import { scopeToAccount } from '../../../sync/session/account-scope.ts';

let db: SyncDb;
let server: FakeServer;
let convId: string;
let now: number;
let pullsRequested: number;
let deps: PushDeps;

beforeEach(async () => {
  ({ db } = await freshDb());
  server = new FakeServer();
  convId = server.addConversation().id;
  await applyRemoteChanges(db, server.page(0, 100), 'user-1', { kind: 'page', cursor: server.seq });
  now = Date.parse('2025-01-01T12:00:00Z');
  pullsRequested = 0;
  deps = {
    db,
    server: server.api(),
    userId: 'user-1',
    now: () => now,
    schedule: new RetrySchedule(),
    timings: SPEC_TIMINGS,
    onPullNeeded: () => pullsRequested++,
  };
});
afterEach(() => db.close());

const ctx = () => commandContext(db, { now: () => now });

describe('R1 pushing the outbox', () => {
  it('R9.8 a send queued in one account waits while the engine acts in another, and its message stays; back in its account it goes out once', async () => {
    const h = (await sendMessage(ctx(), { conversationId: convId, text: 'Z iného účtu' }))!;
    expect((await db.outbox.toArray())[0]?.op).toMatchObject({ kind: 'send', accountId: server.accountId });
    // Impersonation starts: the store is scoped to the other account; the unsent message stays.
    await scopeToAccount(db, 'acc-impersonated');
    expect((await db.messages.get(h.key))?.state).toBe('sending');
    let r = await flushOutbox({ ...deps, accountId: () => 'acc-impersonated' });
    expect(r.pushed).toBe(0);
    expect(server.messages.size).toBe(0); // never sent while acting in another account
    expect(await db.outbox.count()).toBe(1);
    r = await flushOutbox({ ...deps, accountId: () => server.accountId });
    expect(r.pushed).toBe(1);
    expect([...server.messages.values()].filter((m) => m.text === 'Z iného účtu')).toHaveLength(1);
  });

  it('R1.3 a send stays sending on transient errors and is retried with back-off until the server confirms', async () => {
    const h = (await sendMessage(ctx(), { conversationId: convId, text: 'Ahoj' }))!;
    server.fail('sendMessage', 'transient', 2);
    let r = await flushOutbox(deps);
    expect(r).toEqual({ pushed: 0, nextDueAt: now + 1000 });
    expect((await db.messages.get(h.key))?.state).toBe('sending');
    now += 1000;
    r = await flushOutbox(deps);
    expect(r.nextDueAt).toBe(now + 2000);
    now += 2000;
    r = await flushOutbox(deps);
    expect(r).toEqual({ pushed: 1, nextDueAt: null });
    const m = (await db.messages.get(h.key))!;
    expect([m.state, m.origin, m.serverId !== null]).toEqual(['sent', 'server', true]);
    expect(await db.outbox.count()).toBe(0);
  });

  it('R1.3 the retry back-off doubles from 1 s up to 30 s', () => {
    expect([1, 2, 3, 4, 5, 6, 7].map((n) => retryDelay(n, SPEC_TIMINGS))).toEqual([
      1000, 2000, 4000, 8000, 16000, 30000, 30000,
    ]);
  });

  it('R1.4 R9.3 a permanent error marks the send failed with the server message or the spec text, keeping the text', async () => {
    const a = (await sendMessage(ctx(), { conversationId: convId, text: 'A' }))!;
    server.fail('sendMessage', 'permanent', 1, 'Message is too long');
    await flushOutbox(deps);
    expect(await db.messages.get(a.key)).toMatchObject({
      state: 'failed',
      error: 'Message is too long',
      text: 'A',
    });
    // R9.3: the reasons the engine knows are told in Slovak.
    const c = (await sendMessage(ctx(), { conversationId: convId, text: 'C' }))!;
    server.fail('sendMessage', 'permanent', 1, 'Conversation is completed');
    await flushOutbox(deps);
    expect(await db.messages.get(c.key)).toMatchObject({
      state: 'failed',
      error: TEXT_CONVERSATION_COMPLETED,
      text: 'C',
    });
    const b = (await sendMessage(ctx(), { conversationId: convId, text: 'B' }))!;
    server.fail('sendMessage', 'permanent', 1, '');
    await flushOutbox(deps);
    expect(await db.messages.get(b.key)).toMatchObject({ state: 'failed', error: TEXT_SEND_FAILED });
  });

  it('R1.8 sends of one conversation reach the server in typed order even when the first one waits', async () => {
    const other = server.addConversation().id;
    await applyRemoteChanges(db, { conversations: [server.conversations.get(other)!] }, 'user-1');
    await sendMessage(ctx(), { conversationId: convId, text: '1' });
    await sendMessage(ctx(), { conversationId: convId, text: '2' });
    await sendMessage(ctx(), { conversationId: other, text: 'x' });
    server.fail('sendMessage', 'transient', 1);
    await flushOutbox(deps);
    // '1' failed and waits; '2' must not overtake it, the other conversation goes ahead.
    expect([...server.messages.values()].map((m) => m.text)).toEqual(['x']);
    now += 1000;
    await flushOutbox(deps);
    expect([...server.messages.values()].map((m) => m.text)).toEqual(['x', '1', '2']);
  });

  it('R1.8 pickDue keeps queue order and reports when the next entry is due', () => {
    const e = (
      seq: number,
      conversationId: string,
      at: number,
      kind: 'send' | 'read' = 'send',
    ): OutboxEntry => {
      const entry: OutboxEntry = {
        seq,
        key: `${seq}`,
        op:
          kind === 'send'
            ? { kind, conversationId, correlationId: `${seq}`, messageKey: `${seq}`, text: '', payload: null }
            : { kind, conversationId, messageId: 'm' },
        rev: 0,
        attempts: 0,
        createdAt: 0,
        lastError: null,
      };
      schedule.set(entry, at);
      return entry;
    };
    const schedule = new RetrySchedule();
    const entries = [e(3, 'a', 0), e(1, 'a', 50), e(2, 'b', 0), e(4, 'a', 0, 'read')];
    const plan = pickDue(entries, 10, schedule);
    expect(plan.due.map((x) => x.seq)).toEqual([2, 4]);
    expect(plan.nextDueAt).toBe(50);
  });

  it('R1.9 a response for an older value does not remove the entry that replaced it', async () => {
    await archive(ctx(), convId);
    const api = server.api();
    deps.server = {
      ...api,
      setArchived: async (id, at) => {
        // The user unarchives while the archive request is on the wire.
        await commandContext(db, { now: () => now }).db.transaction(
          'rw',
          db.syncTables,
          async () => undefined,
        );
        const { unarchive } = await import('../../../sync/commands/archive.ts');
        await unarchive(ctx(), id);
        return api.setArchived(id, at);
      },
    };
    await flushOutbox(deps);
    // The unarchive went out in the next round: the server ends unarchived, like the screen.
    expect(server.conversations.get(convId)?.archived_at).toBeNull();
    const c = (await db.conversations.get(convId))!;
    expect([c.archived, c.pendingArchive]).toEqual([0, 0]);
    expect(await db.outbox.count()).toBe(0);
  });

  it('R2.2 an archive pushed while another device changes it again ends at the server\'s newer value, not the pushed one', async () => {
    await archive(ctx(), convId);
    const api = server.api();
    deps.server = {
      ...api,
      setArchived: async (id, at) => {
        const row = await api.setArchived(id, at);
        // Another device unarchives right after; its realtime record reaches this device before the reply.
        server.setArchivedNow(id, null);
        await applyRemoteChanges(db, { conversations: [server.conversations.get(id)!] }, 'user-1');
        expect((await db.conversations.get(id))?.archived).toBe(1); // still queued here: the local choice shows
        return row;
      },
    };
    await flushOutbox(deps);
    expect(server.conversations.get(convId)?.archived_at).toBeNull();
    const c = (await db.conversations.get(convId))!;
    expect([c.archived, c.archivedAt, c.pendingArchive]).toEqual([0, null, 0]);
    expect(await db.outbox.count()).toBe(0);
  });

  it('R1.6 a permanently refused archive is reverted silently; a transient failure keeps it', async () => {
    await archive(ctx(), convId);
    server.fail('setArchived', 'transient');
    await flushOutbox(deps);
    expect((await db.conversations.get(convId))?.archived).toBe(1);
    now += 1000;
    server.fail('setArchived', 'permanent', 1, 'Conversation not found', 404);
    await flushOutbox(deps);
    const c = (await db.conversations.get(convId))!;
    expect([c.archived, c.pendingArchive, c.archivedAt]).toEqual([0, 0, null]);
    expect(await db.outbox.count()).toBe(0);
  });

  it('R1.7 only the newest read position is pushed; a refused one goes back to the server position', async () => {
    const [m1, m2] = [server.addMessage(convId), server.addMessage(convId)];
    await applyRemoteChanges(db, { messages: [m1, m2] }, 'user-1');
    await markRead(ctx(), convId, m1.id);
    await markRead(ctx(), convId, m2.id);
    await flushOutbox(deps);
    expect(server.calls.filter((c) => c.method === 'markRead').map((c) => c.args[1])).toEqual([m2.id]);
    expect((await db.readCursors.get(convId))?.pending).toBe(0);
    const m3 = server.addMessage(convId);
    await applyRemoteChanges(db, { messages: [m3] }, 'user-1');
    await markRead(ctx(), convId, m3.id);
    server.fail('markRead', 'permanent');
    await flushOutbox(deps);
    expect((await db.readCursors.get(convId))?.messageId).toBe(m2.id);
    expect((await db.conversations.get(convId))?.unreadCount).toBe(1);
  });

  it('R1.10 startConversation settles with the server answer, or the spec text when refused', async () => {
    const ok = await startConversation(ctx(), { specialistId: 'sp-2' });
    await flushOutbox(deps);
    await expect(ok.done).resolves.toMatchObject({ created: true });
    expect(pullsRequested).toBe(1);
    const again = await startConversation(ctx(), { specialistId: 'sp-2' });
    await flushOutbox(deps);
    await expect(again.done).resolves.toMatchObject({ created: false });
    const refused = await startConversation(ctx(), { specialistId: 'sp-9' });
    server.fail('startConversation', 'permanent', 1, 'Specialist not available', 403);
    await flushOutbox(deps);
    await expect(refused.done).rejects.toThrow(TEXT_START_FAILED);
  });

  it('R1.10 request-specialist starts the assistant conversation first, then sends its text', async () => {
    await expect(
      requestSpecialist(commandContext(db, { accountId: null }), { name: 'Peter' }),
    ).rejects.toThrow(TEXT_REQUEST_NO_ACCOUNT);
    const req = await requestSpecialist(ctx(), { name: 'Peter Človek' });
    expect(req.conversationId).toBeNull();
    await flushOutbox(deps);
    const { conversationId } = await req.done;
    expect(server.conversations.get(conversationId)?.specialist_id).toBe(ASSISTANT_SPECIALIST_ID);
    expect([...server.messages.values()].map((m) => m.text)).toEqual([
      'Mám záujem o vytvorenie projektu s Peter Človek',
    ]);
    expect((await messages(db, conversationId)).map((m) => m.state)).toEqual(['sent']);
    // With the conversation stored, a second request writes its message at once.
    await applyRemoteChanges(db, server.page(0, 100), 'user-1');
    const second = await requestSpecialist(ctx(), { name: 'Eva' });
    expect(second.conversationId).toBe(conversationId);
    expect((await messages(db, conversationId)).map((m) => m.state)).toEqual(['sent', 'sending']);
  });
});
