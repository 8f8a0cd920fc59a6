// Issue 35 (supabase-js#2613): a tab hidden for longer than its access token's life wakes, and its
// realtime channel must rejoin with a fresh token, not the expired one, and miss no message of the
// hidden time. Real stack whose tokens live 3 s (the local realtime refuses a join with an expired
// token and shuts a channel whose token runs out, as Supabase Realtime does), unmodified supabase-js
// with the app's auth settings (the kit's TestDevice), realtime on. Every phx_join frame the device
// sends is read off its socket.
import type pg from 'pg';
import { WebSocket } from 'ws';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { TestStack } from '../helpers/stack.ts';
import { TestDevice } from '../../sync/testing/index.ts';
import { createConversation, specialistSays, testSpecialists } from './helpers/server-db.ts';
import { newUser, PASSWORD } from './helpers/real-device.ts';
import { withRealStack } from './helpers/real-stack.ts';
import { waitFor } from '../unit/sync/helpers/wait.ts';

const JWT_EXPIRY_S = 3;
let stack: TestStack;
let db: pg.Pool;
const devices: TestDevice[] = [];

withRealStack(devices, (s, p) => ((stack = s), (db = p)), { jwtExpiry: JWT_EXPIRY_S });

/** The access tokens of the channel joins sent, with when each was sent. */
const joins: { at: number; token: string | null }[] = [];
// eslint-disable-next-line @typescript-eslint/unbound-method -- put back after each test, always called with its socket
const send = WebSocket.prototype.send;
beforeEach(() => {
  joins.length = 0;
  WebSocket.prototype.send = function (this: WebSocket, data: unknown, ...rest: unknown[]) {
    if (typeof data === 'string' && data.includes('"phx_join"') && data.includes('realtime:sync')) {
      const frame = JSON.parse(data) as { payload?: { access_token?: string } } | unknown[];
      const payload = Array.isArray(frame) ? (frame[4] as { access_token?: string }) : frame.payload;
      joins.push({ at: Date.now(), token: payload?.access_token ?? null });
    }
    return (send as (...a: unknown[]) => void).call(this, data, ...rest);
  } as typeof WebSocket.prototype.send;
});
afterEach(() => {
  WebSocket.prototype.send = send;
});

/** When a JWT runs out (ms since the epoch). */
const expiresAt = (jwt: string) => (JSON.parse(Buffer.from(jwt.split('.')[1]!, 'base64url').toString()) as { exp: number }).exp * 1000;

describe('a hidden tab wakes after its token expired (issue 35, supabase-js#2613)', () => {
  it('R9.19 its realtime channel rejoins with a fresh token and the message of the hidden time arrives; a message after the wake arrives while the channel is joined', async () => {
    const { humans } = await testSpecialists(db);
    const user = await newUser(stack, db, 'hidden');
    const conv = await createConversation(db, user.accountId, humans[0]!);
    const d = new TestDevice({ url: stack.url, anonKey: stack.keys.anonKey }, { id: user.id, email: user.email, password: PASSWORD }, { accountId: user.accountId });
    devices.push(d);
    await d.signIn();
    const engine = await d.start();
    await waitFor(() => joins.length > 0 && engine.status().connection === 'online', 'channel joined', 10_000);
    const token = (await d.supabase!.auth.getSession()).data.session!.access_token;

    // Hidden: the browser stops auth-js's ticker (its visibilitychange handler) and the sleeping
    // phone's socket goes; the token runs out meanwhile and a specialist answers.
    await d.supabase!.auth.stopAutoRefresh();
    d.setOnline(false);
    await waitFor(() => Date.now() > expiresAt(token) + 500, 'the token expired', 10_000);
    await specialistSays(db, conv, 'počas skrytia');
    const wokeAt = Date.now();
    d.setOnline(true);
    d.network.signal('visible');

    const texts = async () => (await engine.db.messages.where('conversationId').equals(conv).toArray()).map((m) => m.text);
    await waitFor(async () => (await texts()).includes('počas skrytia'), 'the hidden time message', 10_000);
    await waitFor(() => joins.some((j) => j.at >= wokeAt) && engine.status().connection === 'online', 'channel joined again', 10_000);
    const after = joins.filter((j) => j.at >= wokeAt);
    for (const j of after) {
      expect(j.token).not.toBe(token);
      expect(expiresAt(j.token!)).toBeGreaterThan(j.at);
    }
    // The channel works: a message after the wake arrives while the link is up.
    await specialistSays(db, conv, 'po prebudení');
    await waitFor(async () => (await texts()).includes('po prebudení'), 'the message after the wake', 10_000);
    expect(engine.status().connection).toBe('online');
  }, 60_000);
});
