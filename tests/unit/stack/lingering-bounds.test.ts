// The bounds of supabase/local/gateway/lingering-close.ts on a plain Node server with short bounds, so
// each is seen on its own (tests/server/lingering-close.test.ts checks the stack with nginx's 30 s / 5 s,
// where Node's own 5 s keep-alive timeout also ends an idle connection). The handler makes a Web stream
// of the request, reads its first piece and answers without reading the rest, as the gateway does through
// @hono/node-server.
import { createServer, type Server } from 'node:http';
import { connect, type AddressInfo, type Socket } from 'node:net';
import { Readable } from 'node:stream';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { lingerAfterResponse } from '../../../supabase/local/gateway/lingering-close.ts';

// Short, yet a second of silence: client and server share this process, and a loaded machine stalls
// its event loop for hundreds of ms, which must not read as the client's silence.
const BOUNDS = { timeMs: 5_000, idleMs: 1_000 };
const answered = (c: Client, n = 1) => vi.waitUntil(() => (c.received().match(/HTTP\/1\.1 401 /g) ?? []).length >= n, { timeout: 20_000, interval: 20 });
const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));
let server: Server | undefined;

afterEach(async () => {
  server?.closeAllConnections();
  await new Promise((r) => server?.close(r));
});

async function serve(close: boolean): Promise<number> {
  server = createServer({ keepAliveTimeout: 60_000 }, (req, res) => {
    lingerAfterResponse(req, res, BOUNDS);
    // A reader that has begun and is left behind, paused: Node then does not dump the rest itself.
    void Readable.toWeb(req)
      .getReader()
      .read()
      .then(() => {
        res.writeHead(401, { 'content-type': 'text/plain', ...(close ? { connection: 'close' } : {}) });
        res.end('refused');
      });
  });
  await new Promise<void>((r) => server!.listen(0, '127.0.0.1', r));
  return (server.address() as AddressInfo).port;
}

interface Client {
  socket: Socket;
  received: () => string;
  /** The server ended its side (a FIN; this side is half-open). */
  ended: () => boolean;
  /** Closed for good: a reset or both sides ended. */
  closed: () => boolean;
}

async function post(port: number, size: number): Promise<Client> {
  const socket = connect({ port, host: '127.0.0.1', allowHalfOpen: true });
  let received = '';
  let ended = false;
  let closed = false;
  socket.on('data', (d: Buffer) => (received += d.toString('latin1')));
  socket.on('error', () => {});
  socket.on('end', () => (ended = true));
  socket.on('close', () => (closed = true));
  await new Promise((r) => socket.once('connect', r));
  socket.write(`POST /x HTTP/1.1\r\nHost: x\r\nContent-Length: ${size}\r\n\r\n`);
  return { socket, received: () => received, ended: () => ended, closed: () => closed };
}

/** Writes a 1 KiB piece every `everyMs` until the socket closes or `forMs` passed; the ms it lasted. */
async function trickle(c: Client, everyMs: number, forMs: number): Promise<number> {
  const t0 = Date.now();
  while (!c.closed() && Date.now() - t0 < forMs) {
    c.socket.write(Buffer.alloc(1024, 0x20));
    await pause(everyMs);
  }
  return Date.now() - t0;
}

describe('lingering bounds of a refused body', () => {
  it('keep-alive: a body sent in full after the refusal lets the connection serve its next request', async () => {
    const c = await post(await serve(false), 256 * 1024);
    c.socket.write(Buffer.alloc(64 * 1024, 0x20));
    await answered(c);
    c.socket.write(Buffer.alloc(192 * 1024, 0x20));
    c.socket.write('GET /y HTTP/1.1\r\nHost: x\r\n\r\n');
    await answered(c, 2); // the next request was served
    expect(c.ended()).toBe(false);
  });

  it('keep-alive: a body that stops arriving is given up after the idle bound', async () => {
    const c = await post(await serve(false), 256 * 1024);
    c.socket.write(Buffer.alloc(1024, 0x20));
    await answered(c);
    const t0 = Date.now();
    await vi.waitUntil(() => c.ended(), { timeout: 20_000, interval: 20 });
    // The idle bound (1 s), not the total (5 s) nor Node's keep-alive timeout (60 s here).
    expect(Date.now() - t0).toBeLessThan(4_000);
  });

  it('keep-alive: a body that never stops trickling is given up after the total bound', async () => {
    const c = await post(await serve(false), 10 * 1024 * 1024);
    const lasted = await trickle(c, 100, 20_000);
    expect(c.received()).toMatch(/^HTTP\/1\.1 401 /);
    expect(c.closed()).toBe(true); // cut by the server: this side never closes within the 20 s
    // Kept past the 1 s idle bound by the bytes still arriving (dropped by Node, so counted off the
    // socket), then cut by the 5 s total bound.
    expect(lasted).toBeGreaterThan(3_000);
  });

  it('Connection: close: a trickling body is given up after the total bound too', async () => {
    const c = await post(await serve(true), 10 * 1024 * 1024);
    const lasted = await trickle(c, 100, 20_000);
    expect(c.received()).toMatch(/^HTTP\/1\.1 401 [^]*connection: close/i);
    expect(c.closed()).toBe(true); // cut by the server: this side never closes within the 20 s
    // Kept past the 1 s idle bound by the bytes still arriving (dropped by Node, so counted off the
    // socket), then cut by the 5 s total bound.
    expect(lasted).toBeGreaterThan(3_000);
  });
});
