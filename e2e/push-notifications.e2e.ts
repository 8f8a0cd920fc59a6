// Issue 20, the client's side of Web Push in a real Chromium with the real service worker:
// - an app open with permission granted registers the device (push_subscribe; R11.2), the
//   'Upozornenia' card turns it off and on (R11.1), sign-out unregisters it;
// - the app badge equals the total unread and is cleared once all is read (R11.5);
// - a push delivered to the worker by CDP `ServiceWorker.deliverPushMessage` with no app page open
//   shows one notification per conversation (R11.4), and none for a chat visible in a window.
// The vendor's push service cannot run here: the page's PushManager.subscribe/getSubscription are
// replaced by an init script with a subscription naming an https endpoint on push.test with
// well-formed keys (push_subscribe takes only push services' hosts — R10.15 — and e2e/global-setup.ts
// names push.test one; the name never resolves, so a send reaches nobody), and navigator.setAppBadge
// is recorded. The VAPID public key reaches the page through the stack's /env.js (generated into
// DATA_DIR on first start), so the suite's ordinary build serves.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test, type BrowserContext, type CDPSession, type Page } from '@playwright/test';
import { freshUser, rest, shootBoth } from './defects-helpers.ts';
import { launchProfile, registrationId, signInControlled } from './pwa-helpers.ts';
import { storeSession } from './stored-session.ts';

const SPECIALIST = '00000000-0000-4000-8000-000000000011';

/** Fake PushManager (page side) and a recording app badge, before any app script runs. */
function stubPushAndBadge(): void {
  const KEY = 'e2e.fake-push';
  type Saved = { endpoint: string; key: number[] };
  const make = (s: Saved) => ({
    endpoint: s.endpoint,
    expirationTime: null,
    options: { userVisibleOnly: true, applicationServerKey: new Uint8Array(s.key).buffer },
    toJSON: () => ({ endpoint: s.endpoint, keys: { p256dh: 'BAgXLlYn-NuuCItNsDoPcoG70Nc1svq6KTG5_IDWFHHPzyQRjNG6ou-hLTSamIhFeHoA0j4HKGwCM86FMHXCGEc', auth: 'vxoR0LbVkt13RGw7jD6llQ' } }),
    unsubscribe: async () => {
      localStorage.removeItem(KEY);
      return true;
    },
  });
  if (typeof PushManager !== 'undefined') {
    PushManager.prototype.getSubscription = async function () {
      const raw = localStorage.getItem(KEY);
      return raw ? (make(JSON.parse(raw) as Saved) as unknown as PushSubscription) : null;
    };
    PushManager.prototype.subscribe = async function (opts?: PushSubscriptionOptionsInit) {
      const key = opts?.applicationServerKey;
      const bytes = key instanceof Uint8Array ? [...key] : key instanceof ArrayBuffer ? [...new Uint8Array(key)] : [];
      const s: Saved = { endpoint: `https://e2e.push.test/fake-push/${crypto.randomUUID()}`, key: bytes };
      localStorage.setItem(KEY, JSON.stringify(s));
      return make(s) as unknown as PushSubscription;
    };
  }
  const calls: number[] = [];
  (window as unknown as { __badge: number[] }).__badge = calls;
  Object.defineProperty(Navigator.prototype, 'setAppBadge', { configurable: true, value: async (n?: number) => void calls.push(n ?? 0) });
  Object.defineProperty(Navigator.prototype, 'clearAppBadge', { configurable: true, value: async () => void calls.push(0) });
}

const lastBadge = (page: Page) => page.evaluate(() => (window as unknown as { __badge?: number[] }).__badge?.at(-1) ?? null);

async function subscriptionsOf(baseURL: string, userId: string): Promise<number> {
  return ((await rest(baseURL, `push_subscriptions?select=endpoint&user_id=eq.${userId}`)) as unknown[]).length;
}

async function seedConversation(baseURL: string, userId: string, unread: number): Promise<string> {
  const link = (await rest(baseURL, `account_users?select=account_id&user_id=eq.${userId}`)) as { account_id: string }[];
  const conv = (await rest(baseURL, 'conversations', { method: 'POST', body: { account_id: link[0]!.account_id, specialist_id: SPECIALIST } })) as { id: string }[];
  const id = conv[0]!.id;
  const start = Date.now() - 600_000;
  await rest(baseURL, 'messages', {
    method: 'POST',
    prefer: 'return=minimal',
    body: Array.from({ length: unread }, (_, i) => ({ conversation_id: id, direction: 'specialist', source: 'ai', text: `Odpoveď ${i + 1}`, created_at: new Date(start + i * 1000).toISOString() })),
  });
  return id;
}

/** Every push handed to the worker and every console line of the pages and the worker, for a failure's dump. */
const trail: string[] = [];
const note = (line: string) => trail.push(`${new Date().toISOString()} ${line}`);

async function deliver(cdp: CDPSession, origin: string, regId: string, data: unknown): Promise<void> {
  note(`push delivered: ${JSON.stringify(data)}`);
  await cdp.send('ServiceWorker.deliverPushMessage', { origin, registrationId: regId, data: JSON.stringify(data) });
}

/** What the pages, the worker's notifications and the server held when the journey failed (diagnostics; asserts nothing). */
async function failureDump(context: BrowserContext, origin: string, userId: string): Promise<{ trail: string[]; pages: { url: string; state: unknown }[]; viewing: unknown }> {
  const pages = await Promise.all(
    context.pages().map(async (p) => ({
      url: p.url(),
      state: await p
        .evaluate(async () => {
          const reg = await navigator.serviceWorker?.getRegistration('/');
          const shown = ((await reg?.getNotifications()) ?? []).map((n) => ({ title: n.title, body: n.body, tag: n.tag, timestamp: (n as Notification & { timestamp?: number }).timestamp }));
          return { visibility: document.visibilityState, focused: document.hasFocus(), notifications: shown, badge: (window as unknown as { __badge?: number[] }).__badge ?? null };
        })
        .catch((err: unknown) => `unreadable: ${String(err)}`),
    })),
  );
  const viewing = await rest(origin, `push_viewing?select=*&user_id=eq.${userId}`).catch((err: unknown) => String(err));
  return { trail, pages, viewing };
}

function recordConsoles(context: BrowserContext): void {
  context.on('console', (m) => note(`[page ${m.type()}] ${m.text()}`));
  const worker = (w: { url(): string; on(e: 'console', f: (m: { type(): string; text(): string }) => void): unknown }) =>
    w.on('console', (m) => note(`[worker ${m.type()}] ${m.text()}`));
  for (const w of context.serviceWorkers()) worker(w);
  context.on('serviceworker', worker);
}

/**
 * Chromium's own view of the pushes, for the failure dump: CDP's deliverPushMessage answers before
 * the event is dispatched and drops its delivery status, so the trail records the worker's running
 * state as it changes and Chromium's push-messaging record (the DevTools Application panel's
 * BackgroundService events: the push received, dispatched, and how its event ended).
 */
async function recordWorkerStates(cdp: CDPSession): Promise<void> {
  cdp.on('ServiceWorker.workerVersionUpdated', (e: { versions: { versionId: string; runningStatus: string; status: string }[] }) => {
    for (const v of e.versions) note(`worker version ${v.versionId}: ${v.runningStatus}, ${v.status}`);
  });
  cdp.on('BackgroundService.backgroundServiceEventReceived', (e: { backgroundServiceEvent: { eventName: string; eventMetadata: { key: string; value: string }[] } }) => {
    const meta = e.backgroundServiceEvent.eventMetadata.map((m) => `${m.key}=${m.value}`).join(', ');
    note(`Chromium push record: ${e.backgroundServiceEvent.eventName}${meta ? ` (${meta})` : ''}`);
  });
  try {
    await cdp.send('BackgroundService.startObserving', { service: 'pushMessaging' });
    await cdp.send('BackgroundService.setRecording', { shouldRecord: true, service: 'pushMessaging' });
  } catch (err) {
    note(`BackgroundService not observed: ${String(err)}`);
  }
}

const notifications = (page: Page) =>
  page.evaluate(async () => {
    const reg = await navigator.serviceWorker.getRegistration('/');
    return ((await reg?.getNotifications()) ?? []).map((n) => ({ title: n.title, body: n.body, tag: n.tag, data: n.data as unknown }));
  });

const messagePush = (conversationId: string, over: Record<string, unknown> = {}) => ({
  type: 'message',
  conversationId,
  messageId: crypto.randomUUID(),
  title: 'Martin Kováč',
  body: 'Dobrý deň, pozrel som sa na to.',
  icon: '/avatars/martin.webp',
  tag: `conversation:${conversationId}`,
  url: `/app/chats/${conversationId}`,
  unread: 4,
  ...over,
});

test('registers on open, the card turns it off and on, the badge counts unread, pushes notify once per conversation, sign-out unregisters', async ({ baseURL }) => {
  test.setTimeout(180_000);
  const origin = baseURL!;
  const user = await freshUser(origin, 'upozornenia');
  const chatId = await seedConversation(origin, user.id, 3);
  const profile = await mkdtemp(join(tmpdir(), 'poradna-push-'));
  let context: BrowserContext | null = null;
  try {
    context = await launchProfile(profile, origin);
    recordConsoles(context);
    await context.grantPermissions(['notifications'], { origin });
    await context.addInitScript(stubPushAndBadge);
    const page = context.pages()[0] ?? (await context.newPage());
    await signInControlled(page, user.email);

    // R11.2: permission granted → the open registered this device; R11.5: badge = 3 unread.
    await expect.poll(() => subscriptionsOf(origin, user.id), { timeout: 20_000 }).toBe(1);
    await expect.poll(() => lastBadge(page), { timeout: 20_000 }).toBe(3);

    // R11.1: the card shows the state and turns it off and on; the server follows.
    await page.goto('/app/settings');
    const card = page.getByTestId('push-card');
    await expect(card).toHaveAttribute('data-state', 'on');
    await expect(page.getByTestId('push-state')).toHaveText('Zapnuté');
    await shootBoth(page, 'push-card-on');
    await page.getByRole('button', { name: 'Vypnúť upozornenia' }).click();
    await expect(card).toHaveAttribute('data-state', 'off');
    await expect(page.getByTestId('push-state')).toHaveText('Vypnuté');
    await expect.poll(() => subscriptionsOf(origin, user.id)).toBe(0);
    // Turned off here: a reload (an app open) does not turn it back on.
    await page.reload();
    await expect(card).toHaveAttribute('data-state', 'off');
    await page.waitForTimeout(1500);
    expect(await subscriptionsOf(origin, user.id)).toBe(0);
    await shootBoth(page, 'push-card-off');
    await page.getByRole('button', { name: 'Zapnúť upozornenia' }).click();
    await expect(card).toHaveAttribute('data-state', 'on');
    await expect.poll(() => subscriptionsOf(origin, user.id)).toBe(1);

    // R11.4 with no app page open: the worker shows the notification; a burst collapses by tag.
    const cdpPage = await context.newPage();
    const cdp = await context.newCDPSession(cdpPage);
    const regId = await registrationId(cdp, origin);
    await recordWorkerStates(cdp);
    await page.close();
    expect(context.pages().filter((p) => p.url().startsWith(origin))).toHaveLength(0);
    await deliver(cdp, origin, regId, messagePush(chatId));
    await deliver(cdp, origin, regId, messagePush(chatId, { body: 'A ešte jedna vec.' }));
    await cdpPage.goto('/app/settings');
    await expect.poll(() => notifications(cdpPage), { timeout: 15_000 }).toEqual([
      { title: 'Martin Kováč', body: 'A ešte jedna vec.', tag: `conversation:${chatId}`, data: { url: `/app/chats/${chatId}`, conversationId: chatId } },
    ]);

    // A chat visible in a window is not notified; another conversation is.
    await cdpPage.evaluate(async () => {
      for (const n of (await (await navigator.serviceWorker.getRegistration('/'))?.getNotifications()) ?? []) n.close();
    });
    await cdpPage.goto(`/app/chats/${chatId}`);
    await expect(cdpPage.getByTestId('message').first()).toBeVisible();
    expect(await cdpPage.evaluate(() => document.visibilityState)).toBe('visible');
    const other = crypto.randomUUID();
    await deliver(cdp, origin, regId, messagePush(chatId));
    await deliver(cdp, origin, regId, messagePush(other));
    await expect.poll(async () => (await notifications(cdpPage)).map((n) => n.tag), { timeout: 15_000 }).toEqual([`conversation:${other}`]);

    // R11.5: the chat is read → the page clears the badge.
    await expect.poll(() => lastBadge(cdpPage), { timeout: 20_000 }).toBe(0);

    // R11.2: sign-out unregisters the device before the session ends.
    await cdpPage.goto('/app/settings');
    await cdpPage.getByRole('button', { name: 'Odhlásiť sa', exact: true }).click();
    await cdpPage.waitForURL(/\/auth\/login/);
    await expect.poll(() => subscriptionsOf(origin, user.id)).toBe(0);
  } catch (err) {
    // Once in ~17 runs this journey failed around 'notify once per conversation' (issue 19's notes):
    // the next failure says what the worker showed, what it was handed and what the pages logged.
    if (context) {
      const dump = await failureDump(context, origin, user.id);
      console.log(`push-notifications failure dump:\n${JSON.stringify(dump, null, 1)}`);
      // CI shows the end of the output only; its summary prints this attachment under the failure.
      const pages = dump.pages.map((p) => `page ${p.url}: ${JSON.stringify(p.state)}`);
      // Chromium's records repeat the payload the line before them gave.
      const trailShort = dump.trail.map((l) => l.replace(/ \(Payload=\{.*\}\)$/, ''));
      await test.info().attach('diagnostics', { contentType: 'text/plain', body: [...trailShort, ...pages, `push_viewing: ${JSON.stringify(dump.viewing)}`].join('\n') });
    }
    throw err;
  } finally {
    await context?.close();
    await rm(profile, { recursive: true, force: true });
  }
});

test('the card says blocked with how to allow it, and never asks on load', async ({ browser, baseURL }) => {
  const origin = baseURL!;
  const user = await freshUser(origin, 'zablokovane');
  const context = await browser.newContext({ baseURL: origin });
  try {
    await context.addInitScript(() => {
      const asked: string[] = [];
      (window as unknown as { __asked: string[] }).__asked = asked;
      Object.defineProperty(Notification, 'permission', { configurable: true, get: () => 'denied' });
      Notification.requestPermission = async () => {
        asked.push('x');
        return 'denied';
      };
    });
    const page = await context.newPage();
    await storeSession(page, user.email);
    await page.goto('/app/settings');
    await expect(page.getByTestId('push-card')).toHaveAttribute('data-state', 'blocked');
    await expect(page.getByTestId('push-state')).toHaveText('Zablokované v prehliadači');
    await expect(page.getByTestId('push-card')).toContainText('Povoľ ich v nastaveniach stránky');
    await expect(page.getByRole('button', { name: 'Zapnúť upozornenia' })).toHaveCount(0);
    expect(await page.evaluate(() => (window as unknown as { __asked: string[] }).__asked.length)).toBe(0);
    await shootBoth(page, 'push-card-blocked');
  } finally {
    await context.close();
  }
});
