// Issue 16 item 12 on the server: the app's pages and files carry a Content-Security-Policy without
// inline script, frame-ancestors 'none', nosniff, a Referrer-Policy, a Permissions-Policy and
// Cross-Origin-Opener-Policy same-origin; source
// maps are not served unless SOURCE_MAPS=1. A stack per case serves a tiny build from a temp dir.
// (The browser half — the app runs under the policy, framing is refused, the list snapshot paints —
// is e2e/security-headers.e2e.ts.)
import { mkdtemp, mkdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readConfig } from '../../supabase/local/config.ts';
import { startTestStack, type TestStack } from '../helpers/stack.ts';

let webDir: string;
const stacks: TestStack[] = [];

beforeAll(async () => {
  webDir = await mkdtemp(join(tmpdir(), 'poradna-web-'));
  await mkdir(join(webDir, 'assets'));
  await writeFile(join(webDir, 'index.html'), '<!doctype html><html><head><script type="module" src="/assets/app.js"></script></head><body></body></html>');
  await writeFile(join(webDir, 'assets', 'app.js'), 'console.log(1);\n');
  await writeFile(join(webDir, 'assets', 'app.js.map'), '{"version":3,"sources":["../src/secret.ts"],"sourcesContent":["const internal = 1"],"mappings":""}');
});

afterAll(async () => {
  await Promise.all(stacks.map((s) => s.destroy()));
  await rm(webDir, { recursive: true, force: true });
});

async function stackWith(env: Record<string, string> = {}): Promise<TestStack> {
  const stack = await startTestStack({ webDir, serveSourceMaps: readConfig(env).serveSourceMaps });
  stacks.push(stack);
  return stack;
}

describe('security headers of the app', () => {
  let stack: TestStack;
  beforeAll(async () => {
    stack = await stackWith();
  });

  it('every page (an SPA route, the shell, a missing route) has the policy', async () => {
    for (const path of ['/', '/app/chats', '/auth/login', '/index.html']) {
      const res = await fetch(`${stack.url}${path}`);
      expect(res.status, path).toBe(200);
      const csp = res.headers.get('content-security-policy') ?? '';
      const directives = new Map(csp.split(/;\s*/).map((d) => [d.split(' ')[0]!, d.split(' ').slice(1)]));
      // No inline script and no eval, from any source: 'self' only.
      expect(directives.get('script-src'), path).toEqual(["'self'"]);
      expect(directives.get('default-src'), path).toEqual(["'self'"]);
      expect(directives.get('frame-ancestors'), path).toEqual(["'none'"]);
      expect(directives.get('object-src'), path).toEqual(["'none'"]);
      expect(directives.get('base-uri'), path).toEqual(["'none'"]);
      // supabase-js talks to the public URL, also over a websocket (realtime).
      const u = new URL(stack.url);
      expect(directives.get('connect-src'), path).toEqual(["'self'", u.origin, `ws://${u.host}`]);
      expect(res.headers.get('x-frame-options')).toBe('DENY');
      expect(res.headers.get('x-content-type-options')).toBe('nosniff');
      expect(res.headers.get('referrer-policy')).toBe('same-origin');
      expect(res.headers.get('permissions-policy')).toMatch(/camera=\(\).*microphone=\(\).*geolocation=\(\)/);
      // A browsing context group of its own: no other window keeps a handle on the app.
      expect(res.headers.get('cross-origin-opener-policy')).toBe('same-origin');
    }
  });

  it('scripts and /env.js are nosniff (a mistyped upload cannot run as script)', async () => {
    for (const path of ['/assets/app.js', '/env.js']) {
      const res = await fetch(`${stack.url}${path}`);
      expect(res.status, path).toBe(200);
      expect(res.headers.get('x-content-type-options'), path).toBe('nosniff');
    }
  });

  it('the API keeps its own headers (no app CSP), with nosniff', async () => {
    const res = await fetch(`${stack.url}/rest/v1/`, { headers: { apikey: 'nope' } });
    expect(res.status).toBe(401);
    expect(res.headers.get('content-security-policy')).toBeNull();
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
  });

  it('does not serve source maps', async () => {
    const res = await fetch(`${stack.url}/assets/app.js.map`);
    expect(res.status).toBe(404);
    expect(await res.text()).not.toContain('internal');
  });
});

describe('source maps when asked for', () => {
  it('serves them with SOURCE_MAPS=1', async () => {
    const stack = await stackWith({ SOURCE_MAPS: '1' });
    const res = await fetch(`${stack.url}/assets/app.js.map`);
    expect(res.status).toBe(200);
    expect(await res.text()).toContain('internal');
  });
});
