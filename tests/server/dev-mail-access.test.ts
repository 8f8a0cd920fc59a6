// Issue 16 item 1: the dev mailbox is not an account-takeover service. The attack: ask for a sign-in
// code for the super admin (POST /auth/v1/otp) and read it from /_dev/mail.json — from another
// machine, from a page on another origin (CORS, a foreign Origin, Sec-Fetch-Site, DNS rebinding), or
// from behind a proxy; and on a stack that really sends mail or runs in production. Every attempt is
// refused through the real stack, while this machine's own tools still read it. Issue 36 N1: behind a
// plain TCP forwarder (socat, ssh -L, nginx's proxy_pass without forwarding headers) every client is a
// loopback peer with no proxy header, so a stack whose HOST or PUBLIC_URL is not this machine opens
// the mailbox only to the token its start banner prints.
// (The browser half — a page on another origin cannot read it — is e2e/security-dev-mail.e2e.ts.)
import { request as httpRequest } from 'node:http';
import { createServer as createTcpServer, connect, type Server as TcpServer, type Socket } from 'node:net';
import { networkInterfaces } from 'node:os';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { devMailMode, readConfig } from '../../supabase/local/config.ts';
import { startAttackStack } from '../helpers/configured.ts';
import type { TestStack } from '../helpers/stack.ts';

const shared = inject('stack');
const ADMIN = 'admin@poradna.test';

interface Raw {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

/** A request with exactly these headers (fetch would refuse to set Host or Sec-Fetch-Site). */
function raw(url: string, headers: Record<string, string> = {}, method = 'GET'): Promise<Raw> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(url, { method, headers }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (d: string) => (body += d));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
    });
    req.on('error', reject);
    req.end();
  });
}

/** This machine's first non-loopback IPv4 address (a request to it arrives from that address). */
function externalAddress(): string | undefined {
  for (const list of Object.values(networkInterfaces())) {
    for (const a of list ?? []) if (a.family === 'IPv4' && !a.internal) return a.address;
  }
  return undefined;
}

async function requestAdminCode(url: string, anonKey: string): Promise<void> {
  const res = await fetch(`${url}/auth/v1/otp`, {
    method: 'POST',
    headers: { apikey: anonKey, 'content-type': 'application/json' },
    body: JSON.stringify({ email: ADMIN, create_user: false }),
  });
  expect(res.status).toBe(200);
}

function expectRefused(res: Raw, status: 403 | 404): void {
  expect(res.status).toBe(status);
  expect(res.headers['access-control-allow-origin']).toBeUndefined();
  const body = JSON.parse(res.body) as { message: string };
  expect(body.message).toMatch(/dev mailbox|dev route/i);
  expect(res.body).not.toContain(ADMIN);
}

describe('the dev mailbox on a developer machine (loopback)', () => {
  it('is read by this machine’s own tools, with no CORS headers', async () => {
    await requestAdminCode(shared.url, shared.anonKey);
    const res = await raw(`${shared.url}/_dev/mail.json`);
    expect(res.status).toBe(200);
    expect(res.body).toContain(ADMIN);
    expect(res.headers['access-control-allow-origin']).toBeUndefined();
    expect(res.headers['cache-control']).toBe('no-store');
    const page = await raw(`${shared.url}/_dev/mail`, { 'sec-fetch-site': 'none' });
    expect(page.status).toBe(200);
    expect(page.body).toContain('Odoslané e-maily');
    // The browser's own same-origin requests pass too.
    const same = await raw(`${shared.url}/_dev/mail.json`, { origin: shared.url, 'sec-fetch-site': 'same-origin' });
    expect(same.status).toBe(200);
  });

  it('refuses a foreign Origin, a cross-site or same-site fetch, and answers a CORS preflight with nothing', async () => {
    await requestAdminCode(shared.url, shared.anonKey);
    for (const headers of [
      { origin: 'http://evil.example' },
      { origin: 'null' },
      { origin: 'http://localhost:5999' },
      { 'sec-fetch-site': 'cross-site' },
      { 'sec-fetch-site': 'same-site' },
    ]) {
      expectRefused(await raw(`${shared.url}/_dev/mail.json`, headers), 403);
      expectRefused(await raw(`${shared.url}/_dev/mail`, headers), 403);
    }
    const preflight = await raw(
      `${shared.url}/_dev/mail.json`,
      { origin: 'http://evil.example', 'access-control-request-method': 'GET' },
      'OPTIONS',
    );
    expect(preflight.headers['access-control-allow-origin']).toBeUndefined();
    expect(preflight.headers['access-control-allow-methods']).toBeUndefined();
    // The API keeps its CORS (supabase-js from any origin), only /_dev lost it.
    const api = await raw(`${shared.url}/auth/v1/health`, { origin: 'http://evil.example' });
    expect(api.headers['access-control-allow-origin']).toBe('*');
  });

  it('gives no other spelling of the path a way around the checks', async () => {
    await requestAdminCode(shared.url, shared.anonKey);
    for (const path of ['/%5Fdev/mail.json', '/%5fdev/mail.json', '/_dev/mail%2Ejson', '//_dev/mail.json', '/_dev//mail.json', '/_DEV/mail.json', '/_dev/./mail.json', '/x/../_dev/mail.json']) {
      const res = await raw(`${shared.url}${path}`, { origin: 'http://evil.example', 'sec-fetch-site': 'cross-site' });
      expect(res.body, path).not.toContain(ADMIN);
    }
  });

  it('refuses a Host that does not name this machine (DNS rebinding)', async () => {
    const port = new URL(shared.url).port;
    expectRefused(await raw(`${shared.url}/_dev/mail.json`, { host: `evil.example:${port}` }), 403);
    expect((await raw(`${shared.url}/_dev/mail.json`, { host: `localhost:${port}` })).status).toBe(200);
  });

  it('refuses a request forwarded by a proxy on this machine, whatever address it names', async () => {
    for (const headers of [{ 'x-forwarded-for': '127.0.0.1' }, { forwarded: 'for=127.0.0.1' }, { 'x-real-ip': '127.0.0.1' }]) {
      expectRefused(await raw(`${shared.url}/_dev/mail.json`, headers), 403);
    }
  });
});

/** A plain TCP forwarder on loopback in front of the stack (socat, ssh -L, HAProxy tcp mode): it adds
 *  no header, so the stack sees a loopback peer for every client on the internet. */
async function tcpForwarder(targetPort: number): Promise<{ url: string; close(): Promise<void> }> {
  const sockets = new Set<Socket>();
  const server: TcpServer = createTcpServer((client) => {
    const upstream = connect(targetPort, '127.0.0.1');
    for (const s of [client, upstream]) {
      sockets.add(s);
      s.on('close', () => sockets.delete(s));
      s.on('error', () => s.destroy());
    }
    client.pipe(upstream).pipe(client);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const port = (server.address() as { port: number }).port;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () => {
      for (const s of sockets) s.destroy();
      return new Promise<void>((r) => server.close(() => r()));
    },
  };
}

describe('the dev mailbox behind a proxy (issue 36 N1)', () => {
  let stack: TestStack;
  let proxy: Awaited<ReturnType<typeof tcpForwarder>>;
  beforeAll(async () => {
    // A deployment as README describes it: bound to loopback, announced at its public https URL,
    // reached through whatever forwards the internet's connections to it.
    stack = await startAttackStack({ host: '127.0.0.1', publicUrl: 'https://poradna.example' });
    proxy = await tcpForwarder(stack.port);
  });
  afterAll(async () => {
    await proxy?.close();
    await stack?.destroy();
  });

  it('an internet client asks for the super admin’s code through a TCP forwarder and cannot read it', async () => {
    await requestAdminCode(proxy.url, stack.keys.anonKey);
    const port = new URL(proxy.url).port;
    // Whatever Host the client or the proxy names: the forwarder's own, the public one, localhost.
    for (const host of [`127.0.0.1:${port}`, 'poradna.example', `localhost:${port}`]) {
      expectRefused(await raw(`${proxy.url}/_dev/mail.json`, { host }), 403);
      expectRefused(await raw(`${proxy.url}/_dev/mail`, { host, 'sec-fetch-site': 'none' }), 403);
    }
    // A wrong or empty token is no key either.
    expectRefused(await raw(`${proxy.url}/_dev/mail.json?token=x`), 403);
    expectRefused(await raw(`${proxy.url}/_dev/mail.json?token=`), 403);
    expectRefused(await raw(`${proxy.url}/_dev/mail.json`, { 'x-dev-mail-token': `${stack.devMailToken}x` }), 403);
  });

  it('the operator who wants it reads it with the token from the start banner', async () => {
    expect(stack.devMailToken).toMatch(/^[A-Za-z0-9_-]{32}$/);
    await requestAdminCode(proxy.url, stack.keys.anonKey);
    const byQuery = await raw(`${proxy.url}/_dev/mail.json?token=${stack.devMailToken}`);
    expect(byQuery.status).toBe(200);
    expect(byQuery.body).toContain(ADMIN);
    const byHeader = await raw(`${proxy.url}/_dev/mail.json`, { 'x-dev-mail-token': stack.devMailToken! });
    expect(byHeader.status).toBe(200);
    // The token opens no door for another site's page.
    expectRefused(await raw(`${proxy.url}/_dev/mail.json?token=${stack.devMailToken}`, { origin: 'http://evil.example' }), 403);
  });

  it('is open without a token only when HOST and PUBLIC_URL both name this machine', () => {
    const base = readConfig({});
    expect(devMailMode(base)).toBe('loopback');
    expect(devMailMode({ ...base, host: 'localhost', publicUrl: 'http://localhost:8080' })).toBe('loopback');
    expect(devMailMode({ ...base, host: '::1', publicUrl: 'http://[::1]:8080' })).toBe('loopback');
    expect(devMailMode({ ...base, publicUrl: 'https://poradna.example' })).toBe('token');
    expect(devMailMode({ ...base, host: '0.0.0.0' })).toBe('token');
    expect(devMailMode({ ...base, host: '10.0.0.5', publicUrl: 'http://localhost:8080' })).toBe('token');
    expect(devMailMode({ ...base, publicUrl: 'not a url' })).toBe('token');
    expect(devMailMode({ ...base, host: '0.0.0.0', production: true })).toBe('off');
  });
});

describe('the dev mailbox seen from another machine', () => {
  let stack: TestStack;
  const address = externalAddress();
  beforeAll(async () => {
    stack = await startAttackStack({ host: '0.0.0.0' });
  });
  afterAll(async () => {
    await stack?.destroy();
  });

  it('refuses a peer without the token (HOST=0.0.0.0), also when it names 127.0.0.1 in X-Forwarded-For', async () => {
    expect(address, 'this test needs a non-loopback interface').toBeDefined();
    const fromOutside = `http://${address}:${stack.port}`;
    // The stack is reachable on that address: the API answers.
    expect((await fetch(`${fromOutside}/auth/v1/health`, { headers: { apikey: stack.keys.anonKey } })).status).toBe(200);
    await requestAdminCode(fromOutside, stack.keys.anonKey);
    expectRefused(await raw(`${fromOutside}/_dev/mail.json`), 403);
    expectRefused(await raw(`${fromOutside}/_dev/mail`), 403);
    expectRefused(await raw(`${fromOutside}/_dev/mail.json`, { 'x-forwarded-for': '127.0.0.1', host: `127.0.0.1:${stack.port}` }), 403);
    // Bound beyond loopback, a loopback peer proves nothing (a forwarder may be in front): refused too…
    expectRefused(await raw(`http://127.0.0.1:${stack.port}/_dev/mail.json`), 403);
    // …and the token opens it: the refusal is about the key, not a broken route.
    expect((await raw(`http://127.0.0.1:${stack.port}/_dev/mail.json?token=${stack.devMailToken}`)).body).toContain(ADMIN);
  });
});

describe('the dev mailbox where mails really go out', () => {
  const stacks: TestStack[] = [];
  afterAll(async () => {
    await Promise.all(stacks.map((s) => s.destroy()));
  });

  it('is off (404) when SMTP_URL is configured', async () => {
    // Nothing listens on port 1: the send fails and is logged; the mailbox must still not show it.
    const stack = await startAttackStack({ smtp: { url: 'smtp://127.0.0.1:1', from: 'x@poradna.test' } });
    stacks.push(stack);
    await requestAdminCode(stack.url, stack.keys.anonKey);
    expectRefused(await raw(`${stack.url}/_dev/mail.json`), 404);
    expectRefused(await raw(`${stack.url}/_dev/mail`), 404);
  });

  it('is off (404) with NODE_ENV=production', async () => {
    const stack = await startAttackStack({ production: readConfig({ NODE_ENV: 'production' }).production });
    stacks.push(stack);
    await requestAdminCode(stack.url, stack.keys.anonKey);
    expectRefused(await raw(`${stack.url}/_dev/mail.json`), 404);
    expectRefused(await raw(`${stack.url}/_dev/mail`), 404);
  });
});

describe('binding', () => {
  it('binds 127.0.0.1 unless HOST says otherwise', () => {
    expect(readConfig({}).host).toBe('127.0.0.1');
    expect(readConfig({ HOST: '' }).host).toBe('127.0.0.1');
    expect(readConfig({ HOST: '0.0.0.0' }).host).toBe('0.0.0.0');
  });
});
