// The test kit's device (sync/testing/device.ts) restarts as a page is closed and opened again, also
// offline with an expired token: a closed page waits for nothing of its auth client. Before session 48
// the kit's stop awaited the old client's initialisation, which retries an offline refresh 200 ms × 2ⁿ
// for up to 30 s (auth-js `_recoverAndRefresh`): 25 s of the hostile fuzz's seed 2 was that wait.
import { expect, it } from 'vitest';
import { rng, TestDevice, waitFor } from '../../sync/testing/index.ts';
import { createAccount, createConversation } from './helpers/server-db.ts';
import { onSharedStack } from './helpers/shared-stack.ts';

const PASSWORD = 'kit-restart-123456';
const shared = onSharedStack();

it('kit: a restart offline does not wait for the closed client still retrying its refresh, and the device goes on', async () => {
  const [stack, db] = [shared.stack(), shared.db()];
  const a = await createAccount(db, stack.jwtSecret, 1, 'kit', PASSWORD);
  const conv = await createConversation(db, a.id, a.humans[0]!);
  const u = a.users[0]!;
  const d = new TestDevice(stack, { id: u.id, email: u.email, password: PASSWORD }, { accountId: a.id, rand: rng(1) });
  try {
    await d.signIn();
    await d.start();
    d.setOnline(false);
    d.clock.setSkew(2 * 3600_000); // the stored token has expired by the device's clock
    await d.restart(false); // this client starts offline and begins retrying the refresh
    const offlineClient = d.supabase!;
    let initialised = false;
    void offlineClient.auth.initialize().then(() => (initialised = true));
    await d.restart(false);
    expect(initialised).toBe(false); // the restart did not wait for it
    // Not checked here: that the closed client's later retries fail at once (the device's close
    // aborts its fetches) rather than rotate the refresh token once online; seeing it takes waiting
    // out auth-js's up to 30 s of retries.

    d.clock.setSkew(0);
    d.setOnline(true);
    await d.engine!.commands.sendMessage({ conversationId: conv, text: 'po reštarte' });
    await waitFor(async () => (await d.engine!.db.outbox.count()) === 0, 'the send drained', 20_000);
    const r = await db.query('select 1 from public.messages where conversation_id = $1 and text = $2', [conv, 'po reštarte']);
    expect(r.rowCount).toBe(1);
  } finally {
    d.setOnline(true);
    d.clock.setSkew(0);
    await d.stop();
  }
}, 60_000);
