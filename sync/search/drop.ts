// R15.5: the search index is the user's data: it is deleted wherever the user's sync database is
// (db/open.ts deleteUserDb, the engine's signOut). Imports nothing of db/ (open.ts imports this).
import { Dexie, type DexieOptions } from 'dexie';

export const SEARCH_DB_PREFIX = 'poradna-search-';

export function searchDbName(userId: string): string {
  return `${SEARCH_DB_PREFIX}${userId}`;
}

export async function deleteSearchDb(userId: string, options: DexieOptions = {}): Promise<void> {
  await new Dexie(searchDbName(userId), options).delete();
}
