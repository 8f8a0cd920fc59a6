// Issue 21 item 3: a start-conversation the user waits for at a button must end: the engine keeps a
// queued start until the server answers (R1.10), so a failing server left 'Spúšťa sa konverzácia...'
// on screen for good and later pulled the user into the chat unasked. The screen gives up when the
// first attempt failed, when the device is offline, or after START_GIVE_UP_MS; giving up withdraws
// the queued request (if it is still waiting for a retry) so nothing happens behind the user's back.
import type { StartOutcome } from '../../sync/commands/results.ts';
import type { SyncEngine } from '../../sync/engine.ts';

export const START_GIVE_UP_MS = 15_000;
const POLL_MS = 250;

export class StartGaveUp extends Error {
  constructor(reason: string) {
    super(`start-conversation given up: ${reason}`);
  }
}

/** Waits for `done`, or rejects with StartGaveUp and withdraws the queued request `requestId`. */
export function startWithDeadline(engine: SyncEngine, requestId: string | null, done: Promise<StartOutcome>, giveUpMs = START_GIVE_UP_MS): Promise<StartOutcome> {
  return new Promise((resolve, reject) => {
    let over = false;
    const started = Date.now();
    const finish = (fn: () => void) => {
      if (over) return;
      over = true;
      clearInterval(timer);
      fn();
    };
    const giveUp = async (reason: string) => {
      if (over) return;
      over = true;
      clearInterval(timer);
      if (requestId !== null) await withdraw(engine, requestId).catch(() => undefined);
      reject(new StartGaveUp(reason));
    };
    done.then(
      (o) => finish(() => resolve(o)),
      (err: unknown) => finish(() => reject(err instanceof Error ? err : new Error(String(err)))),
    );
    const timer = setInterval(() => {
      void (async () => {
        if (over) return;
        if (engine.status().connection === 'offline') return giveUp('offline');
        if (Date.now() - started >= giveUpMs) return giveUp('timeout');
        if (requestId === null) return;
        const entry = await engine.db.outbox.filter((e) => 'requestId' in e.op && e.op.requestId === requestId).first();
        if (entry && entry.attempts > 0) return giveUp(entry.lastError ?? 'failed');
      })();
    }, POLL_MS);
  });
}

/** Removes the queued start (by its request id) unless it already finished. */
async function withdraw(engine: SyncEngine, requestId: string): Promise<void> {
  const { db } = engine;
  await db.transaction('rw', db.outbox, async () => {
    await db.outbox.filter((e) => 'requestId' in e.op && e.op.requestId === requestId).delete();
  });
}
