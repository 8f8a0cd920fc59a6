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

  it('R2.10 a version 9 summary whose last message is files without text learns them; others are left as they were', async () => {
    const idb = { indexedDB: new IDBFactory(), IDBKeyRange };
    const v9 = new SyncDb(dbNameFor('u'), dexieOptions(idb), 9);
    await v9.open();
    const last = (key: string, text: string) => ({ key, id: key, text, direction: 'specialist', createdAt: '2026-12-01T10:00:00.000000Z' });
    await v9.table('conversations').bulkPut([
      { id: 'photo', lastMessage: last('s:p', '') },
      { id: 'text', lastMessage: last('s:t', 'Ahoj') },
      { id: 'empty', lastMessage: last('s:e', '') },
      { id: 'none', lastMessage: null },
    ]);
    await v9.table('messages').bulkPut([
      { key: 's:p', conversationId: 'photo', orderKey: 'a', state: 'sent', text: '', payload: { attachments: [{ id: 'x', file_type: 'image', name: 'IMG_1.jpg' }] } },
      { key: 's:t', conversationId: 'text', orderKey: 'a', state: 'sent', text: 'Ahoj', payload: { attachments: [{ id: 'y', file_type: 'file', name: 'a.pdf' }] } },
      { key: 's:e', conversationId: 'empty', orderKey: 'a', state: 'sent', text: '', payload: null },
    ]);
    v9.close();
    const db = await openUserDb('u', idb);
    expect((await db.conversations.get('photo'))?.lastMessage?.files).toEqual({ count: 1, images: 1, name: 'IMG_1.jpg' });
    expect((await db.conversations.get('text'))?.lastMessage).toEqual(last('s:t', 'Ahoj'));
    expect((await db.conversations.get('empty'))?.lastMessage).toEqual(last('s:e', ''));
    expect((await db.conversations.get('none'))?.lastMessage).toBeNull();
    db.close();
  });
});
