// A fresh device database scoped to a new FakeServer's account: the set-up of the pull tests
// (pull.test.ts, r19-initial-sync.test.ts).
import type { SyncDb } from '../../../../sync/db/schema.ts';
import { scopeToAccount } from '../../../../sync/session/account-scope.ts';
import { FakeServer } from './fake-server.ts';
import { freshDb } from './local-db.ts';

export async function scopedDb(): Promise<{ db: SyncDb; server: FakeServer }> {
  const { db } = await freshDb();
  const server = new FakeServer();
  await scopeToAccount(db, server.accountId);
  return { db, server };
}
