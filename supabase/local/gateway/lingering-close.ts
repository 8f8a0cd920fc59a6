// Lingering close: a refusal sent before its request's body has all arrived (a 413 from the declared
// length, storage's 400 for a missing one, any answer that never reads the body) closes the connection
// only after what is still arriving has been read and thrown away, as nginx in front of hosted
// Supabase does (`lingering_close` on by default: it reads on for at most `lingering_time` 30 s and
// stops after `lingering_timeout` 5 s without data; ngx_http_core_module). Closing at once is not the
// same: a socket closed with unread data makes the kernel answer RST, and a client still sending its
// body then loses the answer it had not read yet. Seen as `fetch failed` (EPIPE) instead of storage's
// 413 and 400 on a loaded machine (session 46; tests/server/lingering-close.test.ts).
//
// Such an answer carries `Connection: close` (a client must never send its next request into the
// unread body), and for that Node's server calls `socket.destroySoon()` as soon as the answer is
// written (resOnFinish in lib/_http_server.js, after it has set the body to be dumped). This replaces
// that call, for a request whose body is still arriving, by a half-close: the answer and a FIN go out,
// the body is read and dropped within the bounds, then the socket is destroyed. @hono/node-server's own
// drain of an unread body (500 ms, then the same destroySoon: DRAIN_TIMEOUT_MS in its dist/index.mjs)
// is turned off where this runs (`autoCleanupIncoming: false`).
//
// Invariant: a request whose body had all arrived when its answer finished closes exactly as before.
import type { IncomingMessage } from 'node:http';
import type { Socket } from 'node:net';

export interface Lingering {
  /** The most time spent reading a refused body after its answer (nginx lingering_time). */
  timeMs: number;
  /** Reading stops after this long without data (nginx lingering_timeout). */
  idleMs: number;
}

export const NGINX_LINGERING: Lingering = { timeMs: 30_000, idleMs: 5_000 };

const current = Symbol('lingering-close: the request now on this socket');
type Tracked = Socket & { [current]?: IncomingMessage };

/** Call for every request as it arrives. */
export function lingerAfterResponse(req: IncomingMessage, bounds: Lingering = NGINX_LINGERING): void {
  const socket = req.socket as Tracked;
  if (!(current in socket)) {
    const destroySoon = socket.destroySoon.bind(socket);
    socket.destroySoon = () => {
      const pending = socket[current];
      if (!pending || pending.complete || pending.destroyed || socket.destroyed) return destroySoon();
      linger(pending, socket, bounds);
    };
  }
  socket[current] = req;
}

function linger(req: IncomingMessage, socket: Socket, bounds: Lingering): void {
  socket.end(); // the answer is written: FIN after it, and the socket stays readable
  const cut = () => {
    clearTimeout(total);
    clearTimeout(idle);
    socket.destroy();
  };
  const total = setTimeout(cut, bounds.timeMs);
  let idle = setTimeout(cut, bounds.idleMs);
  // Node has set the body to be dumped (IncomingMessage._dump: its 'data' listeners removed, resumed),
  // so a listener added now sees what still arrives without keeping it.
  req.on('data', () => {
    clearTimeout(idle);
    idle = setTimeout(cut, bounds.idleMs);
  });
  req.once('end', cut); // all of it read: nothing unread is left to turn the close into a reset
  socket.once('close', () => {
    clearTimeout(total);
    clearTimeout(idle);
  });
  req.resume();
}
