// One fuzz seed: an account with 3–5 simulated clients and another account with one, a seeded
// sequence of user actions, server writes and network faults, then healing and the checks of
// invariants 1–5. Network timing is real, so a seed fixes the sequence of choices, not every
// interleaving; failing seeds are pinned in fuzz.test.ts and re-run that same sequence.
import type pg from 'pg';
import { lastServerMessage } from '../../../sync/queries.ts';
import { deliveryProblems, differences, rng, serverUnread, serverView, sumStats, TestDevice, type Rng, type StackInfo, type TypedMessage } from '../../../sync/testing/index.ts';
import { createAccount, createConversation, specialistSays, type TestAccount } from './server-db.ts';

/** SYNC_FUZZ_WEB_LOCKS=1: each device has its own Web Locks and tab channel, so its engine is solo and sends take R1.12's fast path. */
const WEB_LOCKS = process.env.SYNC_FUZZ_WEB_LOCKS === '1';

export interface FuzzStack extends StackInfo {
  jwtSecret: string;
}

export interface SeedResult {
  seed: number;
  ok: boolean;
  problems: string[];
  ops: string[];
  ms: number;
  /** Faults the networks injected, summed over the clients. */
  faults: Record<string, number>;
  typed: number;
  healMs: number;
  /** Set by a caller that stopped waiting for the seed (it may still be running). */
  held?: true;
}

/**
 * Where a running seed is, for a caller that gives up on it (fuzz.test.ts's per-seed bound): the
 * phase, since when, and the operations so far (the last one, in the steps, is the one awaited).
 */
export interface SeedProgress {
  phase: 'set-up' | 'steps' | 'heal' | 'delivery check' | 'stop';
  since: number;
  ops: string[];
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** How long healing may take before the differences left are reported (runSeed). */
export const HEAL_MS = 150_000;

interface World {
  r: Rng;
  a: TestAccount;
  b: TestAccount;
  convA: string[];
  convB: string[];
  clients: TestDevice[];
  typed: TypedMessage[];
  log: string[];
}

async function setUp(db: pg.Pool, stack: FuzzStack, seed: number): Promise<World> {
  const r = rng(seed);
  const members = 3 + r.int(3);
  const a = await createAccount(db, stack.jwtSecret, members, `fz${seed}a`);
  const b = await createAccount(db, stack.jwtSecret, 1, `fz${seed}b`);
  const nConv = 2 + r.int(2);
  const convA: string[] = [];
  for (let i = 0; i < nConv; i++) convA.push(await createConversation(db, a.id, a.humans[i]!));
  const convB = [await createConversation(db, b.id, b.humans[0]!)];
  if (r.chance(0.5)) await specialistSays(db, convA[0]!, 'Vitajte');
  const clients = [
    ...a.users.map((u, i) => new TestDevice(stack, u, { accountId: a.id, rand: rng(seed * 7919 + i), webLocks: WEB_LOCKS })),
    new TestDevice(stack, b.users[0]!, { accountId: b.id, rand: rng(seed * 7919 + 99), webLocks: WEB_LOCKS }),
  ];
  for (const c of clients) if (r.chance(0.5)) c.net.mode = 'faulty';
  await Promise.all(clients.map((c) => c.start()));
  return { r, a, b, convA, convB, clients, typed: [], log: [] };
}

async function step(db: pg.Pool, w: World, seed: number, i: number): Promise<void> {
  const { r } = w;
  const c = r.pick(w.clients);
  const mine = c.accountId === w.a.id ? w.convA : w.convB;
  const conv = r.pick(mine);
  const roll = r.next();
  const who = `u${w.clients.indexOf(c)}`;
  const e = c.engine;
  if (!e) return;
  if (roll < 0.34) {
    const text = `s${seed}-${i} ${who}`;
    w.log.push(`${who} send ${conv.slice(0, 4)} ${text}`);
    const handle = await e.commands.sendMessage({ conversationId: conv, text });
    if (handle) w.typed.push({ text, accountId: c.accountId!, conversationId: conv, key: handle.key, db: () => c.engine?.db ?? null, who });
  } else if (roll < 0.44) {
    const row = await e.db.conversations.get(conv);
    const archive = !row || row.archived === 0;
    w.log.push(`${who} ${archive ? 'archive' : 'unarchive'} ${conv.slice(0, 4)}`);
    await (archive ? e.commands.archive(conv) : e.commands.unarchive(conv));
  } else if (roll < 0.54) {
    const last = await lastServerMessage(e.db, conv);
    w.log.push(`${who} read ${conv.slice(0, 4)} ${last?.serverId?.slice(0, 4) ?? '-'}`);
    if (last?.serverId) await e.commands.markRead(conv, last.serverId);
  } else if (roll < 0.64) {
    w.log.push(`server reply ${conv.slice(0, 4)}`);
    await specialistSays(db, conv, `reply ${seed}-${i}`);
  } else if (roll < 0.74) {
    c.net.mode = c.net.mode === 'faulty' ? 'perfect' : c.net.mode === 'offline' ? 'offline' : 'faulty';
    w.log.push(`${who} net ${c.net.mode}`);
  } else if (roll < 0.82) {
    const online = c.network.online();
    w.log.push(`${who} ${online ? 'offline' : 'online'}`);
    c.setOnline(!online);
  } else if (roll < 0.87) {
    w.log.push(`${who} cut sockets`);
    c.net.cutSockets();
  } else if (roll < 0.94) {
    const abrupt = r.chance(0.5);
    w.log.push(`${who} restart${abrupt ? ' (crash)' : ''}`);
    await c.restart(abrupt);
  } else {
    const ms = r.int(80);
    w.log.push(`pause ${ms}`);
    await sleep(ms);
  }
  await sleep(r.int(15));
}

async function snapshot(db: pg.Pool, w: World): Promise<string> {
  const views = [await serverView(db, w.a.id), await serverView(db, w.b.id)];
  return JSON.stringify(views.map((v) => [...v.values()]));
}

/**
 * Heals the network and waits until every client equals the server. A comparison counts only when
 * every outbox is empty and the server did not change while the clients were read.
 */
async function heal(db: pg.Pool, w: World, deadlineMs: number): Promise<string[]> {
  for (const c of w.clients) c.setOnline(true);
  const deadline = Date.now() + deadlineMs;
  let problems: string[];
  for (let round = 0; ; round++) {
    if (round % 3 === 0) for (const c of w.clients) c.engine?.syncNow();
    await sleep(120);
    const queued = await Promise.all(w.clients.map((c) => c.engine!.db.outbox.count()));
    if (queued.some((n) => n > 0)) {
      problems = queued.map((n, i) => (n ? `u${i}: ${n} outbox entries left` : '')).filter(Boolean);
    } else {
      const before = await snapshot(db, w);
      const found: string[] = [];
      for (const [i, c] of w.clients.entries()) {
        const unread = await serverUnread(db, c.accountId!, c.user.id);
        const view = c.accountId === w.a.id ? await serverView(db, w.a.id) : await serverView(db, w.b.id);
        for (const p of await differences(c.engine!.db, view, unread)) found.push(`u${i}: ${p}`);
      }
      const stable = (await snapshot(db, w)) === before;
      if (stable && found.length === 0) return [];
      problems = stable ? found : ['the server changed while the clients were read', ...found];
    }
    if (Date.now() > deadline) return problems;
  }
}

export async function runSeed(
  db: pg.Pool,
  stack: FuzzStack,
  seed: number,
  opts: { ops?: number; healMs?: number; progress?: SeedProgress } = {},
): Promise<SeedResult> {
  const t0 = Date.now();
  const progress = opts.progress ?? { phase: 'set-up', since: t0, ops: [] };
  const phase = (p: SeedProgress['phase']) => Object.assign(progress, { phase: p, since: Date.now() });
  const w = await setUp(db, stack, seed);
  progress.ops = w.log;
  const problems: string[] = [];
  let healMs = -1;
  try {
    phase('steps');
    const n = opts.ops ?? 16 + w.r.int(14);
    for (let i = 0; i < n; i++) {
      const t = Date.now();
      await step(db, w, seed, i);
      if (Date.now() - t > 1000) w.log[w.log.length - 1] += ` [${Date.now() - t} ms]`;
    }
    const healStart = phase('heal').since;
    // Convergence is the property here, not its speed (the drains' bounds are the timing files'):
    // 150 s, where 45 s ran out once while a starved worker took 31 s for a local send (session 44,
    // the run's first minutes on a slow machine). A seed that never converges still fails.
    problems.push(...(await heal(db, w, opts.healMs ?? HEAL_MS)));
    healMs = Date.now() - healStart;
    phase('delivery check');
    problems.push(...(await deliveryProblems(db, w.typed))); // invariants 1 and 2
  } catch (err) {
    problems.push(`threw: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}`);
  } finally {
    phase('stop');
    await Promise.all(w.clients.map((c) => c.stop().catch(() => undefined)));
  }
  const faults = sumStats(w.clients.map((c) => c.net));
  return { seed, ok: problems.length === 0, problems, ops: w.log, ms: Date.now() - t0, faults, typed: w.typed.length, healMs };
}
