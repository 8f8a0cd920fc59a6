// Shared steps of the defects-*.e2e.ts journeys (issue 21): a fresh user per journey (so the
// first-conversation path runs) and screenshots at the phone and desktop widths; and signIn, the one
// copy of the login-screen steps for the journeys that sign in through it (auth, lists, pwa…; the
// ones whose subject comes after the sign-in start from a stored session: stored-session.ts).
import { expect, type Page } from '@playwright/test';

export const SHOTS = 'e2e/artifacts/screenshots';
export const PHONE = { width: 390, height: 844 };
export const DESKTOP = { width: 1280, height: 800 };

/** The service-role key of the suite's stack, or of a journey's own stack when it names one. */
function serviceHeaders(key = process.env.E2E_SERVICE_KEY ?? ''): Record<string, string> {
  return { apikey: key, Authorization: `Bearer ${key}`, 'Content-Type': 'application/json' };
}

/** A confirmed user with password 'poradna123' through GoTrue's admin API (the signup trigger gives it an account). */
export async function freshUser(baseURL: string, prefix: string, serviceKey?: string): Promise<{ email: string; id: string }> {
  const email = `${prefix}-${Date.now()}-${Math.floor(Math.random() * 1e6)}@poradna.test`;
  const res = await fetch(`${baseURL}/auth/v1/admin/users`, {
    method: 'POST',
    headers: serviceHeaders(serviceKey),
    body: JSON.stringify({ email, password: 'poradna123', email_confirm: true }),
  });
  expect(res.ok, await res.clone().text()).toBe(true);
  const body = (await res.json()) as { id: string };
  return { email, id: body.id };
}

/** PostgREST as service_role (seeding rows a journey needs). */
export async function rest(baseURL: string, path: string, init: { method?: string; body?: unknown; prefer?: string; serviceKey?: string | undefined } = {}): Promise<unknown> {
  const res = await fetch(`${baseURL}/rest/v1/${path}`, {
    method: init.method ?? 'GET',
    headers: { ...serviceHeaders(init.serviceKey), Prefer: init.prefer ?? 'return=representation' },
    body: init.body === undefined ? null : JSON.stringify(init.body),
  });
  expect(res.ok, await res.clone().text()).toBe(true);
  const text = await res.text();
  return text ? (JSON.parse(text) as unknown) : null;
}

/**
 * A fresh user with a conversation of their own account with a human specialist, opened by the
 * specialist's greeting (so a chat screen has a message to wait for).
 */
export async function freshChat(baseURL: string, prefix: string, serviceKey?: string): Promise<{ user: { email: string; id: string }; accountId: string; conversationId: string }> {
  const user = await freshUser(baseURL, prefix, serviceKey);
  const link = (await rest(baseURL, `account_users?select=account_id&user_id=eq.${user.id}`, { serviceKey })) as { account_id: string }[];
  const accountId = link[0]!.account_id;
  const conv = (await rest(baseURL, 'conversations', { method: 'POST', body: { account_id: accountId, specialist_id: '00000000-0000-4000-8000-000000000015' }, serviceKey })) as { id: string }[];
  const conversationId = conv[0]!.id;
  await rest(baseURL, 'messages', { method: 'POST', prefer: 'return=minimal', body: { conversation_id: conversationId, direction: 'specialist', source: 'chatwoot', text: 'Dobrý deň, ako vám pomôžem?' }, serviceKey });
  return { user, accountId, conversationId };
}

export interface SignInOptions {
  /** Default 'poradna123' (every seeded user's and freshUser's). */
  password?: string;
  /** The origin whose login page to open (default: the page's baseURL). */
  origin?: string;
  /** false: the page is already on the login screen (a guarded route sent it there, or the caller
   *  checked the login page's own response), so the form is filled where it stands. */
  navigate?: boolean;
  /** Where a sign-in must land (default any /app/ screen); false: only submit, the caller checks the
   *  outcome (a refused password stays on the login screen). */
  lands?: RegExp | false;
  /** How long landing may take (default 30 s: a sign-in is a round trip to the auth server and the
   *  app's boot, and a loaded CI machine can take longer than the config's 10 s expect timeout; what
   *  these journeys check comes after it). */
  timeout?: number;
}

/**
 * Signs in through the login screen: the one copy of the form steps every journey uses, so a change
 * to the login screen's labels is made here once. Ends when the URL matches `lands` (bounded, so a
 * refused sign-in fails here by name rather than at the journey's next step).
 */
export async function signIn(page: Page, email: string, options: SignInOptions = {}): Promise<void> {
  const { password = 'poradna123', origin = '', navigate = true, lands = /\/app\//, timeout = 30_000 } = options;
  if (navigate) await page.goto(`${origin}/auth/login`);
  await page.getByLabel('E-mail', { exact: true }).fill(email);
  await page.getByLabel('Heslo', { exact: true }).fill(password);
  await page.getByRole('button', { name: 'Prihlásiť', exact: true }).click();
  if (lands) await expect(page).toHaveURL(lands, { timeout });
}

/** Screenshots of the current screen at 390 × 844 and 1280 × 800 (named `<name>-phone/desktop.png`), back to the phone size. */
export async function shootBoth(page: Page, name: string): Promise<void> {
  await page.setViewportSize(DESKTOP);
  await page.screenshot({ path: `${SHOTS}/${name}-desktop.png`, animations: 'disabled' });
  await page.setViewportSize(PHONE);
  await page.screenshot({ path: `${SHOTS}/${name}-phone.png`, animations: 'disabled' });
}

/**
 * The chat's composer takes a send now (its form's mode 'ready'). An enabled textarea alone does not
 * say so: it is typeable while the chat still opens ('loading'). And the demo account is shared by
 * journeys running side by side, so another journey's question to the same AI specialist can keep
 * this device's composer 'waiting' until that answer comes (or the 30 s typing timeout, R13).
 */
export async function composerReady(page: Page): Promise<void> {
  await expect(page.locator('form[data-mode="ready"]')).toBeVisible({ timeout: 35_000 });
}
