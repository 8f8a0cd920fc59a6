// A short connect timeout for push sends (issue 36 N3). web-push's `timeout` is one socket idle timer
// for the whole request (10 s: a push service may take a while to answer), so a device whose push
// service address takes the TCP connection but never completes TLS held its send for the full 10 s.
// This agent cuts a connection that has not finished the TLS handshake within CONNECT_TIMEOUT_MS; the
// send then fails without a status, which trips the endpoint's breaker (breaker.ts) like any other
// "no answer". Push services (FCM, Mozilla autopush, APNs web push, WNS) are reached from a server in
// a few round trips, far below this. Hosted push-dispatch runs the same code on Deno: web-push passes
// the agent to https.request (it must be an https.Agent, which this is), and Deno's node:https calls
// its createConnection — checked with the repository's deno (2.9) in
// tests/server/push-connect-deno.test.ts. An Edge Runtime on an older Deno whose node:https ignored
// the agent would fall back to web-push's 10 s timeout for such a send, which then holds only its
// own slot (pump.ts).
import { Agent } from 'node:https';

// The base method's own types: Node's @types/node and Deno's node:https declare it differently
// (Deno's returns a Duplex, Node's may return null or undefined), and deno check runs on the latter.
type CreateConnection = Agent['createConnection'];

/** TCP + TLS handshake to a push service, at most. */
export const CONNECT_TIMEOUT_MS = 2_000;

export class ConnectTimeoutAgent extends Agent {
  override createConnection(...args: Parameters<CreateConnection>): ReturnType<CreateConnection> {
    const socket = super.createConnection(...args);
    if (!socket) return socket;
    const timer = setTimeout(() => socket.destroy(new Error(`push service: no TLS connection within ${CONNECT_TIMEOUT_MS} ms`)), CONNECT_TIMEOUT_MS);
    socket.once('secureConnect', () => clearTimeout(timer));
    socket.once('close', () => clearTimeout(timer));
    return socket;
  }
}
