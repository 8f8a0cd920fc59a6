// Opening and deleting a user's database. `indexedDB`/`IDBKeyRange` are injectable so Node tests can
// give every simulated browser its own fake-indexeddb factory.
import { Dexie, type DexieOptions } from 'dexie';
import { dbNameFor, SyncDb } from './schema.ts';
import { deleteSearchDb } from '../search/drop.ts';

export interface IdbEnvironment {
  indexedDB?: IDBFactory;
  IDBKeyRange?: typeof IDBKeyRange;
}

export function dexieOptions(env: IdbEnvironment): DexieOptions {
  const o: DexieOptions = {};
  if (env.indexedDB) o.indexedDB = env.indexedDB;
  if (env.IDBKeyRange) o.IDBKeyRange = env.IDBKeyRange;
  return o;
}

export async function openUserDb(userId: string, env: IdbEnvironment = {}): Promise<SyncDb> {
  const db = new SyncDb(dbNameFor(userId), dexieOptions(env));
  await db.open();
  return db;
}

/** R1.11: sign-out leaves nothing of the user in this browser (R15.5: nor the search index). */
export async function deleteUserDb(userId: string, env: IdbEnvironment = {}): Promise<void> {
  await new Dexie(dbNameFor(userId), dexieOptions(env)).delete();
  await deleteSearchDb(userId, dexieOptions(env));
}

/** Whether the user's database exists, without creating it (eviction detection, the worker). */
export async function userDbExists(userId: string, env: IdbEnvironment = {}): Promise<boolean> {
  const probe = new Dexie(dbNameFor(userId), { ...dexieOptions(env), addons: [] });
  try {
    await probe.open();
    return true;
  } catch (err) {
    if (err instanceof Dexie.NoSuchDatabaseError) return false;
    throw err;
  } finally {
    probe.close();
  }
}
