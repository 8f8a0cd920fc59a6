// Lingering close (supabase/local/gateway/lingering-close.ts): a refusal answered before the body has
// arrived must reach a client that is still sending it, as it does through hosted's nginx. The client
// here sends its body in pieces for ~2 s and reads nothing until it has sent all of it, as a busy
// client does; closing the connection with the body unread made the kernel answer RST and the answer
// was lost ('fetch failed: EPIPE' for storage's 413 and 400 in session 46's run).
import { connect, type Socket } from 'node:net';
import { describe, expect, inject, it, vi } from 'vitest';

const stack = inject('stack');

const host = new URL(stack.url).host;
const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));
const until = (cond: () => boolean) => vi.waitUntil(cond, { timeout: 30_000, interval: 20 });

interface Connection {
  socket: Socket;
  received: string;
  /** The server ended its side (FIN). */
  ended: boolean;
  errors: string[];
}

/** A raw connection to the stack. Half-open allowed: the server's FIN after its answer does not end this side. */
async function open(): Promise<Connection> {
  const u = new URL(stack.url);
  const socket = connect({ port: Number(u.port), host: u.hostname, allowHalfOpen: true });
  const c: Connection = { socket, received: '', ended: false, errors: [] };
  socket.on('data', (d: Buffer) => (c.received += d.toString('latin1')));
  socket.on('end', () => (c.ended = true));
  socket.on('error', (err: NodeJS.ErrnoException) => c.errors.push(err.code ?? err.message));
  await new Promise((r) => socket.once('connect', r));
  return c;
}

/**
 * Sends `head` with a body of `size` bytes in 64 KiB pieces 40 ms apart without reading, then reads
 * until the server has ended the connection (after its answer) or it failed.
 */
async function refusedWhileSending(head: string, size: number): Promise<Connection> {
  const c = await open();
  c.socket.pause();
  c.socket.write(`${head}Content-Length: ${size}\r\n\r\n`);
  const piece = Buffer.alloc(64 * 1024, 0x20);
  for (let n = 0; n < size && !c.socket.destroyed; n += piece.length) {
    c.socket.write(piece.subarray(0, Math.min(piece.length, size - n)));
    await pause(40);
  }
  c.socket.resume();
  await until(() => c.ended || c.errors.length > 0);
  c.socket.destroy();
  return c;
}

/** Writes a piece every 300 ms until the connection is refused (reset or broken pipe): it was given up. */
async function writeUntilRefused(c: Connection, piece: Buffer): Promise<void> {
  for (let i = 0; i < 30 && !c.errors.length; i++) {
    c.socket.write(piece);
    await pause(300);
  }
  c.socket.destroy();
  expect(c.errors.some((e) => e === 'ECONNRESET' || e === 'EPIPE')).toBe(true);
}

describe('a refusal sent before the body has arrived reaches a client still sending it', () => {
  it('the gateway’s 413 for a body over 1 MB, declared 3 MB and all of it sent', async () => {
    const head = `POST /rest/v1/rpc/ensure_first_conversation HTTP/1.1\r\nHost: ${host}\r\napikey: ${stack.anonKey}\r\nContent-Type: application/json\r\n`;
    const r = await refusedWhileSending(head, 3 * 1024 * 1024);
    expect(r.errors).toEqual([]);
    expect(r.received).toMatch(/^HTTP\/1\.1 413 /);
    expect(r.received).toContain('Request body is larger than 1 MB');
  });

  it('storage’s refusal of an upload before its body is read, declared 2 MB and all of it sent', async () => {
    const head = `POST /storage/v1/object/attachments/x/y.pdf HTTP/1.1\r\nHost: ${host}\r\napikey: ${stack.anonKey}\r\nContent-Type: application/pdf\r\n`;
    const r = await refusedWhileSending(head, 2 * 1024 * 1024);
    expect(r.errors).toEqual([]);
    expect(r.received).toMatch(/^HTTP\/1\.1 4\d\d /);
  });

  it('a body that stops arriving after the refusal is read for 5 s more, then the connection is given up (nginx lingering_timeout)', async () => {
    const c = await open();
    const piece = Buffer.alloc(64 * 1024, 0x20);
    c.socket.write(`POST /rest/v1/rpc/ensure_first_conversation HTTP/1.1\r\nHost: ${host}\r\napikey: ${stack.anonKey}\r\nContent-Type: application/json\r\nContent-Length: ${3 * 1024 * 1024}\r\n\r\n`);
    c.socket.write(piece);
    await until(() => /^HTTP\/1\.1 413 /.test(c.received));
    await pause(3_000); // silent for less than the 5 s: still read
    c.socket.write(piece);
    await pause(500);
    expect(c.errors).toEqual([]);
    await pause(6_500); // silent for more than 5 s since the last piece: given up, so what follows is refused
    await writeUntilRefused(c, piece);
  });

  // nginx bounds the reading of a refused body the same way when the connection stays open
  // (ngx_http_finalize_connection: discard_body → lingering_timeout), so a client cannot hold one by
  // trickling a body nobody wants; one that sends it all promptly keeps its connection. Before session
  // 47 it did not: the gateway's Web stream of the request was left paused, the rest of the body was
  // never read, and the next request on that connection was never answered.
  // (tests/unit/stack/lingering-bounds.test.ts checks each bound on its own, with short bounds.)
  it('a refusal that keeps the connection open reads the rest of the body within the same bounds', async () => {
    const size = 512 * 1024;
    const piece = Buffer.alloc(64 * 1024, 0x20);
    const refusals = (c: Connection) => (c.received.match(/HTTP\/1\.1 401 /g) ?? []).length;
    // No apikey: refused before the body is read, and the answer does not close the connection.
    const head = `POST /rest/v1/rpc/ensure_first_conversation HTTP/1.1\r\nHost: ${host}\r\nContent-Type: application/json\r\nContent-Length: ${size}\r\n\r\n`;

    const prompt = await open();
    prompt.socket.write(head);
    prompt.socket.write(piece);
    await until(() => refusals(prompt) === 1);
    expect(prompt.received).not.toMatch(/\r\nconnection: close\r\n/i);
    for (let n = piece.length; n < size; n += piece.length) prompt.socket.write(piece);
    prompt.socket.write(`GET /rest/v1/ HTTP/1.1\r\nHost: ${host}\r\n\r\n`);
    await until(() => refusals(prompt) === 2); // the next request was served
    expect(prompt.ended).toBe(false);
    prompt.socket.destroy();

    const silent = await open();
    silent.socket.write(head);
    silent.socket.write(piece);
    await until(() => refusals(silent) === 1);
    const lastPiece = Date.now();
    await until(() => silent.ended); // the server gives up and ends the connection
    // After the 5 s of silence (not at once), and long before the 30 s in all.
    expect(Date.now() - lastPiece).toBeGreaterThan(4_000);
    expect(Date.now() - lastPiece).toBeLessThan(25_000);
    expect(silent.errors).toEqual([]);
    silent.socket.destroy();
  });
});
