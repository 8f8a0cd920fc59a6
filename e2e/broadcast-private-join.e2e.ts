// R18.4/R18.7 (issue 41): in the browser, the app joins its account's and its user's topics as private
// channels, the realtime server admits both joins (the realtime.messages policies, R18.2), and a change
// reaches the open chat as the database's broadcast on the account topic. Read from the page's own
// WebSocket frames: a polling app, or one whose private join was refused, fails here (the sync tests
// prove the headless engine; this proves the app's client, its token and its socket in Chromium).
import { expect, test, type Page } from '@playwright/test';
import { freshChat, rest } from './defects-helpers.ts';
import { storeSession } from './stored-session.ts';

/** Every frame the page's WebSockets send and receive, as text, in order. */
function recordFrames(page: Page): { sent: string[]; received: string[] } {
  const frames = { sent: [] as string[], received: [] as string[] };
  page.on('websocket', (ws) => {
    ws.on('framesent', (f) => frames.sent.push(String(f.payload)));
    ws.on('framereceived', (f) => frames.received.push(String(f.payload)));
  });
  return frames;
}

test("the app's private joins of its account and user topics are admitted, and a change arrives as the database's broadcast", async ({
  browser,
  baseURL,
}) => {
  const origin = baseURL!;
  const { user, accountId, conversationId } = await freshChat(origin, 'bcast');
  const context = await browser.newContext({ baseURL: origin, viewport: { width: 390, height: 844 } });
  try {
    const page = await context.newPage();
    const frames = recordFrames(page);
    await storeSession(page, user.email);
    await page.goto(`/app/chats/${conversationId}`);
    await expect(page.getByTestId('message').first()).toBeVisible({ timeout: 20_000 });

    const account = `realtime:account:${accountId}`;
    const userTopic = `realtime:user:${user.id}`;
    // Both joins went out as private channels (a public join of the topic hears nothing, R18.3)…
    const privateJoin = (topic: string) => (f: string) =>
      f.includes(topic) && f.includes('phx_join') && f.includes('"private":true');
    await expect.poll(() => frames.sent.some(privateJoin(account)), { timeout: 20_000 }).toBe(true);
    await expect.poll(() => frames.sent.some(privateJoin(userTopic)), { timeout: 20_000 }).toBe(true);
    // …and the server admitted them: an 'ok' reply to each, never the policies' refusal.
    const admitted = (topic: string) => (f: string) =>
      f.includes(topic) && f.includes('phx_reply') && f.includes('"status":"ok"');
    await expect.poll(() => frames.received.some(admitted(account)), { timeout: 20_000 }).toBe(true);
    await expect.poll(() => frames.received.some(admitted(userTopic)), { timeout: 20_000 }).toBe(true);
    expect(frames.received.filter((f) => f.includes('Unauthorized'))).toEqual([]);

    // A specialist's reply, written on the server: the database announces it on the account topic
    // (R18.1: `changed`, a number, no row) and the chat shows it.
    const before = frames.received.length;
    await rest(origin, 'messages', {
      method: 'POST',
      prefer: 'return=minimal',
      body: {
        conversation_id: conversationId,
        direction: 'specialist',
        source: 'chatwoot',
        text: 'Odpoveď cez Broadcast',
      },
    });
    await expect
      .poll(
        () =>
          frames.received
            .slice(before)
            .some((f) => f.includes(account) && f.includes('broadcast') && f.includes('changed')),
        { timeout: 20_000 },
      )
      .toBe(true);
    const announced = frames.received
      .slice(before)
      .find((f) => f.includes(account) && f.includes('changed'))!;
    expect(announced).toContain(`"account_id":"${accountId}"`);
    expect(announced).not.toContain('Odpoveď cez Broadcast');
    await expect(page.getByTestId('message').filter({ hasText: 'Odpoveď cez Broadcast' })).toBeVisible();
  } finally {
    await context.close();
  }
});
