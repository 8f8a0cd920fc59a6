// Waiting on conditions, never on fixed sleeps (the machine running tests may be slow or shared).
import type { Queryable } from './converge.ts';
import { differences, serverUnread, serverView } from './converge.ts';
import type { TestDevice } from './device.ts';

/** Polls `fn` until it returns a value (not undefined/null/false); throws after `timeoutMs`. */
export async function waitFor<T>(fn: () => Promise<T | undefined | null | false> | T | undefined | null | false, what: string, timeoutMs = 3000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const v = await fn();
    if (v !== undefined && v !== null && v !== false) return v;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 5));
  }
}

/** Waits until the device's running engine equals the server for its account; throws the differences. */
export async function converged(db: Queryable, device: TestDevice, timeoutMs = 8000): Promise<void> {
  let last: string[] = [];
  await waitFor(
    async () => {
      const e = device.engine;
      const accountId = device.accountId ?? e?.accountId();
      if (!e || !accountId) return false;
      e.syncNow();
      last = await differences(e.db, await serverView(db, accountId), await serverUnread(db, accountId, device.user.id));
      return last.length === 0;
    },
    'convergence',
    timeoutMs,
  ).catch(() => {
    throw new Error(`not converged:\n${last.join('\n')}`);
  });
}
