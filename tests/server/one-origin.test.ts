// Issue 37 user item 10: the app's pages live on the one origin the stack prints and mails links to.
// A page asked for under another loopback name of the same port (localhost ↔ 127.0.0.1) is sent to
// the announced origin, so a session, a magic link and its callback all meet in one origin's storage;
// the API, assets and the announced origin itself answer as before.
import { request as httpRequest } from 'node:http';
import { describe, expect, inject, it } from 'vitest';

const stack = inject('stack');

/** GET with exactly this Host header (fetch may not set Host). */
function get(path: string, host: string): Promise<{ status: number; location: string | undefined }> {
  const target = new URL(stack.url);
  return new Promise((resolve, reject) => {
    const req = httpRequest({ host: target.hostname, port: target.port, path, headers: { host } }, (res) => {
      res.resume();
      res.on('end', () => resolve({ status: res.statusCode ?? 0, location: res.headers.location }));
    });
    req.on('error', reject);
    req.end();
  });
}

describe('one origin for the app (issue 37 item 10)', () => {
  const announced = new URL(stack.url);
  const alias = `${announced.hostname === 'localhost' ? '127.0.0.1' : 'localhost'}:${announced.port}`;

  it('a page under the other loopback name is redirected to the announced origin, path and query kept', async () => {
    expect(await get('/auth/login?x=1', alias)).toEqual({ status: 308, location: `${announced.origin}/auth/login?x=1` });
    expect(await get('/app/chats', alias)).toEqual({ status: 308, location: `${announced.origin}/app/chats` });
  });

  it('the announced origin, the API and assets are not redirected', async () => {
    expect((await get('/auth/login', announced.host)).status).toBe(200);
    expect(await get('/auth/v1/health', alias)).toEqual({ status: 401, location: undefined }); // the API's own answer (no apikey)
    expect((await get('/env.js', alias)).status).toBe(200);
    expect((await get('/no-such-asset.js', alias)).status).toBe(404);
  });

  it('another host name (not this machine) is not redirected: a proxy in front keeps working', async () => {
    expect((await get('/auth/login', `poradna.example:${announced.port}`)).status).toBe(200);
  });
});
