// R6.8 (issue 19): a message sent on one device of a user paints on the user's other device from the
// relay, as "Odosiela sa…", before the server has its row; the row then makes it ✓ 'Odoslané' in place
// (one bubble throughout). The phone's send_message request is held for a few seconds here, so what
// the laptop shows in the meantime can only have come over the relay. A colleague's device (another
// user of the same account) never gets the relayed copy: it sees the message only once it is stored.
// A send the server refuses is withdrawn: the other device drops its copy when the phone shows the
// failure, not RELAY_HOLD_MS later.
import { expect, test, type Page } from '@playwright/test';
import { RELAY_HOLD_MS } from '../sync/receive/published.ts';
import { freshChat, freshUser, rest, shootBoth } from './defects-helpers.ts';
import { storeSession } from './stored-session.ts';

const bubble = (page: Page, text: string) => page.locator('[data-testid="message"][data-own="true"]').filter({ hasText: text });

/**
 * Each device signed in as its user, on the chat, the chat's first message shown, and its relay
 * channel joined: the server's 'ok' to the page's join of its private `user:<id>` topic, read from the
 * page's WebSocket frames (as broadcast-private-join.e2e.ts does). A send made before the phone's
 * channel is joined is not relayed at all (transports/relay.ts `publish`), and one made before the
 * laptop's is joined is not heard there. (A fixed 1.5 s "moment" once was not enough under a
 * clean-clone run's load: the laptop never showed the copy; session 50.)
 */
async function openChatOn(devices: (readonly [Page, string])[], chat: string): Promise<void> {
  const joined = new Map<Page, boolean>();
  for (const [page, email] of devices) {
    joined.set(page, false);
    page.on('websocket', (ws) =>
      ws.on('framereceived', (f) => {
        const frame = String(f.payload);
        if (frame.includes('"realtime:user:') && frame.includes('phx_reply') && frame.includes('"status":"ok"')) joined.set(page, true);
      }),
    );
    await storeSession(page, email);
    await page.goto(chat);
    await expect(page.getByTestId('message').first()).toBeVisible({ timeout: 20_000 });
  }
  await expect.poll(() => [...joined.values()].every(Boolean), { timeout: 20_000, message: 'every device has joined its relay channel' }).toBe(true);
}

/** Holds the page's send_message requests until the returned function is called, then lets them go. */
async function holdSends(page: Page): Promise<() => void> {
  let release: () => void = () => undefined;
  const held = new Promise<void>((resolve) => (release = resolve));
  await page.route('**/rest/v1/rpc/send_message', async (route) => {
    await held;
    await route.continue();
  });
  return release;
}

async function sendFrom(page: Page, text: string): Promise<void> {
  const composer = page.getByRole('textbox', { name: 'Správa' });
  await composer.fill(text);
  await composer.press('Enter');
}

test("a send shows on the user's other device before the server has it, and on no colleague's", async ({ browser, baseURL }) => {
  test.setTimeout(120_000);
  const origin = baseURL!;
  const { user, accountId, conversationId } = await freshChat(origin, 'relay');
  const colleague = await freshUser(origin, 'relay-kolega');
  // The colleague joins the user's account (one account per user: moved, as a member).
  await rest(origin, `account_users?user_id=eq.${colleague.id}`, { method: 'PATCH', prefer: 'return=minimal', body: { account_id: accountId, role: 'member' } });
  const chat = `/app/chats/${conversationId}`;

  const contexts = await Promise.all([0, 1, 2].map(() => browser.newContext({ baseURL: origin, viewport: { width: 390, height: 844 } })));
  try {
    const [phone, laptop, other] = await Promise.all(contexts.map((c) => c.newPage()));
    await openChatOn(
      [
        [phone!, user.email],
        [laptop!, user.email],
        [other!, colleague.email],
      ],
      chat,
    );
    const release = await holdSends(phone!);
    const text = `Z telefónu ${Date.now()}`;
    await sendFrom(phone!, text);

    // The server has no row yet; the laptop shows the message all the same, as sending.
    await expect(bubble(laptop!, text)).toHaveCount(1, { timeout: 5000 });
    await expect(bubble(laptop!, text).getByTestId('pending-label')).toHaveText('Odosiela sa…');
    expect((await rest(origin, `messages?select=id&text=eq.${encodeURIComponent(text)}`)) as unknown[]).toEqual([]);
    await expect(bubble(other!, text)).toHaveCount(0);
    await shootBoth(laptop!, 'relay-sending');

    release();
    for (const p of [phone!, laptop!]) {
      await expect(bubble(p, text).getByRole('img', { name: 'Odoslané' })).toBeVisible({ timeout: 20_000 });
      await expect(bubble(p, text)).toHaveCount(1);
    }
    // The colleague gets it from the server, like any message of the account.
    await expect(other!.getByTestId('message').filter({ hasText: text })).toHaveCount(1, { timeout: 20_000 });
  } finally {
    for (const c of contexts) await c.close();
  }
});

test('a send the server refuses is withdrawn from the other device at once, not after the relay’s hold', async ({ browser, baseURL }) => {
  test.setTimeout(120_000);
  const origin = baseURL!;
  const { user, conversationId } = await freshChat(origin, 'relay-odvolanie');

  const contexts = await Promise.all([0, 1].map(() => browser.newContext({ baseURL: origin, viewport: { width: 390, height: 844 } })));
  try {
    const [phone, laptop] = await Promise.all(contexts.map((c) => c.newPage()));
    await openChatOn(
      [
        [phone!, user.email],
        [laptop!, user.email],
      ],
      `/app/chats/${conversationId}`,
    );
    const release = await holdSends(phone!);
    const text = `Už neprejde ${Date.now()}`;
    await sendFrom(phone!, text);
    await expect(bubble(laptop!, text)).toHaveCount(1, { timeout: 5000 });
    const shownAt = Date.now();

    // Completed on the server while the phone's request is on its way: the server refuses it for good.
    await rest(origin, `conversations?id=eq.${conversationId}`, { method: 'PATCH', prefer: 'return=minimal', body: { status: 'completed' } });
    release();
    await expect(bubble(phone!, text)).toHaveAttribute('data-state', 'failed', { timeout: 20_000 });
    await expect(bubble(phone!, text).getByRole('alert')).toContainText('Konverzácia je ukončená, správa sa neodoslala');
    // The laptop drops its copy on the phone's withdrawal: well before the relay's hold would have.
    await expect(bubble(laptop!, text)).toHaveCount(0, { timeout: RELAY_HOLD_MS });
    expect(Date.now() - shownAt, 'dropped by the withdrawal, not by the hold').toBeLessThan(RELAY_HOLD_MS);
    expect((await rest(origin, `messages?select=id&text=eq.${encodeURIComponent(text)}`)) as unknown[]).toEqual([]);
  } finally {
    for (const c of contexts) await c.close();
  }
});
