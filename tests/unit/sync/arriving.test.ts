// R6.6: a realtime message paints from the event while it is written; the stored row then takes its
// place under the same key: at every step exactly one bubble, never none and never two.
import { IDBFactory, IDBKeyRange } from 'fake-indexeddb';
import { afterEach, describe, expect, it } from 'vitest';
import { createSyncEngine, type Arriving, type SyncEngine } from '../../../sync/engine.ts';
import { arrivingMessage } from '../../../sync/receive/events.ts';
import type { LocalMessage } from '../../../sync/model/local-types.ts';
import { fromRemoteMessage, messageKeyOf } from '../../../sync/merge/message.ts';
import { manualNetwork } from '../../../sync/session/network.ts';
import { nextRecent, overlayRecent, type Recent } from '../../../sync/receive/recent.ts';
import { FakeServer } from './helpers/fake-server.ts';
import { manualRealtime } from './helpers/manual-realtime.ts';
import { FAST_TIMINGS, waitFor } from './helpers/wait.ts';

const engines: SyncEngine[] = [];
afterEach(async () => {
  for (const e of engines.splice(0)) await e.stop();
});


const row = (record: unknown) => ({ kind: 'row' as const, table: 'messages' as const, op: 'INSERT' as const, record, oldRecord: {} });

describe('R6.6 arriving messages', () => {
  it('R6.6 the engine hands a realtime message over once its write is under way (a read the view makes then runs after it), then its committed row, then settles it', async () => {
    const server = new FakeServer();
    const conv = server.addConversation();
    const rt = manualRealtime();
    const e = createSyncEngine({
      userId: 'user-1',
      server: server.api(),
      idb: { indexedDB: new IDBFactory(), IDBKeyRange },
      network: manualNetwork(true),
      timings: FAST_TIMINGS,
      transports: { realtime: () => rt.transport },
      locks: null,
      channels: null,
    });
    engines.push(e);
    const seen: string[] = [];
    e.subscribeArriving((a: Arriving) => {
      if ('row' in a) {
        // Handed over before the write committed, but after the engine asked for its transaction: a
        // transaction the view asks for now (markRead's) is created after it, so IndexedDB runs it
        // after the write and it finds the row. (Dexie creates an explicit transaction a microtask
        // after it is asked for, in the order asked.)
        const key = a.row.key;
        seen.push(`arriving ${a.row.text}`);
        void e.db.transaction('r', e.db.messages, () => e.db.messages.get(key)).then((m) => seen.push(`stored before? ${m !== undefined}`));
      } else seen.push('settled');
    });
    e.subscribeStored((s) => seen.push(`stored ${s.put.map((m) => m.text).join()}`));
    await e.start();
    await waitFor(() => e.status().loaded, 'first pull');
    await waitFor(() => rt.connected(), 'realtime subscribed', 10_000);
    await e.settled();
    rt.emit(server.addMessage(conv.id, { text: 'Z druhého zariadenia' }));
    await waitFor(() => seen.includes('settled'), 'settled');
    await e.settled();
    // The view's read answers after the write it was queued behind; its answer can come after the
    // engine settled (a helper's run at load 13 asserted before it had come).
    await waitFor(() => seen.some((s) => s.startsWith('stored before?')), "the view's read answered");
    expect(seen.filter((s) => !s.startsWith('stored before?'))).toEqual(['arriving Z druhého zariadenia', 'stored Z druhého zariadenia', 'settled']);
    expect(seen).toContain('stored before? true');
  });

  it('R6.6 no transient copy where the write may store the message under another key or for another account', () => {
    const server = new FakeServer();
    const conv = server.addConversation();
    const plain = server.addMessage(conv.id);
    expect(arrivingMessage(row(plain), 'acc-1', 'user-1')?.key).toBe(messageKeyOf(plain));
    expect(arrivingMessage(row(plain), 'acc-2', 'user-1')).toBeNull();
    expect(arrivingMessage(row(server.addMessage(conv.id, { chatwoot_message_id: '77' })), 'acc-1', 'user-1')).toBeNull();
    expect(arrivingMessage(row(server.addMessage(conv.id, { direction: 'user', sender_user_id: 'user-1' })), 'acc-1', 'user-1')).toBeNull();
    expect(arrivingMessage(row({ id: 'x' }), 'acc-1', 'user-1')).toBeNull();
  });

  it('R6.6 the transient copy and the stored row make exactly one bubble at every step, under one key', () => {
    const server = new FakeServer();
    const conv = server.addConversation();
    const older = fromRemoteMessage(server.addMessage(conv.id, { text: 'staršia' }), 's:older');
    const remote = server.addMessage(conv.id, { text: 'nová' });
    const arriving = arrivingMessage(row(remote), 'acc-1', 'user-1')!;
    const stored: LocalMessage = fromRemoteMessage(remote, messageKeyOf(remote));
    const bubbles = (live: LocalMessage[], readGeneration: number, recent: ReadonlyMap<string, Recent>) =>
      overlayRecent(live, readGeneration, recent, conv.id).filter((m) => m.text === 'nová').map((m) => m.key);

    let recent: Map<string, Recent> = new Map();
    const live = [older];
    expect(bubbles(live, 0, recent)).toEqual([]);
    recent = nextRecent(recent, 0, { arriving, generation: 0 });
    expect(bubbles(live, 0, recent)).toEqual([stored.key]);
    // A read that started before the write answers without the row: the copy stays.
    recent = nextRecent(recent, 0, { put: [], removed: [], generation: 0 });
    expect(bubbles(live, 0, recent)).toEqual([stored.key]);
    // The committed row's publication replaces it, then the write settles it.
    recent = nextRecent(recent, 0, { put: [stored], removed: [], generation: 1 });
    expect(bubbles(live, 0, recent)).toEqual([stored.key]);
    recent = nextRecent(recent, 0, { settled: stored.key });
    expect(bubbles(live, 0, recent)).toEqual([stored.key]);
    // The read after the write has the row: the publication is no longer needed, one bubble still.
    const reread = [older, stored];
    expect(bubbles(reread, 1, recent)).toEqual([stored.key]);
    recent = nextRecent(recent, 1, { put: [], removed: [], generation: 1 });
    expect(recent.size).toBe(0);
    expect(bubbles(reread, 1, recent)).toEqual([stored.key]);
    // A write that stored nothing (already there) settles the copy away; the live row stays the one.
    recent = nextRecent(recent, 1, { arriving, generation: 1 });
    expect(bubbles(reread, 1, recent)).toEqual([stored.key]);
    recent = nextRecent(recent, 1, { settled: stored.key });
    expect(recent.size).toBe(0);
  });

  it('R6.6 on the sending device the echo replaces the own pending copy (same correlation key), one bubble in (created_at, id) order', () => {
    const server = new FakeServer();
    const conv = server.addConversation();
    const correlationId = '6f9619ff-8b86-4011-b42d-00c04fc964ff';
    const remote = server.addMessage(conv.id, { text: 'moja', direction: 'user', source: 'app', sender_user_id: 'user-1', client_correlation_id: correlationId });
    const pendingCopy: LocalMessage = { ...fromRemoteMessage(remote, `c:${correlationId}`), serverId: null, changeSeq: 0, state: 'sending', origin: 'optimistic' };
    const later = fromRemoteMessage(server.addMessage(conv.id, { text: 'neskoršia' }), 's:later');
    const recent = nextRecent(new Map(), 0, { arriving: arrivingMessage(row(remote), 'acc-1', 'user-1')!, generation: 0 });
    const shown = overlayRecent([later, pendingCopy], 0, recent, conv.id);
    expect(shown.map((m) => [m.text, m.state])).toEqual([
      ['moja', 'sent'],
      ['neskoršia', 'sent'],
    ]);
  });
});
