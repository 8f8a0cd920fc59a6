// Signed in without the login screen, for journeys whose subject is what comes after the sign-in
// (issue 42: the login screen and the chat list it lands on cost ~1.5 CPU-s of Chromium a journey,
// about a third of a journey's browser work). The session is a real one, asked of the stack's auth
// server with the password, as the login screen asks it, and stored where supabase-js keeps it; the
// app then starts as it does for a returning user (main.tsx: a stored session; the service worker
// installed). Each call signs in
// anew, so a journey that signs out or revokes its session touches no other journey's.
// The login screen itself stays covered where it is the subject (auth.e2e.ts, the PWA journeys that
// sign in until the service worker controls the page, security-headers.e2e.ts) and in the journeys
// that still sign in through it.
import { expect, type Page } from '@playwright/test';

export interface StoredSessionOptions {
  /** Default 'poradna123' (every seeded user's and freshUser's). */
  password?: string;
  /** The origin to sign in on (default: the page's baseURL). */
  origin?: string;
}

/**
 * Leaves the page on a same-origin document that is not the app (the stack's /env.js), holding a
 * fresh session of this user in localStorage under supabase-js's key, and the app's service worker
 * active. The next navigation into the app finds both. /env.js is read as text, so the app and its
 * sync engine do not start here.
 */
export async function storeSession(page: Page, email: string, options: StoredSessionOptions = {}): Promise<void> {
  const { password = 'poradna123', origin = '' } = options;
  const response = await page.goto(`${origin}/env.js`);
  expect(response?.ok(), 'the stack serves /env.js').toBe(true);
  const script = await response!.text();
  const supabaseUrl = /"supabaseUrl"\s*:\s*"([^"]+)"/.exec(script)?.[1];
  // The browser's key, as src/env.ts picks it: publishableKey (today's stack) or anonKey (an older one).
  const anonKey = /"(?:publishableKey|anonKey)"\s*:\s*"([^"]+)"/.exec(script)?.[1];
  expect(supabaseUrl && anonKey, `supabaseUrl and a key in /env.js: ${script.slice(0, 200)}`).toBeTruthy();
  const res = await fetch(`${supabaseUrl!}/auth/v1/token?grant_type=password`, {
    method: 'POST',
    headers: { apikey: anonKey!, Authorization: `Bearer ${anonKey!}`, 'Content-Type': 'application/json' },
    body: JSON.stringify({ email, password }),
  });
  expect(res.ok, `sign-in of ${email}: ${await res.clone().text()}`).toBe(true);
  const session = (await res.json()) as { expires_in: number; expires_at?: number };
  // What supabase-js stores after a password sign-in: the token response with expires_at added.
  session.expires_at ??= Math.round(Date.now() / 1000) + session.expires_in;
  // supabase-js's default storage key (SupabaseClient: sb-<first label of the backend's host>-auth-token).
  const key = `sb-${new URL(supabaseUrl!).hostname.split('.')[0]}-auth-token`;
  await page.evaluate(([k, v]) => localStorage.setItem(k, v), [key, JSON.stringify(session)] as const);
  // A returning user's browser holds the app's service worker too (register-sw.ts: /sw.js, scope /),
  // and on the login path it was installed before the journey's page opened, which the sign-in's
  // navigation then left: without it here, the first install's toast ('…pripravená aj na prácu bez
  // pripojenia.') would open over the journey's page (axe saw it mid-fade; it covered the typing dots).
  await page.evaluate(async () => {
    await navigator.serviceWorker.register('/sw.js', { scope: '/' });
  });
  // Bounded (an evaluate of `navigator.serviceWorker.ready` is not): a worker that never activates fails here.
  await expect
    .poll(() => page.evaluate(async () => !!(await navigator.serviceWorker.getRegistration('/'))?.active), { timeout: 30_000, message: 'the service worker activates' })
    .toBe(true);
}

/** storeSession, then opens `path` (on `origin`, default the baseURL) in the app. */
export async function openSignedIn(page: Page, email: string, path: string, options: StoredSessionOptions = {}): Promise<void> {
  await storeSession(page, email, options);
  await page.goto(`${options.origin ?? ''}${path}`);
}
