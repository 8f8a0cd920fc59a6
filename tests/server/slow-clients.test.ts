// Slow-loris against the gateway (issue 36, slow clients): clients that send their headers a byte a
// second, or their body a byte at a time, or stop in the middle of a body. They must not hold the
// server or keep other users waiting, and they are cut as hosted's nginx cuts them
// (supabase/local/gateway/slow-clients.ts: headers within 60 s, at most 60 s between two reads of a
// body, answered 408); an idle keep-alive connection is kept as hosted's Cloudflare keeps it (400 s).
import { connect, type Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { anonClient, uniqueEmail } from '../helpers/clients.ts';
import { signUpConfirmed } from '../helpers/signup.ts';
import { startTestStack, type TestStack } from '../helpers/stack.ts';

const shared = inject('stack');

interface SlowClient {
  socket: Socket;
  received: string;
  closed: Promise<void>;
  isClosed: () => boolean;
}

/** A raw connection that has sent `head` (a request's start) and nothing else yet. */
function open(url: string, head: string): Promise<SlowClient> {
  const u = new URL(url);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(u.port), u.hostname);
    let received = '';
    let isClosed = false;
    const closed = new Promise<void>((r) =>
      socket.once('close', () => {
        isClosed = true;
        r();
      }),
    );
    socket.on('data', (d: Buffer) => (received += d.toString('latin1')));
    socket.on('error', () => undefined);
    socket.once('connect', () => {
      socket.write(head);
      resolve({ socket, get received() { return received; }, closed, isClosed: () => isClosed });
    });
    socket.once('error', reject);
  });
}

const host = (url: string) => new URL(url).host;

/**
 * Requests whose headers are complete and whose declared body will arrive slowly, on the APIs that
 * read a body before deciding (storage decides from the headers and the caller's rights first, as
 * hosted's Uploader.canUpload, so an anonymous slow upload is refused before any byte is read).
 */
function bodyHeads(url: string, key: string, n: number): string[] {
  const paths = [
    ['POST', '/rest/v1/rpc/ensure_first_conversation'],
    ['POST', '/auth/v1/token?grant_type=password'],
    ['POST', '/functions/v1/auth-link'],
  ] as const;
  return Array.from({ length: n }, (_, i) => {
    const [method, path] = paths[i % paths.length]!;
    return (
      `${method} ${path} HTTP/1.1\r\nHost: ${host(url)}\r\napikey: ${key}\r\n` +
      `Authorization: Bearer ${key}\r\nContent-Type: application/json\r\nContent-Length: 10000\r\n\r\n{`
    );
  });
}

/** Requests whose header lines never finish: one more byte of a header every tick. */
function headerHeads(url: string, n: number): string[] {
  return Array.from({ length: n }, (_, i) => `GET /rest/v1/plans?slow=${i} HTTP/1.1\r\nHost: ${host(url)}\r\nX-Slow: `);
}

/** A keep-alive GET that needs no body (GoTrue's health). */
const healthGet = (url: string, key: string) => `GET /auth/v1/health HTTP/1.1\r\nHost: ${host(url)}\r\napikey: ${key}\r\n\r\n`;
const answers = (c: SlowClient) => c.received.split('HTTP/1.1 200 ').length - 1;

async function until(check: () => boolean, what: string, ms = 10_000): Promise<void> {
  const end = Date.now() + ms;
  while (!check()) {
    if (Date.now() > end) throw new Error(`not within ${ms} ms: ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

describe('idle keep-alive connections, as hosted (Cloudflare keeps them 400 s)', () => {
  it("a connection idle past Node's 5 s default still serves its next request (stop 61: ECONNRESET on a reused socket)", async () => {
    const c = await open(shared.url, healthGet(shared.url, shared.anonKey));
    try {
      await until(() => answers(c) === 1, 'the first answer');
      await new Promise((r) => setTimeout(r, 6_000));
      expect(c.isClosed(), 'the server kept the idle connection').toBe(false);
      c.socket.write(healthGet(shared.url, shared.anonKey));
      await until(() => answers(c) === 2, 'the second answer on the same connection').catch((e) => { throw new Error(`${e.message}: ${JSON.stringify(c.received)}`); });
    } finally {
      c.socket.destroy();
    }
  });
});

describe('slow clients against the gateway (slow-loris)', () => {
  it('400 clients sending headers or bodies a byte a second hold no one up: a new user signs up, reads and calls a function meanwhile', async () => {
    const slow = await Promise.all([
      ...headerHeads(shared.url, 200).map((h) => open(shared.url, h)),
      ...bodyHeads(shared.url, shared.anonKey, 200).map((h) => open(shared.url, h)),
    ]);
    // One byte a second to each, for as long as the normal user's work takes.
    const drip = setInterval(() => {
      for (const c of slow) if (!c.isClosed()) c.socket.write('a');
    }, 1_000);
    try {
      const member = anonClient(shared);
      const signed = await signUpConfirmed({ url: shared.url }, member, { email: uniqueEmail('slowloris'), password: 'heslo12345' });
      expect(signed.error).toBeNull();
      const conv = await member.rpc('ensure_first_conversation');
      expect(conv.error).toBeNull();
      const read = await member.from('conversations').select('id');
      expect(read.error).toBeNull();
      expect(read.data?.length).toBeGreaterThan(0);
      const fn = await member.functions.invoke('conversation-read', { body: {} });
      // Any answer of the function host's own (not a hung request) shows the functions were reached.
      expect(fn.response?.status).toBeDefined();
      // Everything above was answered while every slow client was still connected and unanswered.
      expect(slow.filter((c) => c.isClosed())).toHaveLength(0);
      expect(slow.filter((c) => c.received !== '')).toHaveLength(0);
    } finally {
      clearInterval(drip);
      for (const c of slow) c.socket.destroy();
    }
  });
});

describe('slow clients are cut as hosted nginx cuts them (bounds shortened to 1 s)', () => {
  let stack: TestStack;
  beforeAll(async () => {
    // The header and body bounds shortened from 60 s; the whole-request bound kept long, so only the
    // bound under test can end a connection.
    stack = await startTestStack({ httpTimeouts: { headersMs: 1_000, bodyIdleMs: 1_000, requestMs: 120_000, keepAliveMs: 1_000 } });
  });
  afterAll(async () => {
    await stack?.destroy();
  });

  it('a body that stops arriving is answered 408 and closed, on REST, auth and functions; the stack keeps serving', async () => {
    const stalled = await Promise.all(bodyHeads(stack.url, stack.keys.anonKey, 6).map((h) => open(stack.url, h)));
    await Promise.all(stalled.map((c) => c.closed));
    for (const c of stalled) expect(c.received).toMatch(/^HTTP\/1\.1 408 /);
    const member = anonClient({ url: stack.url, anonKey: stack.keys.anonKey });
    const signed = await signUpConfirmed({ url: stack.url }, member, { email: uniqueEmail('slowbody'), password: 'heslo12345' });
    expect(signed.error).toBeNull();
  });

  it('a body that keeps arriving within the bound is read whole, however slowly', async () => {
    const body = JSON.stringify({ email: uniqueEmail('trickle'), password: 'wrong-password' });
    const c = await open(
      stack.url,
      `POST /auth/v1/token?grant_type=password HTTP/1.1\r\nHost: ${host(stack.url)}\r\napikey: ${stack.keys.anonKey}\r\n` +
        `Content-Type: application/json\r\nContent-Length: ${body.length}\r\nConnection: close\r\n\r\n`,
    );
    // The attacker's pace: four pieces, each well within the 1 s bound, together longer than it.
    const pieces = [0, 1, 2, 3].map((i) => body.slice((i * body.length) / 4, ((i + 1) * body.length) / 4));
    for (const p of pieces) {
      c.socket.write(p);
      await new Promise((r) => setTimeout(r, 400));
    }
    await c.closed;
    // GoTrue's answer to a wrong password, not a timeout.
    expect(c.received).toMatch(/^HTTP\/1\.1 400 /);
    expect(c.received).toContain('invalid_credentials');
  });

  it('an idle keep-alive connection is closed at its bound', async () => {
    const c = await open(stack.url, healthGet(stack.url, stack.keys.anonKey));
    await until(() => answers(c) === 1, 'the answer');
    const answered = Date.now();
    await c.closed;
    // At its bound (1 s here), not at Node's default 5 s.
    expect(Date.now() - answered).toBeGreaterThanOrEqual(900);
    expect(Date.now() - answered).toBeLessThan(4_500);
  });

  it('headers sent a byte at a time are cut at the header bound', async () => {
    const slow = await Promise.all(headerHeads(stack.url, 20).map((h) => open(stack.url, h)));
    const drip = setInterval(() => {
      for (const c of slow) if (!c.isClosed()) c.socket.write('a');
    }, 200);
    try {
      await Promise.all(slow.map((c) => c.closed));
    } finally {
      clearInterval(drip);
    }
    for (const c of slow) expect(c.received).toMatch(/^HTTP\/1\.1 408 /);
  });
});
