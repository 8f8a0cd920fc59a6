// useLiveQuery over the signed-in user's database: re-runs whenever the tables it read change (in any
// tab). Answers undefined until the first result, else { value } (a query may itself answer undefined).
import { useLiveQuery } from 'dexie-react-hooks';
import type { DependencyList } from 'react';
import { useSyncDb, type SyncDatabase } from './sync-context.ts';

export interface QueryResult<T> {
  value: T;
}

export function useSyncQuery<T>(query: (db: SyncDatabase) => Promise<T>, deps: DependencyList): QueryResult<T> | undefined {
  const db = useSyncDb();
  return useLiveQuery(async () => (db ? { value: await query(db) } : undefined), [db, ...deps]);
}
