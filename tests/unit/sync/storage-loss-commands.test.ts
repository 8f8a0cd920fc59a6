// R17.6 (issue 35): every command that writes is safe across a lost IndexedDB connection, not only
// sendMessage (R17.4). The connection goes while the command's transaction writes (WebKit's 'Connection
// to Indexed Database server lost', the kit's `loseConnection`); the command's effect is stored once,
// and once the network is back the server gets it once.
import { IDBFactory, IDBKeyRange } from 'fake-indexeddb';
import type { Table } from 'dexie';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ASSISTANT_SPECIALIST_ID } from '../../../sync/model/constants.ts';
import { createSyncEngine, type SyncEngine } from '../../../sync/engine.ts';
import { manualNetwork, type ManualNetwork } from '../../../sync/session/network.ts';
import { FaultyIdb, loseConnection } from '../../../sync/testing/idb-faults.ts';
import { FakeServer } from './helpers/fake-server.ts';
import { FAST_TIMINGS, waitFor } from './helpers/wait.ts';

let server: FakeServer;
let net: ManualNetwork;
let e: SyncEngine;

beforeEach(async () => {
  server = new FakeServer();
  net = manualNetwork(true);
  e = createSyncEngine({
    userId: 'user-1',
    accountId: server.accountId,
    server: server.api(),
    idb: { indexedDB: new FaultyIdb(new IDBFactory()).indexedDB, IDBKeyRange },
    network: net,
    timings: FAST_TIMINGS,
    transports: { realtime: null },
    locks: null,
    channels: null,
    backgroundSync: null,
  });
});
afterEach(async () => {
  await e.stop({ abrupt: true });
});

/** Loses the connection the first time `table` is written by `hook`; returns how many writes it saw. */
function cutOnce(table: Table, hook: 'creating' | 'updating' | 'deleting'): { cuts: number; end: () => void } {
  const state = { cuts: 0, end: () => table.hook(hook as 'creating').unsubscribe(cut) };
  const cut = () => {
    if (state.cuts++ === 0) loseConnection(e.db.backendDB());
  };
  table.hook(hook as 'creating', cut);
  return state;
}

const calls = (method: string) => server.calls.filter((c) => c.method === method).length;
/** The conversation-starting requests the server got, in order. */
const starts = () => server.calls.map((c) => c.method).filter((m) => m === 'startConversation' || m === 'ensureFirstConversation');

async function startOffline(): Promise<void> {
  await e.start();
  await waitFor(() => e.status().loaded, 'loaded');
  net.set(false);
}

async function drain(): Promise<void> {
  net.set(true);
  await waitFor(async () => (await e.db.outbox.count()) === 0, 'outbox flushed');
}

describe('R17.6 every writing command across a lost IndexedDB connection', () => {
  it('R17.6 archive: stored once, pushed once', async () => {
    const conv = server.addConversation();
    await startOffline();
    const cut = cutOnce(e.db.outbox, 'creating');
    expect(await e.commands.archive(conv.id)).toBe(true);
    cut.end();
    expect(cut.cuts).toBeGreaterThan(0);
    expect((await e.db.conversations.get(conv.id))?.archived).toBe(1);
    expect(await e.db.outbox.count()).toBe(1);
    await drain();
    expect(calls('setArchived')).toBe(1);
    expect(server.conversations.get(conv.id)?.archived_at).not.toBeNull();
  });

  it('R17.6 unarchive: stored once, pushed once', async () => {
    const conv = server.addConversation({ archived_at: '2025-01-01T09:00:00Z' });
    await startOffline();
    await waitFor(async () => (await e.db.conversations.get(conv.id))?.archived === 1, 'archived pulled');
    const cut = cutOnce(e.db.outbox, 'creating');
    expect(await e.commands.unarchive(conv.id)).toBe(true);
    cut.end();
    expect(cut.cuts).toBeGreaterThan(0);
    expect((await e.db.conversations.get(conv.id))?.archived).toBe(0);
    expect(await e.db.outbox.count()).toBe(1);
    await drain();
    expect(calls('setArchived')).toBe(1);
    expect(server.conversations.get(conv.id)?.archived_at).toBeNull();
  });

  it('R17.6 markRead: the cursor moves once, the read goes out once', async () => {
    const conv = server.addConversation();
    const msg = server.addMessage(conv.id, { text: 'Prečítaj ma' });
    await startOffline();
    await waitFor(async () => (await e.db.messages.count()) === 1, 'message pulled');
    const cut = cutOnce(e.db.outbox, 'creating');
    expect(await e.commands.markRead(conv.id, msg.id)).toBe(true);
    cut.end();
    expect(cut.cuts).toBeGreaterThan(0);
    expect((await e.db.readCursors.get(conv.id))?.messageId).toBe(msg.id);
    expect(await e.db.outbox.count()).toBe(1);
    await drain();
    expect(calls('markRead')).toBe(1);
  });

  it('R17.6 saveDraft: the typed draft is kept', async () => {
    const conv = server.addConversation();
    await startOffline();
    const cut = cutOnce(e.db.drafts, 'creating');
    await e.commands.saveDraft(conv.id, 'Rozpísaná správa');
    cut.end();
    expect(cut.cuts).toBeGreaterThan(0);
    expect((await e.db.drafts.get(conv.id))?.text).toBe('Rozpísaná správa');
  });

  it('R17.6 startConversation: one request, under the id the caller holds', async () => {
    server.addConversation(); // the account has one, so the engine asks for no first conversation itself (R5.6)
    await startOffline();
    const cut = cutOnce(e.db.outbox, 'creating');
    const pending = await e.commands.startConversation({ specialistId: server.specialists[1]!.id });
    cut.end();
    expect(cut.cuts).toBeGreaterThan(0);
    expect((await e.db.outbox.toArray()).map((x) => x.key)).toEqual([`start:${pending.requestId}`]);
    await drain();
    await expect(pending.done).resolves.toMatchObject({ conversationId: expect.any(String) });
    expect(starts()).toEqual(['startConversation']);
  });

  it('R17.6 ensureFirstConversation: one request, under the id the caller holds', async () => {
    server.addConversation();
    await startOffline();
    const cut = cutOnce(e.db.outbox, 'creating');
    const pending = await e.commands.ensureFirstConversation();
    cut.end();
    expect(cut.cuts).toBeGreaterThan(0);
    expect((await e.db.outbox.toArray()).map((x) => x.key)).toEqual([`ensure-first:${pending.requestId}`]);
    await drain();
    await expect(pending.done).resolves.toMatchObject({ conversationId: expect.any(String) });
    expect(starts()).toEqual(['ensureFirstConversation']);
  });

  it('R17.6 retryMessage: the failed message is queued again once and stored once on the server', async () => {
    const conv = server.addConversation();
    await e.start();
    await waitFor(() => e.status().loaded, 'loaded');
    server.fail('sendMessage', 'permanent');
    const h = await e.commands.sendMessage({ conversationId: conv.id, text: 'Skúsim znova' });
    await waitFor(async () => (await e.db.messages.get(h!.key))?.state === 'failed', 'send refused');
    net.set(false);
    const cut = cutOnce(e.db.messages, 'creating');
    expect(await e.commands.retryMessage(h!.key)).toBe(true);
    cut.end();
    expect(cut.cuts).toBeGreaterThan(0);
    expect((await e.db.messages.filter((m) => m.text === 'Skúsim znova').toArray()).map((m) => m.state)).toEqual(['sending']);
    await drain();
    expect([...server.messages.values()].filter((m) => m.text === 'Skúsim znova')).toHaveLength(1);
  });

  it('R17.6 requestSpecialist: the request is written once and sent once', async () => {
    const assistant = server.addConversation({ specialist_id: ASSISTANT_SPECIALIST_ID });
    await startOffline();
    await waitFor(async () => (await e.db.conversations.get(assistant.id)) !== undefined, 'assistant conversation pulled');
    const cut = cutOnce(e.db.messages, 'creating');
    const pending = await e.commands.requestSpecialist({ name: 'Jana' });
    cut.end();
    expect(cut.cuts).toBeGreaterThan(0);
    expect(pending.conversationId).toBe(assistant.id);
    const mine = () => e.db.messages.filter((m) => m.conversationId === assistant.id && m.direction === 'user').toArray();
    expect(await mine()).toHaveLength(1);
    await drain();
    expect([...server.messages.values()].filter((m) => m.conversation_id === assistant.id && m.direction === 'user')).toHaveLength(1);
  });

  it('R17.6 sendWithAttachments: the message and its file are stored once, under the id the caller holds', async () => {
    const conv = server.addConversation();
    await startOffline();
    const cut = cutOnce(e.db.messages, 'creating');
    const h = await e.commands.sendWithAttachments({
      conversationId: conv.id,
      text: 'Posielam zmluvu',
      files: [{ blob: new Blob(['%PDF-1.4 zmluva']), name: 'zmluva.pdf', type: 'application/pdf' }],
    });
    cut.end();
    expect(cut.cuts).toBeGreaterThan(0);
    expect((await e.db.messages.filter((m) => m.text === 'Posielam zmluvu').toArray()).map((m) => m.key)).toEqual([h.key]);
    expect(await e.db.attachmentBlobs.where('messageKey').equals(h.key).count()).toBe(1);
    expect(await e.db.attachmentJobs.count()).toBe(1);
  });
});
