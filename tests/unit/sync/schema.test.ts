import { IDBFactory, IDBKeyRange } from 'fake-indexeddb';
import { describe, expect, it } from 'vitest';
import { dexieOptions, deleteUserDb, openUserDb } from '../../../sync/db/open.ts';
import { dbNameFor, SCHEMA_VERSION, SyncDb } from '../../../sync/db/schema.ts';

describe('local store', () => {
  it('R1.11 one database per user, named with the user id; deleting it leaves nothing', async () => {
    const idb = { indexedDB: new IDBFactory(), IDBKeyRange };
    const a = await openUserDb('user-a', idb);
    const b = await openUserDb('user-b', idb);
    expect(a.name).toBe(dbNameFor('user-a'));
    expect(a.name).toContain('user-a');
    await a.meta.put({ key: 'feed', accountId: 'x', cursor: 3, pulledAt: null });
    a.close();
    b.close();
    await deleteUserDb('user-a', idb);
    const names = await idb.indexedDB.databases();
    expect(names.map((d) => d.name)).toEqual([dbNameFor('user-b')]);
  });

  it('a version 1 database upgrades to the current version keeping its rows', async () => {
    const idb = { indexedDB: new IDBFactory(), IDBKeyRange };
    const v1 = new SyncDb(dbNameFor('u'), dexieOptions(idb), 1);
    await v1.open();
    await v1.table('messages').put({ key: 's:1', serverId: '1', conversationId: 'c', orderKey: 'k', state: 'sent' });
    await v1.table('messages').put({ key: 'c:2', serverId: null, conversationId: 'c', orderKey: 'l', state: 'sending' });
    await v1.table('specialists').put({ id: 'sp', name: 'Eva' });
    v1.close();
    const db = await openUserDb('u', idb);
    expect(db.verno).toBe(SCHEMA_VERSION);
    expect((await db.messages.get('s:1'))?.origin).toBe('server');
    expect((await db.messages.get('c:2'))?.origin).toBe('optimistic');
    expect(await db.messages.where('state').equals('sending').count()).toBe(1);
    expect((await db.specialists.get('sp'))?.active).toBe(1);
    await db.results.put({ id: 'r', ok: true, conversationId: 'c', created: true, error: null, at: 0 });
    db.close();
  });
});
