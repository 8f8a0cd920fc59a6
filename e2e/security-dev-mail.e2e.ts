// Issue 16 item 1, in a real browser: a page on another origin (a developer opens a hostile site while
// the stack runs) asks for the super admin's sign-in code through the API, which answers any origin,
// and then tries to read it from the dev mailbox. Chromium must not get the mail: the mailbox sends no
// CORS headers and refuses the cross-site request, so a CORS fetch fails and a no-cors fetch is opaque.
// The legit readers still work: the developer's own tab and Playwright's request context (which the
// auth journeys use).
import { createServer, type Server } from 'node:http';
import { expect, test } from '@playwright/test';

const ADMIN = 'admin@poradna.test';

/** The hostile page: served from another origin, it knows only the stack's URL (and reads /env.js). */
function hostilePage(): string {
  return `<!doctype html><html><head><meta charset="utf-8"><title>evil</title></head><body>
<script>
window.attack = async (stack) => {
  const out = {};
  const env = await fetch(stack + '/env.js').then((r) => r.text());
  const anonKey = /"publishableKey":"([^"]+)"/.exec(env)[1];
  const otp = await fetch(stack + '/auth/v1/otp', {
    method: 'POST',
    headers: { apikey: anonKey, 'content-type': 'application/json' },
    body: JSON.stringify({ email: '${ADMIN}', create_user: false }),
  });
  out.otpStatus = otp.status;
  try {
    const res = await fetch(stack + '/_dev/mail.json');
    out.cors = 'read:' + (await res.text());
  } catch (e) {
    out.cors = 'failed:' + e.name;
  }
  const opaque = await fetch(stack + '/_dev/mail.json', { mode: 'no-cors' });
  out.noCors = { type: opaque.type, status: opaque.status, body: await opaque.text() };
  return out;
};
</script></body></html>`;
}

function serve(host: string): Promise<{ server: Server; origin: string }> {
  const server = createServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    res.end(hostilePage());
  });
  return new Promise((resolve) => {
    server.listen(0, host, () => {
      const addr = server.address();
      const port = typeof addr === 'object' && addr ? addr.port : 0;
      resolve({ server, origin: `http://${host}:${port}` });
    });
  });
}

for (const [label, host] of [
  ['another site (127.0.0.2)', '127.0.0.2'],
  ['another port of the same host (same-site)', '127.0.0.1'],
] as const) {
  test(`a page on ${label} cannot read the dev mailbox`, async ({ page, baseURL, request }) => {
    const { server, origin } = await serve(host);
    try {
      const statuses: number[] = [];
      page.on('response', (r) => {
        if (r.url().includes('/_dev/mail.json')) statuses.push(r.status());
      });
      await page.goto(`${origin}/`);
      const out = await page.evaluate((stack) => (window as unknown as { attack: (s: string) => Promise<Record<string, unknown>> }).attack(stack), baseURL!);
      // The API itself answered (its CORS is Supabase's), so the code was mailed…
      expect(out.otpStatus).toBe(200);
      // …but the page cannot read it: CORS fails, no-cors is opaque and empty.
      expect(out.cors).toBe('failed:TypeError');
      expect(out.noCors).toEqual({ type: 'opaque', status: 0, body: '' });
      // And the server refused both requests outright (Chromium sends Sec-Fetch-Site and Origin).
      expect(statuses.length).toBeGreaterThan(0);
      for (const s of statuses) expect(s).toBe(403);
      // The mail is there for the legit reader (Playwright's request context, as e2e/auth.e2e.ts).
      const mails = (await (await request.get('/_dev/mail.json')).json()) as { to: string }[];
      expect(mails.some((m) => m.to === ADMIN)).toBe(true);
    } finally {
      await new Promise((r) => server.close(r));
    }
  });
}

test('the developer opening /_dev/mail in a tab still reads it', async ({ page }) => {
  const res = await page.goto('/_dev/mail');
  expect(res?.status()).toBe(200);
  await expect(page.getByRole('heading', { name: 'Odoslané e-maily' })).toBeVisible();
});
