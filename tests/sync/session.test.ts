// R9: the session under the engine, against a dedicated stack whose access tokens live 3 s (real
// expiry, real refresh and real revocation through the auth server; no self-signed tokens).
import type pg from 'pg';
import { describe, expect, it, type TestContext } from 'vitest';
import type { SyncEngine } from '../../sync/engine.ts';
import type { SyncStatus } from '../../sync/status.ts';
import { TestDevice, waitFor } from '../../sync/testing/index.ts';
import { TEXT_NEEDS_SIGN_IN } from '../../sync/model/texts.ts';
import type { TestStack } from '../helpers/stack.ts';
import { createConversation, specialistSays, testSpecialists } from './helpers/server-db.ts';
import { newUser as newRealUser, PASSWORD, type RealUser } from './helpers/real-device.ts';
import { withRealStack } from './helpers/real-stack.ts';

const JWT_EXPIRY_S = 3;

let stack: TestStack;
let db: pg.Pool;
const devices: TestDevice[] = [];

withRealStack(devices, (s, p) => ((stack = s), (db = p)), { jwtExpiry: JWT_EXPIRY_S });

/**
 * The devices of a row that runs beside others (`it.concurrent` below), stopped when that row ends:
 * withRealStack's afterEach stops every device of the shared list, which would stop the other rows'
 * devices mid-row.
 */
function ownDevices(onTestFinished: TestContext['onTestFinished']): TestDevice[] {
  const own: TestDevice[] = [];
  onTestFinished(async () => {
    await Promise.all(own.splice(0).map((d) => d.stop()));
  });
  return own;
}

let measuring: Promise<void> = Promise.resolve();

/**
 * Waits until no other row that runs beside this one is in its measured part (from its reconnect or
 * its first request after the wait to its end), then holds that turn until this row ends: the rows'
 * waits overlap, their bounded parts never do. Normally the turns do not meet at all (see the
 * describe below); on a slow machine a later row's wait only grows by the earlier one's turn.
 */
async function measuredTurn(onTestFinished: TestContext['onTestFinished']): Promise<void> {
  const before = measuring;
  let release!: () => void;
  measuring = new Promise((r) => (release = r));
  onTestFinished(() => release());
  await before;
}

/** One device of the user, signed in through the auth server; `rest` logs the REST calls it let out. */
function deviceOf(user: { id: string; email: string; accountId: string }, autoRefreshToken = true, list = devices): TestDevice & { rest: string[] } {
  const d = Object.assign(
    new TestDevice({ url: stack.url, anonKey: stack.keys.anonKey }, { id: user.id, email: user.email, password: PASSWORD }, { accountId: user.accountId, autoRefreshToken }),
    { rest: [] as string[] },
  );
  d.net.onRequest = (url) => void (url.includes('/rest/v1/') && d.rest.push(url));
  list.push(d);
  return d;
}

function newUser(): Promise<RealUser> {
  return newRealUser(stack, db, 'session');
}

/** The device's engine (polling, no realtime) and every status it reported since it started. */
async function engineOn(d: TestDevice): Promise<{ engine: SyncEngine; statuses: SyncStatus[] }> {
  const statuses: SyncStatus[] = [];
  const engine = await d.start({ realtime: false });
  engine.subscribeStatus((s) => statuses.push(s));
  return { engine, statuses };
}

/** A new user with one conversation, its device signed in and its engine past the first pull. */
async function signedInWithChat(autoRefreshToken = true, list = devices) {
  const { humans } = await testSpecialists(db);
  const user = await newUser();
  const conv = await createConversation(db, user.accountId, humans[0]!);
  const d = deviceOf(user, autoRefreshToken, list);
  await d.signIn();
  const { engine, statuses } = await engineOn(d);
  await waitFor(async () => (await engine.db.conversations.count()) === 1, 'first pull', 8000);
  return { conv, d, engine, statuses };
}

async function serverCount(conversationId: string, texts: string[]): Promise<number[]> {
  const r = await db.query<{ text: string; n: string }>(
    'select text, count(*) as n from public.messages where conversation_id = $1 and text = any($2) group by text',
    [conversationId, texts],
  );
  return texts.map((t) => Number(r.rows.find((x) => x.text === t)?.n ?? 0));
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('R9 the session under the engine (JWT_EXPIRY=3 s)', () => {
  // R9.1, R9.12, R9.16 and the kit row run side by side (issue 42): the first three spend nearly all
  // their time waiting on a clock they cannot shorten (R9.1 auth-js's offline refresh retries,
  // 200 ms × 2ⁿ for up to 30 s; R9.12 PostgREST's fixed 30 s leeway past a token's exp; R9.16
  // auth-js's 30 s ticker, 45 s offline), one after another 28 + 40 + 47 s. Their short active ends
  // fall apart by themselves (R9.1's drain at ~28 s, R9.12's refreshes at ~36–43 s, R9.16's drain at
  // ~47 s from the start; the kit row, bound to no time, ends within the first 5 s), and each takes
  // its turn (measuredTurn) for them, so no row's bound is measured while another row works; under
  // load a later row's wait grows instead (R9.12 and R9.16 only by seconds: their rules still hold
  // past 45 s, and R9.16's reconnect stays inside the offline ticker's retries, ~41–53 s, that the
  // row exists to meet). Every row has its own users, devices and conversation. The other rows, whose bounded windows are short and close together, stay one at a
  // time (all seven side by side missed R9.2's 3 s bound at load 22: docs/TESTING.md, h-speed2).
  it.concurrent('R9.1 an access token that expired while offline is refreshed first: the queue drains within 2 s of reconnect, no error status', async ({ onTestFinished }) => {
    // auth-js's ticker off: this row is the app's own getSession offline (R9.16 is the ticker's).
    const { conv, d, engine, statuses } = await signedInWithChat(false, ownDevices(onTestFinished));

    d.setOnline(false);
    const texts = Array.from({ length: 5 }, (_, i) => `offline ${i}`);
    for (const text of texts) await engine.commands.sendMessage({ conversationId: conv, text });
    await sleep(JWT_EXPIRY_S * 1000 + 500);
    // The app's own calls while offline meet the expired token too: auth-js tries a refresh, fails
    // and caches that failure for 60 s (the cause of the 10–43 s drains in issue 18).
    const offlineTry = await d.supabase!.auth.getSession();
    expect(offlineTry.data.session).toBeNull();
    await measuredTurn(onTestFinished);
    statuses.length = 0;

    const reconnectedAt = Date.now();
    d.setOnline(true);
    await waitFor(
      async () => (await serverCount(conv, texts)).every((n) => n === 1),
      'drain after reconnect',
      2000,
    );
    const drainMs = Date.now() - reconnectedAt;
    console.log(`R9.1 drain after reconnect: ${drainMs} ms`);
    await waitFor(async () => (await engine.db.outbox.count()) === 0, 'outbox empty', 2000);
    expect(statuses.filter((s) => s.connection === 'error' || s.needsSignIn)).toEqual([]);
    expect(await serverCount(conv, texts)).toEqual([1, 1, 1, 1, 1]);
  });

  it.concurrent('R9.12 a device clock behind the server by more than a token lives: a token the server refuses (401) is refreshed, and once the offset is known it is refreshed before it expires on the server clock; pulls and sends go on, each send once', async ({ onTestFinished }) => {
    const { humans } = await testSpecialists(db);
    const user = await newUser();
    const conv = await createConversation(db, user.accountId, humans[0]!);
    const d = deviceOf(user, true, ownDevices(onTestFinished));
    let refreshes = 0;
    d.net.onRequest = (url) => {
      if (url.includes('/rest/v1/')) d.rest.push(url);
      if (url.includes('/auth/v1/token') && url.includes('refresh_token')) refreshes++;
    };
    await d.signIn();
    // 5 min behind: auth-js (90 s margin, device clock) holds the token valid for 3.5 min after the
    // server stopped taking it (the hostile fuzz's seed 4: the admin, its clock stepped 221 s back).
    d.clock.setSkew(-5 * 60_000);
    // PostgREST takes a token up to 30 s after its exp (allowedSkewSeconds, PostgREST
    // src/PostgREST/Auth.hs); past that it answers 401 'JWT expired'.
    await sleep(JWT_EXPIRY_S * 1000 + 31_500);
    await measuredTurn(onTestFinished);
    expect((await d.client().auth.getSession()).data.session).not.toBeNull(); // auth-js: still valid

    // A fresh install knows no offset yet: the first pull meets a 401, and the refresh follows it.
    await specialistSays(db, conv, 'pred štartom');
    const { engine, statuses } = await engineOn(d);
    await waitFor(async () => (await engine.db.messages.count()) === 1, 'first pull after a refused token', 3000);
    expect(refreshes).toBeGreaterThanOrEqual(1);
    expect(engine.serverOffsetMs()).toBeGreaterThan(4 * 60_000); // learnt from the page

    // The offset is known: the next expiry is seen on the server's clock and refreshed before a request
    // goes with it (PostgREST would still take it here, within its 30 s; auth-js would not refresh).
    // The refused first pull showed the error status until a pull succeeded; that is over.
    await waitFor(() => engine.status().connection !== 'error', 'the first pull error cleared', 2000);
    const before = refreshes;
    statuses.length = 0;
    await sleep(JWT_EXPIRY_S * 1000 + 500);
    await specialistSays(db, conv, 'po expirácii');
    await engine.commands.sendMessage({ conversationId: conv, text: 'odpoveď' });
    await waitFor(async () => (await serverCount(conv, ['odpoveď']))[0] === 1, 'sent with a refreshed token', 2000);
    engine.syncNow();
    await waitFor(async () => (await engine.db.messages.filter((m) => m.text === 'po expirácii').count()) === 1, 'pulled with a refreshed token', 2000);
    expect(refreshes).toBeGreaterThan(before);
    expect(statuses.filter((s) => s.connection === 'error' || s.needsSignIn)).toEqual([]);
    await waitFor(async () => (await engine.db.outbox.count()) === 0, 'outbox empty', 2000);
    expect(await serverCount(conv, ['odpoveď'])).toEqual([1]);
  }, 90_000);

  it.concurrent('R9.16 45 s offline across token expiries with the app\'s auth settings (autoRefreshToken: true): the queue drains within 2 s of reconnect, each send once', async ({ onTestFinished }) => {
    // the kit's default: auth-js's ticker on, as src/supabase.ts
    const { conv, d, engine, statuses } = await signedInWithChat(true, ownDevices(onTestFinished));
    let refreshes = 0;
    d.net.onRequest = (url) => void (url.includes('/auth/v1/token') && url.includes('refresh_token') && refreshes++);

    d.setOnline(false);
    const texts = Array.from({ length: 3 }, (_, i) => `ticker ${i}`);
    for (const text of texts) await engine.commands.sendMessage({ conversationId: conv, text });
    // auth-js's ticker runs every 30 s and refreshes a token this short at each run: offline, such a
    // refresh retries with back-off for up to 30 s, and every getSession waits for it.
    await sleep(45_000);
    await measuredTurn(onTestFinished);
    statuses.length = 0;

    const before = refreshes;
    const reconnectedAt = Date.now();
    d.setOnline(true);
    await waitFor(async () => (await serverCount(conv, texts)).every((n) => n === 1), 'drain after reconnect', 12_000);
    const drainMs = Date.now() - reconnectedAt;
    console.log(`R9.16 drain after reconnect with autoRefreshToken: ${drainMs} ms (${refreshes - before} refreshes)`);
    expect(drainMs).toBeLessThan(2000);
    await waitFor(async () => (await engine.db.outbox.count()) === 0, 'outbox empty', 2000);
    expect(statuses.filter((s) => s.needsSignIn)).toEqual([]);
    expect(await serverCount(conv, texts)).toEqual([1, 1, 1]);
  }, 90_000);

  it.concurrent('kit: a device clock reaches the auth client: 2 h behind, an expired token looks valid (no refresh); corrected, it is refreshed', async ({ onTestFinished }) => {
    const user = await newUser();
    const d = deviceOf(user, false, ownDevices(onTestFinished)); // no ticker: its first run, before the skew, would refresh
    await d.signIn();
    let refreshes = 0;
    d.net.onRequest = (url) => void (url.includes('/auth/v1/token') && url.includes('refresh_token') && refreshes++);
    const client = d.client();
    d.clock.setSkew(-2 * 3600_000);
    await sleep(JWT_EXPIRY_S * 1000 + 300); // the token has expired by the server's clock
    expect((await client.auth.getSession()).data.session?.user.id).toBe(user.id);
    expect(refreshes).toBe(0); // auth-js judged the expiry by the device's clock
    d.clock.setSkew(0);
    expect((await client.auth.getSession()).data.session?.user.id).toBe(user.id);
    expect(refreshes).toBe(1);
  });

  it('R9.2 a revoked refresh token stops requests and asks for sign-in; the same user signing in again delivers once, another user never', async () => {
    const { humans } = await testSpecialists(db);
    const user = await newUser();
    const stranger = await newUser();
    const conv = await createConversation(db, user.accountId, humans[0]!);
    const d = deviceOf(user);
    await d.signIn();
    const { engine } = await engineOn(d);
    await waitFor(async () => (await engine.db.conversations.count()) === 1, 'first pull', 8000);

    d.setOnline(false);
    const texts = Array.from({ length: 5 }, (_, i) => `revoked ${i}`);
    for (const text of texts) await engine.commands.sendMessage({ conversationId: conv, text });
    // Sign-out everywhere from another device: every session of the user ends, refresh tokens die.
    const other = deviceOf(user).client();
    expect((await other.auth.signInWithPassword({ email: user.email, password: PASSWORD })).error).toBeNull();
    expect((await other.auth.signOut({ scope: 'global' })).error).toBeNull();
    await sleep(JWT_EXPIRY_S * 1000 + 500);

    d.setOnline(true);
    await waitFor(
      () => engine.status().needsSignIn === true && engine.status().error === TEXT_NEEDS_SIGN_IN,
      'needs sign-in status',
      3000,
    );
    d.rest.length = 0;
    await sleep(1500);
    expect(d.rest).toEqual([]); // stopped retrying: not one request with the anon key
    expect(await engine.db.outbox.count()).toBe(5); // the queue is kept
    expect((await engine.db.messages.toArray()).filter((m) => m.state === 'sending')).toHaveLength(5);

    // Another user signing in on this client never sends them.
    await d.signIn(stranger.email);
    await sleep(1500);
    expect(await serverCount(conv, texts)).toEqual([0, 0, 0, 0, 0]);
    expect(d.rest.filter((u) => u.includes('send_message'))).toEqual([]);
    expect(engine.status().needsSignIn).toBe(true);
    await d.supabase!.auth.signOut({ scope: 'local' });

    // The same user again: delivered, each exactly once.
    await d.signIn();
    await waitFor(
      async () => (await serverCount(conv, texts)).every((n) => n === 1),
      'delivered after sign-in',
      3000,
    );
    await waitFor(
      () => engine.status().needsSignIn === false && engine.status().error === null,
      'sign-in status cleared',
      3000,
    );
    await waitFor(async () => (await engine.db.outbox.count()) === 0, 'outbox empty', 2000);
    await sleep(300);
    expect(await serverCount(conv, texts)).toEqual([1, 1, 1, 1, 1]);
  });

  it('R9.13 a refresh whose reply never comes (client without a fetch timeout) stalls nothing: the send stays queued and shown as sending, and stop() returns within 2 s', async () => {
    const { conv, d, engine } = await signedInWithChat();

    // The auth server handles every refresh and its reply never comes (a phone asleep mid-request).
    let refreshes = 0;
    d.net.blackHole = (url) => url.includes('/auth/v1/token') && url.includes('refresh_token') && ++refreshes > 0;
    await sleep(JWT_EXPIRY_S * 1000 + 500);
    await engine.commands.sendMessage({ conversationId: conv, text: 'za čiernou dierou' });
    // auth-js tries again only once its hung request ended: the request had a timeout (before, the
    // first refresh held auth-js's lock, and every getSession behind it, for good).
    await waitFor(() => refreshes >= 2, 'the hung refresh timed out and was tried again', 8000);
    expect(engine.status().needsSignIn ?? false).toBe(false); // unreachable, not signed out
    expect(await engine.db.outbox.count()).toBe(1);
    expect((await engine.db.messages.toArray()).filter((m) => m.state === 'sending').map((m) => m.text)).toEqual(['za čiernou dierou']);

    const stopAt = Date.now();
    await d.stop();
    const stopMs = Date.now() - stopAt;
    console.log(`R9.13 stop() with a refresh hung: ${stopMs} ms`);
    expect(stopMs).toBeLessThan(2000);
  }, 60_000);

  it('R9.17 a refresh whose reply is lost after the server rotated the token, the phone then asleep past the reuse interval (10 s), with the app\'s auth settings: still signed in, the queued send goes out once', async () => {
    const { conv, d, engine, statuses } = await signedInWithChat(); // autoRefreshToken: true, as src/supabase.ts
    const isRefresh = (url: string) => url.includes('/auth/v1/token') && url.includes('refresh_token');
    let lost = 0;
    // The next refresh reaches the auth server, which rotates the token; its reply is lost as the
    // phone's radio drops (the device goes offline in the same moment, so auth-js's own quick retry
    // cannot run inside the reuse interval).
    d.net.loseReply = (url) => {
      if (!isRefresh(url) || lost > 0) return false;
      lost++;
      d.setOnline(false);
      return true;
    };
    await sleep(JWT_EXPIRY_S * 1000 + 300); // the access token expires: the next request refreshes first
    await engine.commands.sendMessage({ conversationId: conv, text: 'po stratenej odpovedi' });
    await waitFor(() => lost === 1, 'a refresh whose reply was lost', 8000);

    // The phone slept 11 s as the server sees it: the lost rotation is moved back past
    // REFRESH_TOKEN_REUSE_INTERVAL (10 s) instead of sleeping it out.
    const moved = await db.query(
      `update auth.refresh_tokens set updated_at = now() - interval '11 seconds' where user_id = $1 and revoked`,
      [d.user.id],
    );
    expect(moved.rowCount).toBeGreaterThan(0);
    statuses.length = 0;
    d.setOnline(true);

    // The client comes back with the token it still holds, rotated away 11 s ago: GoTrue answers it
    // with the session's active token (its child), so the user stays signed in.
    await waitFor(async () => (await serverCount(conv, ['po stratenej odpovedi']))[0] === 1, 'send after wake-up', 40_000);
    await waitFor(async () => (await engine.db.outbox.count()) === 0, 'outbox empty', 5000);
    expect(statuses.filter((s) => s.needsSignIn)).toEqual([]);
    const live = await db.query('select 1 from auth.refresh_tokens where user_id = $1 and not revoked', [d.user.id]);
    expect(live.rowCount).toBeGreaterThan(0); // the family was not revoked
    expect(await serverCount(conv, ['po stratenej odpovedi'])).toEqual([1]);
  }, 90_000);
});
