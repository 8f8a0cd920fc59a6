// One seed of the hostile fuzz (issue 18): two members of an account and a super admin, each on a
// device signed in through the real auth server of a stack whose access tokens live a few seconds,
// meet a seeded sequence of what phones meet — token expiry while offline, sign-out everywhere
// (refresh tokens revoked), conversations deleted or completed on the server, clock skew and steps,
// black-holed replies, 5xx, lost requests and answers, crashes, the admin switching accounts by
// impersonation, and a backup of the database restored (R9.7). Then the network heals (and revoked
// users sign in again); every typed message must be stored exactly once, or have failed with a
// reason, or have been taken away by the restore (stored after the backup: gone from the server and
// so from every device), every device must equal the server, and the time from the reconnect until
// the outboxes are empty is measured.
import type pg from 'pg';
import { deliveryProblems, differences, rng, serverUnread, serverView, sumStats, TestDevice, type Rng, type StackInfo, type TypedMessage } from '../../../sync/testing/index.ts';
import { backup, restore } from './restore.ts';
import { createAccount, createConversation, specialistSays, type TestAccount } from './server-db.ts';

/** SYNC_FUZZ_WEB_LOCKS=1: each device has its own Web Locks and tab channel, so its engine is solo and sends take R1.12's fast path. */
const WEB_LOCKS = process.env.SYNC_FUZZ_WEB_LOCKS === '1';

export const PASSWORD = 'heslo12345';

export interface HostileStack extends StackInfo {
  jwtSecret: string;
  /** The stack's access-token lifetime (s): going offline for longer lets tokens expire. */
  jwtExpiryS: number;
}

export interface HostileResult {
  seed: number;
  problems: string[];
  ops: string[];
  ms: number;
  /** From the reconnect until every outbox of the account each device acts in was empty. */
  drainMs: number;
  /** Where the seed's time went (ms): setting up, the operations, healing, the convergence check. */
  phases: { setUp: number; ops: number; heal: number; converge: number };
  typed: number;
  faults: Record<string, number>;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

interface World {
  r: Rng;
  a: TestAccount;
  own: TestAccount;
  /** Live conversations per account (deleted ones leave the list; new ones join it). */
  convs: Map<string, string[]>;
  devices: TestDevice[];
  admin: TestDevice;
  typed: TypedMessage[];
  log: string[];
  tokenExpiries: number;
  /** The live conversations when the backup was taken (a restore brings them back). */
  backedUp: Map<string, string[]> | null;
  /** When each device last signed in while healing, and how often (see `signInWhenAsked`). */
  signIns: Map<TestDevice, { at: number; count: number }>;
}

async function setUp(db: pg.Pool, stack: HostileStack, seed: number): Promise<World> {
  const r = rng(seed);
  const a = await createAccount(db, stack.jwtSecret, 2, `hz${seed}a`, PASSWORD);
  const own = await createAccount(db, stack.jwtSecret, 1, `hz${seed}s`, PASSWORD);
  await db.query(`insert into public.app_users (user_id, role) values ($1, 'super_admin')`, [own.users[0]!.id]);
  const convs = new Map<string, string[]>([
    [a.id, [await createConversation(db, a.id, a.humans[0]!), await createConversation(db, a.id, a.humans[1]!)]],
    [own.id, [await createConversation(db, own.id, own.humans[0]!)]],
  ]);
  const device = (u: TestAccount['users'][number], accountId: string, i: number) =>
    new TestDevice(stack, { id: u.id, email: u.email, password: PASSWORD }, { accountId, rand: rng(seed * 7919 + i), webLocks: WEB_LOCKS });
  const devices = [device(a.users[0]!, a.id, 0), device(a.users[1]!, a.id, 1), device(own.users[0]!, own.id, 2)];
  for (const [i, d] of devices.entries()) {
    // SYNC_HOSTILE_TRACE=1: every auth request of every device, with ms since set-up (how the
    // refresh storm below POKE_EVERY_MS was found).
    if (process.env.SYNC_HOSTILE_TRACE) {
      const t0 = Date.now();
      d.net.onRequest = (url) => {
        const u = new URL(url);
        if (u.pathname.includes('/auth/')) console.log(`auth d${i} +${Date.now() - t0} ms ${u.pathname}${u.search}`);
      };
    }
    await d.signIn();
    if (r.chance(0.5)) d.net.mode = 'faulty';
    await d.start();
  }
  return { r, a, own, convs, devices, admin: devices[2]!, typed: [], log: [], tokenExpiries: 0, backedUp: null, signIns: new Map() };
}

/** Server side: a conversation goes (deleted or completed); a fresh one keeps the account usable. */
async function serverEndsConversation(db: pg.Pool, w: World, accountId: string, del: boolean): Promise<string> {
  const list = w.convs.get(accountId)!;
  const conv = w.r.pick(list);
  if (del) {
    await db.query('delete from public.conversations where id = $1', [conv]);
    list.splice(list.indexOf(conv), 1);
  } else await db.query(`update public.conversations set status = 'completed' where id = $1`, [conv]);
  // A specialist without an active conversation in the account (one active conversation each).
  const account = accountId === w.a.id ? w.a : w.own;
  const free = await db.query<{ id: string }>(
    `select h.id from unnest($2::uuid[]) h(id)
      where not exists (select 1 from public.conversations c where c.account_id = $1 and c.specialist_id = h.id and c.status = 'active') limit 1`,
    [accountId, account.humans],
  );
  if (!free.rows[0]) return conv;
  const fresh = await db.query<{ id: string }>('insert into public.conversations (account_id, specialist_id) values ($1, $2) returning id', [accountId, free.rows[0].id]);
  list.push(fresh.rows[0]!.id);
  return conv;
}

/**
 * The super admin acts in `target`: the server's impersonation row as start_impersonation and
 * stop_impersonation leave it, then the app restarts its engine in that account.
 */
async function actIn(db: pg.Pool, w: World, target: string): Promise<void> {
  const d = w.admin;
  if (target === w.a.id)
    await db.query(
      `insert into public.impersonations (admin_user_id, account_id) values ($1, $2)
       on conflict (admin_user_id) do update set account_id = excluded.account_id`,
      [d.user.id, target],
    );
  else await db.query('delete from public.impersonations where admin_user_id = $1', [d.user.id]);
  d.accountId = target;
  await d.restart(false);
}

async function switchAccount(db: pg.Pool, w: World): Promise<string> {
  const target = w.admin.accountId === w.a.id ? w.own.id : w.a.id;
  await actIn(db, w, target);
  return target === w.a.id ? 'impersonates A' : 'back to own account';
}

/**
 * When this seed backs the database up and restores it (step indices; none for some seeds). Drawn
 * from a stream of its own, so the other operations of a seed stay what they were before restores
 * joined the fuzz (until the restore changes the world they pick from).
 */
function restorePlan(seed: number, ops: number): { backupAt: number; restoreAt: number } | null {
  const p = rng(seed * 104_729 + 17);
  if (!p.chance(0.6)) return null;
  const backupAt = p.int(Math.floor(ops / 2));
  return { backupAt, restoreAt: backupAt + 1 + p.int(ops - backupAt - 1) };
}

/**
 * R9.7: a backup restored on the server while devices are online, offline, mid-request. The data
 * goes back to the backup: messages stored since are gone (the typed ones among them are marked
 * `lostByRestore`: the server is the truth for what it confirmed, so their absence is right),
 * conversations deleted since come back, those created since go, completed ones are active again.
 * The admin's impersonation is kept as it is now (written inside the restore's transaction): it is
 * the state of a session, not data, and a server answering for another account is R9.9's case.
 */
async function serverRestores(db: pg.Pool, w: World): Promise<number> {
  const admin = w.admin;
  const lost = await restore(db, {
    inside: async (c) => {
      await c.query('delete from public.impersonations where admin_user_id = $1', [admin.user.id]);
      if (admin.accountId === w.a.id) await c.query('insert into public.impersonations (admin_user_id, account_id) values ($1, $2)', [admin.user.id, w.a.id]);
    },
  });
  const gone = new Set(lost.filter((m) => m.direction === 'user').map((m) => `${m.conversationId}|${m.text}`));
  for (const t of w.typed) if (gone.has(`${t.conversationId}|${t.text}`)) t.lostByRestore = true;
  w.convs = new Map([...w.backedUp!].map(([k, v]) => [k, [...v]]));
  return lost.length;
}

async function step(db: pg.Pool, stack: HostileStack, w: World, seed: number, i: number): Promise<void> {
  const { r } = w;
  const d = r.pick(w.devices);
  const who = `d${w.devices.indexOf(d)}`;
  const e = d.engine;
  const accountId = d.accountId!;
  if (!e) return;
  const roll = r.next();
  if (roll < 0.34) {
    const conversationId = r.pick(w.convs.get(accountId)!);
    const text = `h${seed}-${i} ${who}`;
    w.log.push(`${who} send ${conversationId.slice(0, 4)} ${text}`);
    const handle = await e.commands.sendMessage({ conversationId, text });
    if (handle) w.typed.push({ text, accountId, conversationId, key: handle.key, db: () => d.engine?.db ?? null, who });
  } else if (roll < 0.42) {
    const conv = r.pick(w.convs.get(r.chance(0.8) ? w.a.id : w.own.id)!);
    w.log.push(`server reply ${conv.slice(0, 4)}`);
    await specialistSays(db, conv, `reply ${seed}-${i}`);
  } else if (roll < 0.47) {
    const del = r.chance(0.5);
    const gone = await serverEndsConversation(db, w, r.chance(0.8) ? w.a.id : w.own.id, del);
    w.log.push(`server ${del ? 'deletes' : 'completes'} ${gone.slice(0, 4)}`);
  } else if (roll < 0.55) {
    const online = d.network.online();
    w.log.push(`${who} ${online ? 'offline' : 'online'}`);
    d.setOnline(!online);
  } else if (roll < 0.58 && w.tokenExpiries === 0) {
    w.tokenExpiries++;
    w.log.push(`${who} offline until its token expired`);
    d.setOnline(false);
    await sleep(stack.jwtExpiryS * 1000 + 300);
    d.setOnline(true);
  } else if (roll < 0.61) {
    // Sign-out everywhere from another device: the user's refresh tokens die (R9.2).
    w.log.push(`${who} signed out everywhere`);
    const other = new TestDevice(stack, d.user);
    const client = other.client();
    await client.auth.signInWithPassword({ email: d.user.email!, password: PASSWORD });
    await client.auth.signOut({ scope: 'global' });
  } else if (roll < 0.67) {
    const kind = r.int(3);
    const ms = (r.chance(0.5) ? 1 : -1) * (kind === 0 ? 2 * 3600_000 : r.int(600_000));
    if (kind === 2) d.clock.step(ms);
    else d.clock.setSkew(ms);
    w.log.push(`${who} clock ${kind === 2 ? 'steps' : 'skewed'} ${Math.round(ms / 1000)} s (now ${Math.round(d.clock.skewMs / 1000)} s)`);
  } else if (roll < 0.72) {
    let left = 1;
    d.net.blackHole = (url) => url.includes('/rpc/send_message') && left-- > 0;
    w.log.push(`${who} black-holes its next send reply`);
  } else if (roll < 0.78) {
    d.net.mode = d.net.mode === 'faulty' ? 'perfect' : d.net.mode === 'offline' ? 'offline' : 'faulty';
    w.log.push(`${who} net ${d.net.mode}`);
  } else if (roll < 0.85) {
    w.log.push(`admin ${await switchAccount(db, w)}`);
  } else if (roll < 0.92) {
    const abrupt = r.chance(0.5);
    w.log.push(`${who} restart${abrupt ? ' (crash)' : ''}`);
    await d.restart(abrupt);
  } else {
    w.log.push(`${who} cut sockets`);
    d.net.cutSockets();
  }
  await sleep(r.int(15));
}

/** Entries the device's engine would send in the account it acts in now. */
async function pendingHere(d: TestDevice): Promise<number> {
  const entries = await d.engine!.db.outbox.toArray();
  return entries.filter((x) => x.op.kind !== 'send' || !x.op.accountId || x.op.accountId === d.accountId).length;
}

async function waitUntil(fn: () => Promise<boolean>, ms: number): Promise<boolean> {
  const deadline = Date.now() + ms;
  while (Date.now() < deadline) {
    if (await fn()) return true;
    await sleep(50);
  }
  return fn();
}

/**
 * A user told 'Prihláste sa znova' signs in, then waits for the app to take it in before trying
 * again: the next sign-in of a device comes this long after its last at the soonest. Signing in at
 * every poll while the engine had not yet asked the gate again (its pull waits on auth-js) made up to
 * 20 sign-ins a second a device and ran into the stack's auth rate limit (1,000 a minute an address),
 * which then refused every later seed on the stack too.
 */
const SIGN_IN_PATIENCE_MS = 3000;
/** Past this many sign-ins of one device while healing, its engine is stuck asking: a problem. */
const SIGN_INS_AT_MOST = 4;

/**
 * The user answers 'Prihláste sa znova' (R9.2) by signing in. Asked at any time while healing, not
 * only at its start: a session revoked long before may still look alive then (its access token not
 * expired, auth-js's last refresh failed on the network and fell back to it) and be refused only later.
 * `force`: signed out on the client though the engine has not said so yet (heal's first look).
 */
async function signInWhenAsked(w: World, d: TestDevice, force = false): Promise<void> {
  if (!force && !d.engine?.status().needsSignIn) return;
  const last = w.signIns.get(d);
  if (last && Date.now() - last.at < SIGN_IN_PATIENCE_MS) return;
  const count = (last?.count ?? 0) + 1;
  w.signIns.set(d, { at: Date.now(), count });
  if (count > 1) w.log.push(`d${w.devices.indexOf(d)} signs in again (sign-in ${count})`);
  await d.signIn();
}

/** R9.2: a device whose engine still asks for a sign-in after the user signed in several times. */
function stuckAsking(w: World): string[] {
  return [...w.signIns]
    .filter(([, s]) => s.count > SIGN_INS_AT_MOST)
    .map(([d, s]) => `d${w.devices.indexOf(d)}: still asks to sign in after ${s.count} sign-ins ${SIGN_IN_PATIENCE_MS} ms apart (R9.2)`);
}

/**
 * Heals: every device back online on a perfect network (clocks stay as wrong as they are), users
 * whose sessions were revoked sign in again, then the outboxes must drain; the admin then visits the
 * other account so sends queued there go too (R9.8), and comes back.
 */
async function heal(db: pg.Pool, w: World, budgetMs: number): Promise<{ drainMs: number; problems: string[] }> {
  const t0 = Date.now();
  for (const d of w.devices) {
    d.net.blackHole = null;
    d.setOnline(true);
  }
  const problems: string[] = [];
  const signedOut = async (d: TestDevice) => {
    const s = await d.supabase!.auth.getSession();
    return !s.data.session;
  };
  await sleep(200);
  for (const d of w.devices) await signInWhenAsked(w, d, await signedOut(d));
  const drained = await waitUntil(async () => {
    for (const d of w.devices) await signInWhenAsked(w, d);
    return stuckAsking(w).length > 0 || (await Promise.all(w.devices.map(pendingHere))).every((n) => n === 0);
  }, budgetMs);
  const drainMs = Date.now() - t0;
  if (stuckAsking(w).length) return { drainMs, problems }; // divergences() reports it
  if (!drained) problems.push(`outboxes not drained ${budgetMs} ms after the reconnect: ${(await Promise.all(w.devices.map(pendingHere))).join(', ')}`);
  const d = w.admin;
  if ((await d.engine!.db.outbox.count()) > 0) {
    const home = d.accountId;
    const trips = [home === w.a.id ? w.own.id : w.a.id, home!];
    for (const target of trips) {
      await actIn(db, w, target);
      if (!(await waitUntil(async () => (await pendingHere(d)) === 0, budgetMs))) problems.push(`admin: entries of ${target === w.a.id ? 'A' : 'own'} not sent after switching there`);
    }
  }
  return { drainMs, problems };
}

/**
 * How often convergence asks each engine to pull and push (its comparison polls every 50 ms). The
 * stack's access tokens live 3 s, inside auth-js's 90 s refresh margin (auth-js lib/constants.ts
 * EXPIRY_MARGIN_MS), so every getSession refreshes, and every pull or push asks the gate first (R9.1):
 * poked at every poll, three devices made up to ~60 refreshes a second, and a convergence slowed by a
 * loaded machine reached the auth server's 1,000 token requests a minute from one address (all
 * devices share 127.0.0.1) within 20 s; every later seed on that stack was then refused its sign-in.
 */
const POKE_EVERY_MS = 500;

/** Every device equals the server for the account it acts in. */
async function divergences(db: pg.Pool, w: World, budgetMs: number): Promise<string[]> {
  let found: string[] = [];
  let pokedAt = -Infinity;
  await waitUntil(async () => {
    found = [];
    for (const d of w.devices) await signInWhenAsked(w, d);
    if (stuckAsking(w).length) return true;
    const poke = Date.now() - pokedAt >= POKE_EVERY_MS;
    if (poke) pokedAt = Date.now();
    for (const [i, d] of w.devices.entries()) {
      if (poke) d.engine!.syncNow();
      const accountId = d.accountId!;
      for (const p of await differences(d.engine!.db, await serverView(db, accountId), await serverUnread(db, accountId, d.user.id))) found.push(`d${i}: ${p}`);
    }
    return found.length === 0;
  }, budgetMs);
  // Entries left for another account than the one acted in are counted by differences' outbox check.
  return [...stuckAsking(w), ...found];
}

export async function runHostileSeed(db: pg.Pool, stack: HostileStack, seed: number, opts: { ops?: number; budgetMs?: number; restores?: boolean } = {}): Promise<HostileResult> {
  const t0 = Date.now();
  const w = await setUp(db, stack, seed);
  const phases = { setUp: Date.now() - t0, ops: 0, heal: 0, converge: 0 };
  const problems: string[] = [];
  let drainMs = -1;
  const budget = opts.budgetMs ?? 20_000;
  try {
    const n = opts.ops ?? 14 + w.r.int(10);
    const plan = opts.restores === false ? null : restorePlan(seed, n);
    for (let i = 0; i < n; i++) {
      if (i === plan?.backupAt) {
        await backup(db);
        w.backedUp = new Map([...w.convs].map(([k, v]) => [k, [...v]]));
        w.log.push('server backup');
      }
      if (i === plan?.restoreAt) w.log.push(`server restores the backup (${await serverRestores(db, w)} messages lost)`);
      const t = Date.now();
      await step(db, stack, w, seed, i);
      if (Date.now() - t > 1000) w.log[w.log.length - 1] += ` [${Date.now() - t} ms]`;
    }
    phases.ops = Date.now() - t0 - phases.setUp;
    if (process.env.SYNC_HOSTILE_PAUSE) await sleep(Number(process.env.SYNC_HOSTILE_PAUSE));
    let t = Date.now();
    const healed = await heal(db, w, budget);
    phases.heal = Date.now() - t;
    drainMs = healed.drainMs;
    problems.push(...healed.problems);
    t = Date.now();
    problems.push(...(await divergences(db, w, budget)));
    phases.converge = Date.now() - t;
    problems.push(...(await deliveryProblems(db, w.typed)));
  } catch (err) {
    problems.push(`threw: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}`);
  } finally {
    await Promise.all(w.devices.map((d) => d.stop().catch(() => undefined)));
  }
  const faults = sumStats(w.devices.map((d) => d.net));
  return { seed, problems, ops: w.log, ms: Date.now() - t0, drainMs, phases, typed: w.typed.length, faults };
}
