// Lingering close (supabase/local/gateway/lingering-close.ts): a refusal answered before the body has
// arrived must reach a client that is still sending it, as it does through hosted's nginx. The client
// here sends its body in pieces for ~2 s and reads nothing until it has sent all of it, as a busy
// client does; closing the connection with the body unread made the kernel answer RST and the answer
// was lost ('fetch failed: EPIPE' for storage's 413 and 400 in session 46's run).
import { connect } from 'node:net';
import { describe, expect, inject, it } from 'vitest';

const stack = inject('stack');

interface Outcome {
  received: string;
  errors: string[];
}

/**
 * Sends `head` with a body of `size` bytes in 64 KiB pieces 40 ms apart without reading, then reads
 * for `readMs` and reports what arrived and whether the socket failed.
 */
function refusedWhileSending(head: string, size: number, readMs: number): Promise<Outcome> {
  const u = new URL(stack.url);
  return new Promise((resolve) => {
    // Half-open allowed: the server's FIN after its answer must not end this side while it still sends.
    const socket = connect({ port: Number(u.port), host: u.hostname, allowHalfOpen: true });
    const errors: string[] = [];
    let received = '';
    socket.pause();
    socket.on('data', (d: Buffer) => (received += d.toString('latin1')));
    socket.on('error', (err: NodeJS.ErrnoException) => errors.push(err.code ?? err.message));
    socket.once('connect', () => void sendThenRead());
    const sendThenRead = async () => {
      socket.write(`${head}Content-Length: ${size}\r\n\r\n`);
      const piece = Buffer.alloc(64 * 1024, 0x20);
      for (let n = 0; n < size && !socket.destroyed; n += piece.length) {
        socket.write(piece.subarray(0, Math.min(piece.length, size - n)));
        await new Promise((r) => setTimeout(r, 40));
      }
      socket.resume();
      setTimeout(() => {
        socket.destroy();
        resolve({ received, errors });
      }, readMs);
    };
  });
}

const host = new URL(stack.url).host;

describe('a refusal sent before the body has arrived reaches a client still sending it', () => {
  it('the gateway’s 413 for a body over 1 MB, declared 3 MB and all of it sent', async () => {
    const head = `POST /rest/v1/rpc/ensure_first_conversation HTTP/1.1\r\nHost: ${host}\r\napikey: ${stack.anonKey}\r\nContent-Type: application/json\r\n`;
    const r = await refusedWhileSending(head, 3 * 1024 * 1024, 500);
    expect(r.errors).toEqual([]);
    expect(r.received).toMatch(/^HTTP\/1\.1 413 /);
    expect(r.received).toContain('Request body is larger than 1 MB');
  });

  it('storage’s refusal of an upload before its body is read, declared 2 MB and all of it sent', async () => {
    const head = `POST /storage/v1/object/attachments/x/y.pdf HTTP/1.1\r\nHost: ${host}\r\napikey: ${stack.anonKey}\r\nContent-Type: application/pdf\r\n`;
    const r = await refusedWhileSending(head, 2 * 1024 * 1024, 500);
    expect(r.errors).toEqual([]);
    expect(r.received).toMatch(/^HTTP\/1\.1 4\d\d /);
  });

  it('a body that stops arriving after the refusal is read for 5 s more, then the connection is given up (nginx lingering_timeout)', async () => {
    // Half-open allowed: the server's FIN after its answer does not close this side, so the test sees
    // when the server itself gives up on a body that stopped arriving.
    const u = new URL(stack.url);
    const socket = connect({ port: Number(u.port), host: u.hostname, allowHalfOpen: true });
    const errors: string[] = [];
    let received = '';
    socket.on('data', (d: Buffer) => (received += d.toString('latin1')));
    socket.on('error', (err: NodeJS.ErrnoException) => errors.push(err.code ?? err.message));
    await new Promise((r) => socket.once('connect', r));
    const piece = Buffer.alloc(64 * 1024, 0x20);
    const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));
    socket.write(`POST /rest/v1/rpc/ensure_first_conversation HTTP/1.1\r\nHost: ${host}\r\napikey: ${stack.anonKey}\r\nContent-Type: application/json\r\nContent-Length: ${3 * 1024 * 1024}\r\n\r\n`);
    socket.write(piece);
    await pause(3_000); // silent for less than the 5 s: still read
    socket.write(piece);
    await pause(500);
    expect(errors).toEqual([]);
    expect(received).toMatch(/^HTTP\/1\.1 413 /);
    await pause(6_500); // silent for more than 5 s since the last piece: given up, so what follows is refused
    socket.write(piece);
    await pause(300);
    socket.write(piece);
    await pause(700);
    socket.destroy();
    expect(errors.some((e) => e === 'ECONNRESET' || e === 'EPIPE')).toBe(true);
  });
  // nginx bounds the reading of a refused body the same way when the connection stays open
  // (ngx_http_finalize_connection: discard_body → lingering_timeout), so a client cannot hold one by
  // trickling a body nobody wants; one that sends it all promptly keeps its connection. Before session
  // 47 it did not: the gateway's Web stream of the request was left paused, the rest of the body was
  // never read, and the next request on that connection was never answered.
  // (tests/unit/stack/lingering-bounds.test.ts checks each bound on its own, with short bounds.)
  it('a refusal that keeps the connection open reads the rest of the body within the same bounds', async () => {
    const u = new URL(stack.url);
    const open = async () => {
      const socket = connect({ port: Number(u.port), host: u.hostname, allowHalfOpen: true });
      const errors: string[] = [];
      const seen = { received: '' };
      socket.on('data', (d: Buffer) => (seen.received += d.toString('latin1')));
      socket.on('error', (err: NodeJS.ErrnoException) => errors.push(err.code ?? err.message));
      await new Promise((r) => socket.once('connect', r));
      return { socket, errors, seen };
    };
    const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));
    const size = 512 * 1024;
    const piece = Buffer.alloc(64 * 1024, 0x20);
    // No apikey: refused before the body is read, and the answer does not close the connection.
    const head = `POST /rest/v1/rpc/ensure_first_conversation HTTP/1.1\r\nHost: ${host}\r\nContent-Type: application/json\r\nContent-Length: ${size}\r\n\r\n`;

    const prompt = await open();
    prompt.socket.write(head);
    prompt.socket.write(piece);
    await pause(500);
    expect(prompt.seen.received).toMatch(/^HTTP\/1\.1 401 /);
    expect(prompt.seen.received).not.toMatch(/\r\nconnection: close\r\n/i);
    for (let n = piece.length; n < size; n += piece.length) prompt.socket.write(piece);
    prompt.socket.write(`GET /rest/v1/ HTTP/1.1\r\nHost: ${host}\r\n\r\n`);
    await pause(500);
    expect(prompt.seen.received.match(/HTTP\/1\.1 401 /g)).toHaveLength(2); // the next request was served
    prompt.socket.destroy();

    const trickle = await open();
    trickle.socket.write(head);
    trickle.socket.write(piece);
    await pause(500);
    expect(trickle.seen.received).toMatch(/^HTTP\/1\.1 401 /);
    await pause(6_000); // silent for more than 5 s: given up
    trickle.socket.write(piece);
    await pause(300);
    trickle.socket.write(piece);
    await pause(700);
    trickle.socket.destroy();
    expect(trickle.errors.some((e) => e === 'ECONNRESET' || e === 'EPIPE')).toBe(true);
  });
});
