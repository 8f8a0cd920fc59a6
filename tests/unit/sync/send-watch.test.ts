// R1.12's view of conversation facts (sync/send/send-watch.ts) against real IndexedDB writes
// (fake-indexeddb, the engine's own Dexie schema and write middleware): facts are given out only
// when every write of that conversation still pending carries the same facts as the committed row.
import { Dexie } from 'dexie';
import { IDBFactory, IDBKeyRange } from 'fake-indexeddb';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { SyncDb, dbNameFor } from '../../../sync/db/schema.ts';
import type { LocalConversation } from '../../../sync/model/local-types.ts';
import { SendWatch } from '../../../sync/send/send-watch.ts';
import { conversationRow } from './helpers/local-db.ts';

let db: SyncDb;
let watch: SendWatch;

const row = (over: Partial<LocalConversation> = {}): LocalConversation => conversationRow({ id: 'c1', accountId: 'acc-1', ...over });

beforeEach(async () => {
  db = new SyncDb(dbNameFor('watch'), { indexedDB: new IDBFactory(), IDBKeyRange });
  await db.open();
  await db.conversations.put(row());
  watch = new SendWatch();
  db.writeListener = watch;
  await watch.reload(db);
});
afterEach(() => db.close());

/** Runs `during` while a write of `written` is issued in a read-write transaction that has not ended; `fail` aborts it after. */
async function whileWriting(
  written: LocalConversation | 'delete',
  during: () => void,
  fail = false,
): Promise<void> {
  let aborted: Promise<void> = Promise.resolve();
  await db
    .transaction('rw', db.conversations, async () => {
      if (written === 'delete') await db.conversations.delete('c1');
      else await db.conversations.put(written);
      // Listened to after the write, so after the view's own listener (events run in the order added).
      const trans = Dexie.currentTransaction.idbtrans;
      aborted = new Promise((r) => trans.addEventListener('abort', () => r(), { once: true }));
      during();
      if (fail) throw new Error('abort');
    })
    .catch((err: unknown) => {
      if (!fail) throw err;
    });
  // Dexie rejects as it aborts; IndexedDB's abort event (what the view listens to) follows later, after
  // a number of tasks that depends on fake-indexeddb's scheduling (one setTimeout was not always enough).
  if (fail) await aborted;
}

describe('R1.12 conversation facts while a write of the conversation is pending', () => {
  it('R1.12 a rewrite that keeps the facts (a new last message, unread count) keeps them given out', async () => {
    let during: unknown;
    await whileWriting(
      row({ lastMessageAt: '2026-11-24T10:01:00.000Z', unreadCount: 3, changeSeq: 2 }),
      () => (during = watch.conversation('c1')),
    );
    expect(during).toEqual({ accountId: 'acc-1', chatwootConversationId: null, status: 'active' });
    expect(watch.conversation('c1')?.status).toBe('active');
  });

  it('R1.12 a write that changes a fact hides the facts until it committed, then gives the new ones', async () => {
    let during: unknown = 'not read';
    await whileWriting(row({ status: 'completed', changeSeq: 2 }), () => (during = watch.conversation('c1')));
    expect(during).toBeUndefined();
    expect(watch.conversation('c1')?.status).toBe('completed');
  });

  it('R1.12 an aborted write that would have changed a fact leaves the committed facts given out', async () => {
    let during: unknown = 'not read';
    await whileWriting(
      row({ chatwootConversationId: '77' }),
      () => (during = watch.conversation('c1')),
      true,
    );
    expect(during).toBeUndefined();
    expect(watch.conversation('c1')).toEqual({
      accountId: 'acc-1',
      chatwootConversationId: null,
      status: 'active',
    });
  });

  it('R1.12 a deletion hides the facts while pending and forgets them once committed; aborted, they stay', async () => {
    let during: unknown = 'not read';
    await whileWriting('delete', () => (during = watch.conversation('c1')), true);
    expect(during).toBeUndefined();
    expect(watch.conversation('c1')?.accountId).toBe('acc-1');
    await whileWriting('delete', () => (during = watch.conversation('c1')));
    expect(during).toBeUndefined();
    expect(watch.conversation('c1')).toBeUndefined();
  });

  it('R1.12 of two pending writes, one that changes a fact hides them even when the other keeps them', async () => {
    const reads: unknown[] = [];
    // Two transactions of one connection: the second's put is issued while the first has not ended.
    const first = db.transaction('rw', db.conversations, async () => {
      await db.conversations.put(row({ status: 'completed', changeSeq: 2 }));
      reads.push(watch.conversation('c1'));
    });
    const second = db.transaction('rw', db.conversations, async () => {
      await db.conversations.put(row({ status: 'completed', unreadCount: 1, changeSeq: 3 }));
      reads.push(watch.conversation('c1'));
    });
    await Promise.all([first, second]);
    expect(reads).toEqual([
      undefined,
      { accountId: 'acc-1', chatwootConversationId: null, status: 'completed' },
    ]);
    expect(watch.conversation('c1')?.status).toBe('completed');
  });
});
