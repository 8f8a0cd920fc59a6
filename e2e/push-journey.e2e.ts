// Issue 20's done-when, as one journey through real parts: with the app closed (no page of it open), a
// specialist's reply stored on the real server is pushed by the stack's push worker (Web Push, VAPID,
// aes128gcm) to a fake RFC 8030 push service, which hands it to the browser the way a push service's
// connection would (CDP ServiceWorker.deliverPushMessage with the decrypted payload); the real service
// worker shows exactly one notification on the desktop (a second reply replaces it: same tag), sets the
// app badge to the unread total, and a person's click on the notification (ActionInvoked on the
// desktop's notification server) opens the chat. Reading the chat clears the badge; a reply to the
// chat while it is on screen is not notified.
//
// Parts and how each is observed:
// - notifications: Chromium shows them through a stand-in desktop notification server on a private
//   D-Bus (push-desktop.ts): every Notify is recorded with the browser that called it, and the click is
//   the server's ActionInvoked signal, so `notificationclick` is a real, trusted event with a user
//   activation (clients.openWindow works), not a synthetic one.
// - the badge: the app is installed through CDP PWA.install and its badge read with
//   PWA.getOsAppState (Chromium's BadgeManager, what the launcher icon shows).
// - the push service: the page's PushManager.subscribe is replaced (the vendor's service cannot run
//   here) by one that names the fake service and keys this test holds, so the test can decrypt what
//   the server sent (RFC 8291) exactly as the browser would.
import { randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { expect, test, type BrowserContext, type CDPSession } from '@playwright/test';
import pg from 'pg';
import { readConfig } from '../supabase/local/config.ts';
import { startTestStack, type TestStack } from '../tests/helpers/stack.ts';
import { decryptPush, deviceKeys, startFakePushService, type DeviceKeys, type FakePushService } from '../tests/server/push-helpers.ts';
import { startDesktop, type Desktop } from './push-desktop.ts';
import { launchProfile, registrationId, signInActive } from './pwa-helpers.ts';

const ZUZANA = '00000000-0000-4000-8000-000000000015'; // a human specialist: no AI reply job reads the message

/** The page's PushManager, answering with a subscription at the fake push service (before any app script). */
function fakeSubscription(sub: { endpoint: string; p256dh: string; auth: string }): void {
  const KEY = 'e2e.fake-push';
  const make = (key: number[]) => ({
    endpoint: sub.endpoint,
    expirationTime: null,
    options: { userVisibleOnly: true, applicationServerKey: new Uint8Array(key).buffer },
    toJSON: () => ({ endpoint: sub.endpoint, keys: { p256dh: sub.p256dh, auth: sub.auth } }),
    unsubscribe: async () => {
      localStorage.removeItem(KEY);
      return true;
    },
  });
  PushManager.prototype.getSubscription = async function () {
    const raw = localStorage.getItem(KEY);
    return raw ? (make(JSON.parse(raw) as number[]) as unknown as PushSubscription) : null;
  };
  PushManager.prototype.subscribe = async function (opts?: PushSubscriptionOptionsInit) {
    const k = opts?.applicationServerKey;
    const bytes = k instanceof Uint8Array ? [...k] : k instanceof ArrayBuffer ? [...new Uint8Array(k)] : [];
    localStorage.setItem(KEY, JSON.stringify(bytes));
    return make(bytes) as unknown as PushSubscription;
  };
}

interface Device {
  name: string;
  profile: string;
  context: BrowserContext;
  keys: DeviceKeys;
  path: string;
  cdp: CDPSession;
  regId: string;
}

let stack: TestStack;
let fake: FakePushService;
let desktop: Desktop;
let pool: pg.Pool;

const service = () => ({ apikey: stack.keys.serviceRoleKey, Authorization: `Bearer ${stack.keys.serviceRoleKey}`, 'Content-Type': 'application/json' });

async function rest<T>(path: string, init: { method?: string; body?: unknown } = {}): Promise<T> {
  const res = await fetch(`${stack.url}/rest/v1/${path}`, {
    method: init.method ?? 'GET',
    headers: { ...service(), Prefer: 'return=representation' },
    body: init.body === undefined ? null : JSON.stringify(init.body),
  });
  expect(res.ok, await res.clone().text()).toBe(true);
  return (await res.json()) as T;
}

async function newUser(): Promise<{ id: string; email: string }> {
  const email = `upozornenie-${Date.now()}-${Math.floor(Math.random() * 1e6)}@poradna.test`;
  const res = await fetch(`${stack.url}/auth/v1/admin/users`, { method: 'POST', headers: service(), body: JSON.stringify({ email, password: 'poradna123', email_confirm: true }) });
  expect(res.ok, await res.clone().text()).toBe(true);
  return { id: ((await res.json()) as { id: string }).id, email };
}

/** A browser profile (a device) signed in with notifications allowed, registered at the fake service. */
async function openDevice(name: string, email: string, userId: string, registered: number): Promise<Device> {
  const profile = await mkdtemp(join(tmpdir(), `poradna-${name}-`));
  // HOME in the throwaway profile: installing the app writes its launcher entry and icons there
  // (~/.local/share), as a real install does, never into the machine's home.
  // NO_AT_BRIDGE: no accessibility bus is started on that session bus.
  const context = await launchProfile(profile, stack.url, { ...process.env, HOME: profile, NO_AT_BRIDGE: '1', DBUS_SESSION_BUS_ADDRESS: desktop.busAddress });
  await context.grantPermissions(['notifications'], { origin: stack.url });
  const keys = deviceKeys();
  const path = `/d/${name}-${randomUUID()}`;
  await context.addInitScript(fakeSubscription, { endpoint: fake.url + path, p256dh: keys.p256dh, auth: keys.auth });
  const page = context.pages()[0] ?? (await context.newPage());
  await signInActive(page, email);
  // R11.2: an open with permission registered this device.
  await expect.poll(async () => (await rest<{ endpoint: string }[]>(`push_subscriptions?select=endpoint&user_id=eq.${userId}`)).length, { timeout: 20_000 }).toBe(registered);
  const cdp = await context.newCDPSession(page);
  const regId = await registrationId(cdp, stack.url);
  return { name, profile, context, keys, path, cdp, regId };
}

/** Closes every page of the app, keeping one blank page to speak CDP through: the app is closed. */
async function closeApp(d: Device): Promise<void> {
  const blank = await d.context.newPage();
  for (const p of d.context.pages()) if (p !== blank) await p.close();
  d.cdp = await d.context.newCDPSession(blank);
  await d.cdp.send('ServiceWorker.enable');
  expect(d.context.pages().filter((p) => p.url().startsWith(stack.url))).toHaveLength(0);
}

const MANIFEST_ID = () => `${stack.url}/app/chats`;
const badgeOf = async (d: Device) => (await d.cdp.send('PWA.getOsAppState', { manifestId: MANIFEST_ID() })).badgeCount;

/** The push service's side: what reached the device's endpoint, decrypted as the browser would, then handed to it. */
async function relay(d: Device, n: number): Promise<Record<string, unknown>> {
  const got = await fake.waitFor(n, d.path);
  const body = decryptPush(got[n - 1]!.body, d.keys);
  await d.cdp.send('ServiceWorker.deliverPushMessage', { origin: stack.url, registrationId: d.regId, data: body });
  return JSON.parse(body) as Record<string, unknown>;
}

test.beforeAll(async () => {
  fake = await startFakePushService();
  stack = await startTestStack(
    { push: { ...readConfig({}).push, allowPrivateEndpoints: true }, ...(process.env.E2E_WEB_DIR ? { webDir: resolve(process.env.E2E_WEB_DIR) } : {}) },
    { functionEnv: { PUSH_CA_CERT: fake.caCert } },
  );
  pool = new pg.Pool({ connectionString: stack.databaseUrl, max: 2 });
  await pool.query('update private.push_settings set delay_seconds = 1');
  desktop = await startDesktop();
});

test.afterAll(async () => {
  await pool?.end();
  await stack?.destroy();
  await fake?.close();
  await desktop?.stop();
});

test('app closed: a specialist reply notifies each device once, the badge counts it, a click opens the chat, reading clears the badge', async () => {
  test.setTimeout(240_000);
  const user = await newUser();
  const link = await rest<{ account_id: string }[]>(`account_users?select=account_id&user_id=eq.${user.id}`);
  const conv = await rest<{ id: string }[]>('conversations', { method: 'POST', body: { account_id: link[0]!.account_id, specialist_id: ZUZANA } });
  const chatId = conv[0]!.id;
  const devices: Device[] = [];
  let installed: Device | null = null;
  try {
    devices.push(await openDevice('telefon', user.email, user.id, 1));
    devices.push(await openDevice('notebook', user.email, user.id, 2));
    const [phone, laptop] = devices as [Device, Device];
    // The app installed on the phone, so it has a launcher badge to read.
    await phone.cdp.send('PWA.install', { manifestId: MANIFEST_ID(), installUrlOrBundleUrl: `${stack.url}/app/chats` });
    installed = phone;
    for (const d of devices) await closeApp(d);
    const before = desktop.shown.length;

    // The specialist answers (stored on the real server as Chatwoot's webhook would store it).
    const text = `Dobrý deň, **pozrela** som sa na to ${Date.now()}.`;
    await rest('messages', { method: 'POST', body: { conversation_id: chatId, direction: 'specialist', source: 'chatwoot', type: 'text', text } });

    // R10.1: each device's endpoint got exactly one push; the worker on each shows it once (R11.4).
    const onPhone = await relay(phone, 1);
    await expect.poll(() => desktop.shown.length - before, { timeout: 15_000 }).toBe(1);
    const phoneNote = desktop.shown.at(-1)!;
    const onLaptop = await relay(laptop, 1);
    await expect.poll(() => desktop.shown.length - before, { timeout: 15_000 }).toBe(2);
    const shown = desktop.shown.slice(before);
    expect(shown[1]!.sender).not.toBe(phoneNote.sender); // one per browser, not two on one
    for (const p of [onPhone, onLaptop]) expect(p).toMatchObject({ type: 'message', conversationId: chatId, url: `/app/chats/${chatId}`, tag: `conversation:${chatId}` });
    for (const s of shown) {
      expect(s.summary).toBe(onPhone.title);
      expect(s.body).toContain('pozrela som sa na to'); // markdown stripped (R10.1)
      expect(s.actions).toContain('default'); // clickable as a whole
    }
    await new Promise((r) => setTimeout(r, 1500)); // a late duplicate would land within this
    expect(desktop.shown.length - before).toBe(2);
    expect(fake.requests.filter((r) => r.path === phone.path || r.path === laptop.path)).toHaveLength(2);

    // R11.5: the badge of the installed app is the unread total the push carried.
    expect(onPhone.unread).toBeGreaterThanOrEqual(1);
    await expect.poll(() => badgeOf(phone), { timeout: 10_000 }).toBe(onPhone.unread);

    // A second reply in the same chat: the phone's notification is replaced (same tag), not doubled,
    // and the badge counts both.
    await rest('messages', { method: 'POST', body: { conversation_id: chatId, direction: 'specialist', source: 'chatwoot', type: 'text', text: 'A posielam aj odkaz.' } });
    const again = await relay(phone, 2);
    await expect.poll(() => desktop.shown.length - before, { timeout: 15_000 }).toBe(3);
    expect(desktop.shown.at(-1)).toMatchObject({ replaces: phoneNote.id, id: phoneNote.id, sender: phoneNote.sender });
    expect(desktop.shown.at(-1)!.body).toContain('A posielam aj odkaz.');
    expect(again.unread).toBe(Number(onPhone.unread) + 1);
    await expect.poll(() => badgeOf(phone), { timeout: 10_000 }).toBe(again.unread);

    // R11.6: the person clicks the phone's notification: the worker opens the chat.
    const opened = phone.context.waitForEvent('page', { timeout: 20_000 });
    desktop.click(phoneNote.id);
    const chat = await opened;
    await chat.waitForURL(new RegExp(`/app/chats/${chatId}$`), { timeout: 20_000 });
    await expect(chat.getByTestId('message').filter({ hasText: 'pozrela' })).toBeVisible({ timeout: 20_000 });
    await expect.poll(() => desktop.closed.includes(phoneNote.id)).toBe(true); // the click closed it

    // Reading the chat clears the badge (the page keeps it at the local unread total).
    await expect.poll(() => badgeOf(phone), { timeout: 20_000 }).toBe(0);

    // R10.3: with the chat on screen, the next reply is seen in time: nothing is pushed to any device.
    const shownBefore = desktop.shown.length;
    const pushesBefore = fake.requests.length;
    await rest('messages', { method: 'POST', body: { conversation_id: chatId, direction: 'specialist', source: 'chatwoot', type: 'text', text: 'Ešte doplním jednu vec.' } });
    await expect(chat.getByTestId('message').filter({ hasText: 'Ešte doplním' })).toBeVisible({ timeout: 20_000 });
    await expect
      .poll(async () => (await pool.query<{ status: string }>(`select n.status from public.push_notifications n join public.messages m on m.id = n.message_id where m.text = 'Ešte doplním jednu vec.'`)).rows[0]?.status, { timeout: 20_000 })
      .toBe('seen');
    expect(fake.requests.length).toBe(pushesBefore);
    expect(desktop.shown.length).toBe(shownBefore);
  } finally {
    // Installed into the throwaway HOME; uninstall all the same (a failed run leaves nothing behind).
    if (installed) await installed.cdp.send('PWA.uninstall', { manifestId: MANIFEST_ID() }).catch(() => undefined);
    for (const d of devices) {
      await d.context.close();
      await rm(d.profile, { recursive: true, force: true });
    }
  }
});
