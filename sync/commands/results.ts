// R1.10: commands whose answer only the server has (a new conversation's id) return a promise that
// settles when the pushing tab writes the result row. Dexie announces committed writes (also those of
// other tabs) as 'storagemutated'; the row is looked up again whenever the results table changed.
import { Dexie } from 'dexie';
import type { SyncDb } from '../db/schema.ts';
import type { CommandResult } from '../model/local-types.ts';

export interface StartOutcome {
  conversationId: string;
  created: boolean;
}

type Parts = Record<string, unknown>;

/** The promise is marked handled: a caller that never awaits it causes no unhandled rejection. */
export function waitForResult(db: SyncDb, requestId: string): Promise<StartOutcome> {
  const p = resultOf(db, requestId);
  p.catch(() => undefined);
  return p;
}

function resultOf(db: SyncDb, requestId: string): Promise<StartOutcome> {
  const prefix = `idb://${db.name}/results/`;
  return new Promise((resolve, reject) => {
    let done = false;
    const settle = (r: CommandResult | undefined) => {
      if (!r || done) return;
      done = true;
      Dexie.on('storagemutated').unsubscribe(onChange);
      if (r.ok && r.conversationId !== null) resolve({ conversationId: r.conversationId, created: r.created === true });
      else reject(new Error(r.error ?? 'failed'));
    };
    const check = () => {
      db.results.get(requestId).then(settle, (err: unknown) => {
        if (done) return;
        done = true;
        Dexie.on('storagemutated').unsubscribe(onChange);
        reject(err instanceof Error ? err : new Error(String(err)));
      });
    };
    function onChange(parts: Parts) {
      if (Object.keys(parts).some((k) => k.startsWith(prefix))) check();
    }
    Dexie.on('storagemutated', onChange);
    check();
  });
}

/** Old results nobody waits for any more. */
export async function pruneResults(db: SyncDb, olderThan: number): Promise<void> {
  await db.results.filter((r) => r.at < olderThan).delete();
}
