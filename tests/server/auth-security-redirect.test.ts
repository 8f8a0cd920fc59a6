// Issue 16 item 7, open redirect: a mailed link (GET /auth/v1/verify) may send the browser only to
// the site's own origin or to a REDIRECT_ALLOW_LIST entry, however the redirect_to is spelled. The
// corpus holds spellings a browser reads as another host (tab/CR/LF dropped, "\" read as "/",
// protocol-relative, userinfo, decimal IPs, look-alike hosts). Every answer must be a 303 whose
// Location, parsed as the browser parses it, stays on the allowed origin.
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { anonClient, uniqueEmail } from '../helpers/clients.ts';
import { startTestStack, type TestStack } from '../helpers/stack.ts';
import { latestMail } from './auth-helpers.ts';

const stack = inject('stack');

/** Raw redirect_to values (before URL encoding) that must never leave the site. */
function corpus(origin: string): string[] {
  const host = new URL(origin).host;
  return [
    '/\t/evil.example/',
    '/\n/evil.example/',
    '/\r/evil.example/',
    '\t//evil.example/',
    ' //evil.example/',
    '//evil.example/',
    '///evil.example/',
    '/\\evil.example/',
    '\\\\evil.example/',
    '\\/evil.example/',
    '/\\/evil.example/',
    'https://evil.example/',
    'http://evil.example/',
    'https:/\\evil.example/',
    'http:\\\\evil.example/',
    'HTTPS://EVIL.EXAMPLE/',
    `${origin}@evil.example/`,
    `http://${host}@evil.example/`,
    `http://user:pass@${host}/`,
    `${origin}.evil.example/`,
    `https://evil.example/${origin}`,
    `https://evil.example?${origin}`,
    'http://2130706433/',
    'http://0x7f000001/',
    'http://[::1]/',
    'javascript:alert(document.domain)',
    'JaVaScRiPt:alert(1)',
    'java\tscript:alert(1)',
    'data:text/html,<script>alert(1)</script>',
    'vbscript:msgbox(1)',
    'file:///etc/passwd',
    '/%2F%2Fevil.example/',
  ];
}

async function locationFor(base: string, redirectTo: string): Promise<URL> {
  const q = new URLSearchParams({ type: 'magiclink', token: 'x', redirect_to: redirectTo });
  const res = await fetch(`${base}/auth/v1/verify?${q.toString()}`, { redirect: 'manual' });
  expect(res.status).toBe(303);
  // Resolved against the request URL, exactly as a browser resolves a Location header.
  return new URL(res.headers.get('location')!, `${base}/auth/v1/verify`);
}

describe('open redirect through the mailed link (default: only the site origin)', () => {
  it('the issue\'s exploit /%09/evil.example/ stays on the site', async () => {
    const res = await fetch(`${stack.url}/auth/v1/verify?type=magiclink&token=x&redirect_to=/%09/evil.example/`, { redirect: 'manual' });
    expect(res.status).toBe(303);
    const to = new URL(res.headers.get('location')!, stack.url);
    expect(to.origin).toBe(new URL(stack.url).origin);
    expect(to.hostname).not.toBe('evil.example');
  });

  it('no spelling in the bypass corpus leaves the site origin', async () => {
    const origin = new URL(stack.url).origin;
    const escaped: string[] = [];
    for (const raw of corpus(origin)) {
      const to = await locationFor(stack.url, raw);
      if (to.origin !== origin || to.username || to.password) escaped.push(`${JSON.stringify(raw)} -> ${to.href}`);
    }
    expect(escaped).toEqual([]);
  });

  it('keeps a path on the site and the link mailed by /otp carries only the checked URL', async () => {
    const ok = await locationFor(stack.url, '/auth/callback?next=%2Fchat');
    expect(ok.pathname).toBe('/auth/callback');
    expect(ok.searchParams.get('next')).toBe('/chat');
    const email = uniqueEmail('redir');
    const res = await fetch(`${stack.url}/auth/v1/otp?redirect_to=${encodeURIComponent('/\t/evil.example/')}`, {
      method: 'POST',
      headers: { apikey: stack.anonKey, 'content-type': 'application/json' },
      body: JSON.stringify({ email }),
    });
    expect(res.status).toBe(200);
    const link = new URL((await latestMail(stack, email)).links[0]!);
    expect(new URL(link.searchParams.get('redirect_to')!).origin).toBe(new URL(stack.url).origin);
    await anonClient(stack).auth.signOut();
  });
});

describe('REDIRECT_ALLOW_LIST (GoTrue URI_ALLOW_LIST globs)', () => {
  let listed: TestStack;
  beforeAll(async () => {
    listed = await startTestStack({ redirectAllowList: ['https://app.example.com/**', 'https://*.preview.example.com/auth/*'] });
  });
  afterAll(async () => {
    await listed.destroy();
  });

  it('allows listed URLs and refuses look-alikes and the corpus', async () => {
    const page = (u: URL) => u.origin + u.pathname;
    expect(page(await locationFor(listed.url, 'https://app.example.com/auth/callback'))).toBe('https://app.example.com/auth/callback');
    expect(page(await locationFor(listed.url, 'https://pr-7.preview.example.com/auth/callback'))).toBe(
      'https://pr-7.preview.example.com/auth/callback',
    );
    const origin = new URL(listed.url).origin;
    const refused = [
      'https://app.example.com.evil.example/',
      'https://evil.example/https://app.example.com/',
      'https://app.example.com@evil.example/',
      'https://user@app.example.com/',
      'http://app.example.com/',
      'https://a.b.preview.example.com/auth/callback',
      'https://pr-7.preview.example.com/auth/deeper/path',
      '/\t/app.example.com.evil.example/',
      ...corpus(origin),
    ];
    const escaped: string[] = [];
    for (const raw of refused) {
      const to = await locationFor(listed.url, raw);
      if (to.origin !== origin) escaped.push(`${JSON.stringify(raw)} -> ${to.href}`);
    }
    expect(escaped).toEqual([]);
  });
});
