// Issue 21 item 12 (src/pages/specialists/request-delivery.ts) against real IndexedDB writes
// (fake-indexeddb, the engine's Dexie schema): 'sent' only once the request message is sent; one
// that is still queued is first told 'queued' and then, when it goes out, 'sent' — a slow server
// (CI's defects-request journey, stop 61) must not leave 'it waits' as the last word.
import { IDBFactory, IDBKeyRange } from 'fake-indexeddb';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { SyncDb, dbNameFor } from '../../../sync/db/schema.ts';
import type { LocalMessage, MessageState } from '../../../sync/model/local-types.ts';
import { REQUEST_SPECIALIST_PREFIX } from '../../../sync/model/texts.ts';
import { type RequestDelivery, watchRequestDelivery } from '../../../src/pages/specialists/request-delivery.ts';

let db: SyncDb;
const since = Date.now();

function request(state: MessageState, over: Partial<LocalMessage> = {}): LocalMessage {
  return {
    key: 'c:r1', serverId: null, conversationId: 'conv', accountId: 'acc', text: `${REQUEST_SPECIALIST_PREFIX}Jana`, type: 'text',
    direction: 'user', source: 'app', chatwootMessageId: null, createdAt: new Date(since).toISOString(), orderKey: 'o', readAt: null,
    payload: null, correlationId: 'r1', senderUserId: null, changeSeq: 0, state, origin: 'optimistic', error: null, confirmedAt: null,
    ...over,
  };
}

/** Collects what the watch reports; `until` resolves at the first report of `last`. */
function watch(queuedAfterMs: number) {
  const told: RequestDelivery[] = [];
  let resolve: () => void = () => {};
  let last: RequestDelivery | null = null;
  const stop = watchRequestDelivery(db, 'conv', 'Jana', since, (d) => {
    told.push(d);
    if (d === last) resolve();
  }, queuedAfterMs);
  const until = (d: RequestDelivery) => new Promise<void>((r) => {
    if (told.includes(d)) r();
    else { last = d; resolve = r; }
  });
  return { told, stop, until };
}

beforeEach(async () => {
  db = new SyncDb(dbNameFor('request-delivery'), { indexedDB: new IDBFactory(), IDBKeyRange });
  await db.open();
});
afterEach(() => db.close());

describe('issue 21 item 12: what the request toast says', () => {
  it('says sent once the message is sent, and nothing while it is sending', async () => {
    await db.messages.put(request('sending'));
    const w = watch(5_000);
    await new Promise((r) => setTimeout(r, 500));
    expect(w.told).toEqual([]);
    await db.messages.put(request('sent'));
    await w.until('sent');
    expect(w.told).toEqual(['sent']);
  });

  it('a request still queued is told queued, then sent when it goes out (once each)', async () => {
    await db.messages.put(request('sending'));
    const w = watch(300);
    await w.until('queued');
    await new Promise((r) => setTimeout(r, 1_200));
    expect(w.told).toEqual(['queued']);
    await db.messages.put(request('sent'));
    await w.until('sent');
    await new Promise((r) => setTimeout(r, 1_200));
    expect(w.told).toEqual(['queued', 'sent']);
  });

  it('a queued request that fails is told failed; another text or an older request is not this one', async () => {
    await db.messages.bulkPut([
      request('sent', { key: 'c:old', createdAt: new Date(since - 120_000).toISOString() }),
      request('sent', { key: 'c:other', text: `${REQUEST_SPECIALIST_PREFIX}Peter` }),
      request('sending'),
    ]);
    const w = watch(300);
    await w.until('queued');
    await db.messages.put(request('failed', { error: 'x' }));
    await w.until('failed');
    expect(w.told).toEqual(['queued', 'failed']);
  });

  it('stops when told to, and when the database closes', async () => {
    await db.messages.put(request('sending'));
    const w = watch(300);
    w.stop();
    await new Promise((r) => setTimeout(r, 600));
    expect(w.told).toEqual([]);
    db.close();
    const w2 = watch(0);
    await new Promise((r) => setTimeout(r, 600));
    expect(w2.told).toEqual([]);
  });
});
