// Issue 16 item 12 in Chromium: the app runs under its Content-Security-Policy with no violation
// (sign-in, the list, a chat, settings), an injected inline script is refused, another origin cannot
// frame the app nor keep a handle on it by opening it (Cross-Origin-Opener-Policy), and the service worker's list snapshot page (sw/list-snapshot.ts) runs under the same
// policy and still starts the app. (e2e/pwa-list-snapshot.e2e.ts proves the snapshot paints.)
import { createServer, type Server } from 'node:http';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test, type BrowserContext, type Page } from '@playwright/test';
import { signIn } from './defects-helpers.ts';
import { launchProfile, openFirstChat, signInControlled } from './pwa-helpers.ts';

type Violation = { directive: string; blocked: string };

/** Records every CSP violation of every page of the context, from the first script on. */
async function watchViolations(context: BrowserContext): Promise<string[]> {
  const console: string[] = [];
  await context.addInitScript(() => {
    const w = window as unknown as { __csp: Violation[] };
    w.__csp = [];
    document.addEventListener('securitypolicyviolation', (e) => w.__csp.push({ directive: e.violatedDirective, blocked: e.blockedURI }));
  });
  context.on('console', (m) => {
    if (/Content Security Policy|Refused to/i.test(m.text())) console.push(m.text());
  });
  return console;
}

const violations = (page: Page) => page.evaluate(() => (window as unknown as { __csp: Violation[] }).__csp);

function serve(html: string): Promise<{ server: Server; origin: string }> {
  const server = createServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    res.end(html);
  });
  return new Promise((resolve) => {
    server.listen(0, '127.0.0.2', () => {
      const addr = server.address();
      resolve({ server, origin: `http://127.0.0.2:${typeof addr === 'object' && addr ? addr.port : 0}` });
    });
  });
}

test('the app runs under its CSP with no violation, and an injected inline script is refused', async ({ page, context }) => {
  const consoleCsp = await watchViolations(context);
  const res = await page.goto('/auth/login');
  expect(res?.headers()['content-security-policy']).toContain("script-src 'self'");
  await signIn(page, 'demo@poradna.test', { navigate: false, lands: /\/app\/chats/ });
  await openFirstChat(page);
  expect(await violations(page)).toEqual([]);
  await page.goto('/app/settings');
  await expect(page.getByRole('button', { name: 'Odhlásiť sa', exact: true })).toBeVisible();
  expect(await violations(page)).toEqual([]);
  expect(consoleCsp).toEqual([]);

  // The attack: markup that slips past sanitising with an inline script or handler runs nothing.
  const ran = await page.evaluate(async () => {
    const w = window as unknown as { __pwned?: number };
    const s = document.createElement('script');
    s.textContent = 'window.__pwned = 1';
    document.body.append(s);
    const d = document.createElement('div');
    d.innerHTML = '<img src="data:image/gif;base64,R0lGODlhAQABAAAAACw=" onload="window.__pwned = 2">';
    document.body.append(d);
    await new Promise((r) => setTimeout(r, 300));
    return w.__pwned ?? null;
  });
  expect(ran).toBeNull();
  const refused = await violations(page);
  expect(refused.map((v) => v.directive)).toContain('script-src-elem');
});

test('another origin cannot frame the app', async ({ page, baseURL }) => {
  const { server, origin } = await serve(
    `<!doctype html><html><body><iframe id="f" src="${baseURL}/auth/login" width="360" height="600"></iframe></body></html>`,
  );
  try {
    const refusedMessages: string[] = [];
    page.on('console', (m) => {
      if (/frame-ancestors|X-Frame-Options|refused to connect/i.test(m.text())) refusedMessages.push(m.text());
    });
    await page.goto(`${origin}/`);
    await page.waitForTimeout(1500);
    // The frame holds Chromium's error page, never the app's sign-in form.
    const frame = page.frames().find((f) => f !== page.mainFrame());
    expect(frame).toBeDefined();
    expect(frame!.url()).not.toBe(`${baseURL}/auth/login`);
    expect(await page.frameLocator('#f').getByLabel('E-mail', { exact: true }).count()).toBe(0);
    expect(refusedMessages.length).toBeGreaterThan(0);
  } finally {
    await new Promise((r) => server.close(r));
  }
});

test('a page of another origin that opens the app keeps no handle on it', async ({ page, context, baseURL }) => {
  // The attacker's page opens the app in a window and tries to reach into it or steer it afterwards
  // (tabnabbing, counting frames, postMessage probing). COOP same-origin puts the app in a browsing
  // context group of its own: the attacker's handle reads as closed and the app has no opener.
  const { server, origin } = await serve('<!doctype html><html><body>evil</body></html>');
  try {
    await page.goto(`${origin}/`);
    const popupOpened = context.waitForEvent('page');
    await page.evaluate((url) => {
      (window as unknown as { w: Window | null }).w = window.open(url, 'poradna');
    }, `${baseURL}/auth/login`);
    const popup = await popupOpened;
    await expect(popup.getByLabel('E-mail', { exact: true })).toBeVisible();
    expect(await popup.evaluate(() => window.opener === null)).toBe(true);
    const handle = await page.evaluate(() => {
      const w = (window as unknown as { w: Window | null }).w;
      let frames: number;
      try {
        frames = w?.length ?? -1;
      } catch {
        frames = -2;
      }
      try {
        w?.location.assign('about:blank#steered');
      } catch {
        // refused: fine
      }
      return { closed: w?.closed ?? true, frames };
    });
    expect(handle.closed).toBe(true);
    expect(handle.frames).toBe(0);
    // The app's window was not steered by the attacker's handle.
    await popup.waitForTimeout(300);
    expect(popup.url()).toBe(`${baseURL}/auth/login`);
    await popup.close();
  } finally {
    server.close();
  }
});

test('the list snapshot page runs under the same policy and starts the app', async ({ baseURL }) => {
  const profile = await mkdtemp(join(tmpdir(), 'poradna-csp-'));
  const context = await launchProfile(profile, baseURL!);
  try {
    const consoleCsp = await watchViolations(context);
    const page = context.pages()[0] ?? (await context.newPage());
    await signInControlled(page);
    await expect(page.getByTestId('conversation-row').first()).toBeVisible();
    // The page saves the list's frame 1.5 s after it settles.
    await expect
      .poll(
        () =>
          page.evaluate(
            () =>
              new Promise<boolean>((resolve) => {
                const req = indexedDB.open('poradna-worker');
                req.onsuccess = () => {
                  const db = req.result;
                  if (!db.objectStoreNames.contains('kv')) return resolve(false);
                  const get = db.transaction('kv').objectStore('kv').get('list-snapshot');
                  get.onsuccess = () => resolve(get.result !== undefined);
                  get.onerror = () => resolve(false);
                };
                req.onerror = () => resolve(false);
              }),
          ),
        { timeout: 15_000 },
      )
      .toBe(true);
    const res = await page.goto('/app/chats');
    // Served by the worker with the snapshot painted in, and the shell's policy kept.
    expect(res?.fromServiceWorker()).toBe(true);
    expect(res?.headers()['content-security-policy']).toContain("script-src 'self'");
    expect(res?.headers()['content-security-policy']).toContain("frame-ancestors 'none'");
    expect(res?.headers()['cross-origin-opener-policy']).toBe('same-origin');
    expect(await res?.text()).toContain('id="list-snapshot"');
    // The external boot script started the app: the live list replaces the painting.
    await expect(page.getByTestId('conversation-row').first()).toBeVisible();
    await expect(page.locator('#list-snapshot')).toHaveCount(0);
    expect(await violations(page)).toEqual([]);
    expect(consoleCsp).toEqual([]);
  } finally {
    await context.close();
    await rm(profile, { recursive: true, force: true });
  }
});
