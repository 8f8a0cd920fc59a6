// No response is written twice. @hono/node-server writes a handler's Response to the socket; a route
// that writes to the socket itself (the /rest/v1 proxy) must tell the adapter so, or the adapter
// writes headers again and logs ERR_HTTP_HEADERS_SENT ("Cannot write headers after they are sent")
// — once per request, with correct replies, so only the log shows it. A stack started inside this
// worker (so the adapter, the gateway and the functions share this process's console and globals,
// as in every server test that starts its own stack) serves auth-link, REST reads and writes and
// other functions concurrently; every reply must be right and nothing of the kind may be logged.
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startTestStack, type TestStack } from '../helpers/stack.ts';
import { uniqueEmail } from '../helpers/clients.ts';

const ROUNDS = 12;
const DOUBLE_WRITE = /ERR_HTTP_HEADERS_SENT|after they are sent|ERR_STREAM_WRITE_AFTER_END|write after end/i;

let stack: TestStack;
const logged: string[] = [];

beforeAll(async () => {
  stack = await startTestStack({ authRateLimit: { perIp: 100_000, perEmail: 100_000, windowMs: 60_000 } });
  // Everything the process prints while it serves: the adapter reports with console.error.
  for (const level of ['error', 'warn', 'info', 'log'] as const) {
    const original = console[level].bind(console);
    vi.spyOn(console, level).mockImplementation((...args: unknown[]) => {
      logged.push(args.map((a) => (a instanceof Error ? `${a.name}: ${a.message} ${String((a as Error & { code?: string }).code)}` : String(a))).join(' '));
      original(...args);
    });
  }
  const write = process.stderr.write.bind(process.stderr);
  const capture = (chunk: unknown, ...rest: unknown[]): boolean => {
    logged.push(String(chunk));
    return (write as (...a: unknown[]) => boolean)(chunk, ...rest);
  };
  vi.spyOn(process.stderr, 'write').mockImplementation(capture);
});
afterAll(async () => {
  vi.restoreAllMocks();
  await stack?.destroy();
});

const headers = (token: string) => ({ apikey: stack.keys.anonKey, authorization: `Bearer ${token}`, 'content-type': 'application/json' });

async function signIn(email: string, password: string): Promise<string> {
  const res = await fetch(`${stack.url}/auth/v1/token?grant_type=password`, {
    method: 'POST',
    headers: headers(stack.keys.anonKey),
    body: JSON.stringify({ email, password }),
  });
  expect(res.status).toBe(200);
  return ((await res.json()) as { access_token: string }).access_token;
}

describe('gateway writes every response once', () => {
  it('auth-link, REST reads and RPC writes and functions in parallel: right replies, no double write logged', async () => {
    const token = await signIn('demo@poradna.test', 'poradna123');
    const jobs: Promise<[string, number, string]>[] = [];
    const run = (what: string, url: string, init: RequestInit) =>
      jobs.push(fetch(url, init).then(async (r) => [what, r.status, await r.text()]));
    for (let i = 0; i < ROUNDS; i++) {
      run('auth-link', `${stack.url}/functions/v1/auth-link`, {
        method: 'POST',
        headers: headers(stack.keys.anonKey),
        body: JSON.stringify({ email: i % 2 ? 'demo@poradna.test' : uniqueEmail('double-write') }),
      });
      run('rest-read', `${stack.url}/rest/v1/conversations?select=id&limit=5`, { headers: headers(token) });
      run('rest-head', `${stack.url}/rest/v1/plans?select=id`, { method: 'HEAD', headers: headers(token) });
      run('rest-write', `${stack.url}/rest/v1/rpc/does_not_exist_${i}`, { method: 'POST', headers: headers(token), body: '{}' });
      run('function', `${stack.url}/functions/v1/test-function`, {
        method: 'POST',
        headers: headers(stack.keys.anonKey),
        body: JSON.stringify({ message: `ozvena ${i}` }),
      });
    }
    const replies = await Promise.all(jobs);
    for (const [what, status, body] of replies) {
      if (what === 'auth-link') expect(JSON.parse(body)).toEqual({ message: 'E-mail bol odoslaný. Skontroluj si schránku a nastav si heslo.' });
      if (what === 'rest-read') expect(Array.isArray(JSON.parse(body))).toBe(true);
      if (what === 'rest-write') expect((JSON.parse(body) as { code: string }).code).toMatch(/^PGRST/);
      if (what === 'function') expect((JSON.parse(body) as { echo: string }).echo).toMatch(/^ozvena \d+$/);
      expect([what, status]).toEqual([what, what === 'rest-write' ? 404 : 200]);
    }
    // The adapter logs asynchronously after the reply went out: give it a moment.
    await new Promise((r) => setTimeout(r, 500));
    expect(logged.filter((l) => DOUBLE_WRITE.test(l))).toEqual([]);
  }, 120_000);
});
