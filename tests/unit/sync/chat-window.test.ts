// The open chat reads its messages in two live parts split before the newest RECENT_WINDOW (bench
// row 4): together they must be the whole conversation in R4.1 order. (That a new message re-runs
// only the recent part's live query is Dexie's range tracking, covered by the chat e2e journeys and
// bench row 4 in Chromium; under Node Dexie runs live queries only with Dexie.dependencies set, as
// queries.test.ts does.)
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { applyRemoteChanges } from '../../../sync/receive/apply.ts';
import type { SyncDb } from '../../../sync/db/schema.ts';
import { messages, messagesAround, RECENT_WINDOW, recentSplit } from '../../../sync/queries.ts';
import { FakeServer } from './helpers/fake-server.ts';
import { freshDb } from './helpers/local-db.ts';

let db: SyncDb;
let server: FakeServer;
afterEach(() => db.close());
beforeEach(async () => {
  ({ db } = await freshDb());
  server = new FakeServer();
});

async function chatOf(n: number): Promise<string> {
  const c = server.addConversation();
  for (let i = 0; i < n; i++) server.addMessage(c.id, { text: `správa ${i}` });
  await applyRemoteChanges(db, server.page(0, 10_000), 'user-1');
  return c.id;
}

const keys = (rows: { key: string }[]) => rows.map((m) => m.key);

describe('R4.1 a chat read in an older and a recent part', () => {
  it('R4.1 the two parts are the whole conversation in order, the recent one holding the newest RECENT_WINDOW', async () => {
    const id = await chatOf(RECENT_WINDOW + 37);
    const split = await recentSplit(db, id);
    const older = await messagesAround(db, id, split, 'older');
    const recent = await messagesAround(db, id, split, 'recent');
    expect(older).toHaveLength(37);
    expect(recent).toHaveLength(RECENT_WINDOW);
    expect(keys([...older, ...recent])).toEqual(keys(await messages(db, id)));
  });

  it('R4.1 a chat shorter than the window is all recent', async () => {
    const id = await chatOf(3);
    expect(await recentSplit(db, id)).toBe('');
    expect(await messagesAround(db, id, '', 'older')).toEqual([]);
    expect(keys(await messagesAround(db, id, '', 'recent'))).toEqual(keys(await messages(db, id)));
  });
});
