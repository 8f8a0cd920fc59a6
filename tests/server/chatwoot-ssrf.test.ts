// Issue 16 item 5: SSRF and token leak through the Chatwoot base URL. A stolen super-admin session (or
// a careless admin) could point api_base_url at the server's own network: the functions then sent the
// secret api_access_token to that listener and returned an internal page's body. Now, by default,
// only https on public addresses is fetched, every redirect hop is checked, the token never goes to
// another origin, and saving a refused URL answers a Slovak 400. CHATWOOT_ALLOW_PRIVATE_URLS=1 is
// the explicit opt-in (the Chatwoot double in the other tests uses it).
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isPublicAddress } from '../../supabase/functions/_shared/chatwoot/address.ts';
import { ChatwootUrlRefused, guardedFetch, URL_MESSAGES } from '../../supabase/functions/_shared/chatwoot/guarded-fetch.ts';
import { startTestStack, type TestStack } from '../helpers/stack.ts';
import { SEEDED, call, refOf, signIn, sql, type Client, type StackRef } from './functions-helpers.ts';

const TOKEN = 'ssrf-canary-token-0123456789abcdef';
const INTERNAL_BODY = 'INTERNAL-ONLY-PAGE root:x:0:0';

interface Listener {
  url: string;
  port: number;
  hits: Array<{ path: string; headers: IncomingHttpHeaders }>;
  close(): Promise<void>;
}

/** A loopback HTTP server standing for an internal service; records every request it gets. */
async function listener(reply: (path: string) => { status: number; headers?: Record<string, string>; body: string }): Promise<Listener> {
  const hits: Listener['hits'] = [];
  const server: Server = createServer((req, res) => {
    hits.push({ path: req.url ?? '', headers: req.headers });
    const r = reply(req.url ?? '');
    res.writeHead(r.status, { 'content-type': 'application/json', ...r.headers });
    res.end(r.body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return { url: `http://127.0.0.1:${port}`, port, hits, close: () => new Promise((r) => server.close(() => r())) };
}

const internal = () => listener(() => ({ status: 200, body: JSON.stringify({ payload: [], secret: INTERNAL_BODY }) }));

async function setBase(ref: StackRef, url: string): Promise<void> {
  // Straight into the table, as a REST write with a stolen admin session would: the check at use must hold.
  await sql(ref, 'delete from public.chatwoot_config');
  await sql(ref, 'insert into public.chatwoot_config (api_base_url, account_id) values ($1, 1)', [url]);
}

describe('default policy: https on public addresses only (through the real stack)', () => {
  let stack: TestStack;
  let ref: StackRef;
  let admin: Client;
  let inside: Listener;

  beforeAll(async () => {
    stack = await startTestStack({}, { functionEnv: { CHATWOOT_API_TOKEN: TOKEN } });
    ref = refOf(stack);
    admin = await signIn(ref, SEEDED.admin);
    inside = await internal();
  });
  afterAll(async () => {
    await inside?.close();
    await stack?.stop();
  });

  it.each([
    ['plain http on loopback', (l: Listener) => l.url],
    ['https on loopback', (l: Listener) => `https://127.0.0.1:${l.port}`],
    ['localhost by name', (l: Listener) => `https://localhost:${l.port}`],
    ['IPv4-mapped IPv6 loopback', (l: Listener) => `https://[::ffff:127.0.0.1]:${l.port}`],
    ['decimal IPv4 loopback', (l: Listener) => `https://2130706433:${l.port}`],
    ['cloud metadata', () => 'https://169.254.169.254/latest/meta-data'],
  ])('%s: the listener gets no request, no token, and no internal body comes back', async (_, base) => {
    await setBase(ref, base(inside));
    for (const fn of ['admin-chatwoot-inboxes', 'admin-chatwoot-conversations']) {
      const r = await call(admin, fn, {});
      expect(r.status).toBe(502);
      expect(r.body.success).toBe(false);
      expect(String(r.body.error)).toMatch(/^Chatwoot URL bola odmietnutá: /);
      expect(JSON.stringify(r.body)).not.toContain(INTERNAL_BODY);
    }
    expect(inside.hits).toEqual([]);
  });

  it('saving a refused URL answers 400 with a Slovak reason and leaves the row alone', async () => {
    await setBase(ref, 'https://chatwoot.example.com');
    const cases: Array<[string, string]> = [
      [inside.url, URL_MESSAGES.notHttps],
      [`https://127.0.0.1:${inside.port}`, URL_MESSAGES.private],
      ['https://10.1.2.3', URL_MESSAGES.private],
      ['https://100.64.0.1', URL_MESSAGES.private],
      ['https://[fd00::1]', URL_MESSAGES.private],
      ['https://[fe80::1]', URL_MESSAGES.private],
      // Issue 36 info row: every IPv6 spelling of an internal IPv4 address.
      ['https://[::127.0.0.1]', URL_MESSAGES.private],
      ['https://[::7f00:1]', URL_MESSAGES.private],
      ['https://[::ffff:7f00:1]', URL_MESSAGES.private],
      ['https://[0:0:0:0:0:ffff:127.0.0.1]', URL_MESSAGES.private],
      ['https://[::ffff:0:7f00:1]', URL_MESSAGES.private],
      ['https://[::a9fe:a9fe]', URL_MESSAGES.private],
      ['https://[64:ff9b:1::a00:1]', URL_MESSAGES.private],
      ['https://[100::1]', URL_MESSAGES.private],
      ['https://user:pw@chatwoot.example.com', URL_MESSAGES.credentials],
      ['not a url', URL_MESSAGES.invalid],
      ['file:///etc/passwd', URL_MESSAGES.invalid],
    ];
    for (const [url, message] of cases) {
      const r = await call(admin, 'admin-chatwoot-config', { api_base_url: url, account_id: 1 });
      expect(r, url).toEqual({ status: 400, body: { success: false, error: message } });
    }
    expect(await sql(ref, 'select api_base_url from public.chatwoot_config')).toEqual([{ api_base_url: 'https://chatwoot.example.com' }]);
    expect(inside.hits).toEqual([]);
  });

  it('a member cannot save the config at all', async () => {
    const member = await signIn(ref, SEEDED.demo);
    const r = await call(member, 'admin-chatwoot-config', { api_base_url: 'https://chatwoot.example.com', account_id: 1 });
    expect(r.status).toBe(403);
  });
});

describe('opt-in CHATWOOT_ALLOW_PRIVATE_URLS=1 (through the real stack)', () => {
  let stack: TestStack;
  let ref: StackRef;
  let admin: Client;
  let other: Listener;
  let home: Listener;

  beforeAll(async () => {
    stack = await startTestStack({}, { functionEnv: { CHATWOOT_API_TOKEN: TOKEN, CHATWOOT_ALLOW_PRIVATE_URLS: '1' } });
    ref = refOf(stack);
    admin = await signIn(ref, SEEDED.admin);
    other = await internal();
    // "Chatwoot" that redirects every API call to another origin.
    home = await listener((path) => ({ status: 302, headers: { location: `${other.url}${path}` }, body: '' }));
  });
  afterAll(async () => {
    await home?.close();
    await other?.close();
    await stack?.stop();
  });

  it('saves a private URL, and the page may still not save garbage', async () => {
    const ok = await call(admin, 'admin-chatwoot-config', { api_base_url: `${home.url}/`, account_id: '7' });
    expect(ok.status).toBe(200);
    expect(ok.body.config).toMatchObject({ api_base_url: home.url, account_id: 7 });
    expect(await call(admin, 'admin-chatwoot-config', { api_base_url: 'nie je url', account_id: 7 })).toEqual({
      status: 400,
      body: { success: false, error: URL_MESSAGES.invalid },
    });
    expect((await call(admin, 'admin-chatwoot-config', { api_base_url: home.url, account_id: 'abc' })).status).toBe(400);
  });

  it('the token goes to the configured origin only, never along a redirect to another host', async () => {
    await call(admin, 'admin-chatwoot-config', { api_base_url: home.url, account_id: 7 });
    await call(admin, 'admin-chatwoot-inboxes', {});
    expect(home.hits.at(-1)?.headers['api_access_token']).toBe(TOKEN);
    expect(other.hits.length).toBeGreaterThan(0);
    for (const h of other.hits) expect(h.headers['api_access_token']).toBeUndefined();
  });
});

describe('guardedFetch redirects (public names through an injected resolver)', () => {
  const resolve = async (host: string) => (({ 'chatwoot.example': ['93.184.216.34'], 'cdn.example': ['2606:4700::1'], 'evil.example': ['127.0.0.1', '93.184.216.35'] }) as Record<string, string[]>)[host] ?? [];
  const policy = { allowPrivate: false, resolve };

  function fakeFetch(routes: Record<string, { status: number; location?: string }>) {
    const calls: Array<{ url: string; headers: Record<string, string> }> = [];
    const impl = (async (input: string | URL | Request, init?: RequestInit) => {
      const url = input instanceof Request ? input.url : input.toString();
      calls.push({ url, headers: { ...(init?.headers as Record<string, string>) } });
      const r = routes[url] ?? { status: 200 };
      return new Response(r.status >= 300 && r.status < 400 ? null : '{}', { status: r.status, headers: r.location ? { location: r.location } : {} });
    }) as typeof fetch;
    return { calls, impl };
  }

  it.each([
    ['to loopback over http', 'http://127.0.0.1:8080/x'],
    ['to loopback over https', 'https://127.0.0.1/x'],
    ['to cloud metadata', 'https://169.254.169.254/latest/meta-data/'],
    ['to a private network', 'https://192.168.1.1/'],
    ['to a name that also resolves to loopback', 'https://evil.example/'],
    ['to IPv6 loopback', 'https://[::1]/'],
    ['to NAT64-embedded private IPv4', 'https://[64:ff9b::a00:1]/'],
  ])('a redirect %s is refused before it is requested', async (_, location) => {
    const f = fakeFetch({ 'https://chatwoot.example/api': { status: 302, location } });
    const run = guardedFetch('https://chatwoot.example', 'https://chatwoot.example/api', { method: 'GET', headers: { api_access_token: TOKEN } }, policy, f.impl);
    await expect(run).rejects.toBeInstanceOf(ChatwootUrlRefused);
    expect(f.calls.map((c) => c.url)).toEqual(['https://chatwoot.example/api']);
  });

  it('a redirect to another public host is followed without the token; a long chain is cut', async () => {
    const f = fakeFetch({ 'https://chatwoot.example/api': { status: 307, location: 'https://cdn.example/file' } });
    const res = await guardedFetch('https://chatwoot.example', 'https://chatwoot.example/api', { method: 'GET', headers: { api_access_token: TOKEN } }, policy, f.impl);
    expect(res.status).toBe(200);
    expect(f.calls.map((c) => [c.url, c.headers['api_access_token']])).toEqual([
      ['https://chatwoot.example/api', TOKEN],
      ['https://cdn.example/file', undefined],
    ]);
    const loop = fakeFetch({ 'https://chatwoot.example/a': { status: 302, location: '/a' } });
    await expect(guardedFetch('https://chatwoot.example', 'https://chatwoot.example/a', { method: 'GET', headers: {} }, policy, loop.impl)).rejects.toThrow(URL_MESSAGES.redirects);
  });
});

describe('isPublicAddress', () => {
  it.each(['127.0.0.1', '10.0.0.1', '172.16.0.1', '172.31.255.255', '192.168.0.1', '169.254.169.254', '100.64.0.1', '100.127.255.255', '0.0.0.0', '224.0.0.1', '255.255.255.255', '::', '::1', '::ffff:127.0.0.1', '::ffff:7f00:1', '::ffff:10.0.0.1', 'fc00::1', 'fd12:3456::1', 'fe80::1%eth0', 'ff02::1', '64:ff9b::7f00:1', '2002:a00:1::', '2001:db8::1', '::127.0.0.1', '::7f00:1', '::ffff:0:7f00:1', '64:ff9b:1::808:808', '100::1', '3fff::1', 'nonsense', ''])('%s is not public', (ip) => {
    expect(isPublicAddress(ip)).toBe(false);
  });
  it.each(['93.184.216.34', '8.8.8.8', '172.32.0.1', '100.128.0.1', '2606:4700::1111', '2a00:1450:4001::200e', '::ffff:8.8.8.8', '64:ff9b::808:808', '2002:808:808::1'])('%s is public', (ip) => {
    expect(isPublicAddress(ip)).toBe(true);
  });
});
