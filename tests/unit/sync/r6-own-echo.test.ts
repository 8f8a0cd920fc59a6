// R6.6 on the sending device: the own message's realtime echo is handed over as an arriving copy, but
// its write stores nothing when the send's answer stored the row first (the usual order: the HTTP
// answer beats the realtime echo). The open chat's last read may predate that answer's write (its
// re-read is still out, seconds under load), so the copy is what shows the message sent. Its settling
// must not take 'sent' away again: the user is never told a sent message is sending (CI's
// chat-typing.png showed 'Odosiela sa…' beside the notifications prompt the 'sent' had opened).
import { IDBFactory, IDBKeyRange } from 'fake-indexeddb';
import { afterEach, describe, expect, it } from 'vitest';
import { createSyncEngine, type SyncEngine } from '../../../sync/engine.ts';
import type { LocalMessage } from '../../../sync/model/local-types.ts';
import { correlationKey } from '../../../sync/merge/message.ts';
import { messagesAround } from '../../../sync/queries.ts';
import { afterArriving, nextRecent, overlayRecent, type Recent } from '../../../sync/receive/recent.ts';
import { manualNetwork } from '../../../sync/session/network.ts';
import { FakeServer } from './helpers/fake-server.ts';
import { manualRealtime } from './helpers/manual-realtime.ts';
import { FAST_TIMINGS, waitFor } from './helpers/wait.ts';

const engines: SyncEngine[] = [];
afterEach(async () => {
  for (const e of engines.splice(0)) await e.stop();
});


describe('R6.6 the own message echo', () => {
  it('R6.6 a sent message stays sent when its echo settles before the chat re-read the send’s answer', async () => {
    const server = new FakeServer();
    const conv = server.addConversation();
    const api = server.api();
    // The send's request waits for the test: the chat reads the message while it is sending.
    let answer!: () => void;
    const answered = new Promise<void>((resolve) => (answer = resolve));
    const send = api.sendMessage.bind(api);
    api.sendMessage = async (input) => {
      await answered;
      return send(input);
    };
    const rt = manualRealtime();
    const e = createSyncEngine({
      userId: 'user-1',
      server: api,
      idb: { indexedDB: new IDBFactory(), IDBKeyRange },
      network: manualNetwork(true),
      timings: FAST_TIMINGS,
      transports: { realtime: () => rt.transport },
      locks: null,
      channels: null,
    });
    engines.push(e);
    await e.start();
    await waitFor(() => e.status().loaded, 'first pull');
    await waitFor(() => rt.connected(), 'realtime subscribed', 10_000);
    await e.settled();

    // The open chat as src/data/use-chat.ts keeps it: its live read's last answer, with the engine's
    // publications and arriving copies laid over it; what the bubble shows after each step.
    let read: { generation: number; rows: LocalMessage[] } = { generation: 0, rows: [] };
    let recent: ReadonlyMap<string, Recent> = new Map();
    const correlationId = '6f9619ff-8b86-4011-b42d-00c04fc964ff';
    const key = correlationKey(correlationId);
    const shown: string[] = [];
    const look = (step: string) => shown.push(`${step}: ${overlayRecent(read.rows, read.generation, recent, conv.id).find((m) => m.key === key)?.state ?? 'none'}`);
    e.subscribeStored((stored, generation) => {
      recent = nextRecent(recent, read.generation, { put: stored.put.filter((m) => m.conversationId === conv.id), removed: stored.removed, generation });
      look('stored');
    });
    e.subscribeArriving((a) => {
      recent = afterArriving(recent, read.generation, a, e.storedGeneration());
      look('row' in a ? 'arriving' : 'settled');
    });
    const reread = async (step: string) => {
      const generation = e.storedGeneration();
      read = { generation, rows: await messagesAround(e.db, conv.id, '', 'recent') };
      look(step);
    };

    await e.commands.sendMessage({ conversationId: conv.id, text: 'Moja otázka', correlationId });
    await reread('read while sending');
    // The answer is stored ('sent'); the chat's re-read of it has not answered yet.
    answer();
    await waitFor(async () => (await e.db.messages.get(key))?.state === 'sent', 'the answer stored');
    // Then the echo: handed over, its write finds the row stored already, settled.
    const row = [...server.messages.values()].find((m) => m.client_correlation_id === correlationId)!;
    rt.emit(row);
    await waitFor(() => shown.some((s) => s.startsWith('settled')), 'the echo settled');
    await e.settled();
    await reread('re-read');
    expect(shown).toEqual(['read while sending: sending', 'arriving: sent', 'settled: sent', 're-read: sent']);
  });
});
