// Row 10c (issue 41 part 3): many devices on one local stack. 500 accounts × 4 devices (each a
// session of the account's member, signed in through the local auth; capacity-devices.ts), every
// account sending one message every SEND_EVERY_MS through send_message from one of its devices in
// turn (open loop: each account's sends start on its own schedule, whatever the stack's answers do),
// and each other device of the account noting when the message's row number reached it:
// - Broadcast from the database (R18.1): devices joined to the private `account:<id>` topic only;
// - postgres_changes (R6.1 as before R18): one channel with the account's messages, conversations and
//   read cursors, and the database WITHOUT R18's broadcast triggers (disabled for that phase), as it
//   was then.
// Phases of each transport alternate in one run over the same sockets, so drift on the shared machine
// falls on both. Then a step-up: more accounts at the same per-account rate until a transport's
// delivery p95 passes 200 ms; the last step under it is what this stack holds on this machine.
// The stack runs in a process of its own (stack-process.ts), so the devices' CPU (this process) and
// the stack's (its Node process: gateway, auth, realtime; PostgREST; PostgreSQL) are counted apart.
import { loadavg } from 'node:os';
import pg from 'pg';
import { makeAccounts, pool, setup, type Account, type Transport } from './capacity-devices.ts';
import { cpuSeconds, postgresCpuSeconds } from './proc-cpu.ts';
import { startStackProcess, type ChildStack } from '../tests/helpers/stack-process.ts';
import { percentile, type BenchRow } from './table.ts';

const ACCOUNTS = Number(process.env.BENCH_10C_ACCOUNTS ?? 500);
const DEVICES = 4;
/** Each account sends one message this often (ms): a lively chat, one message every 10 s. */
const SEND_EVERY_MS = Number(process.env.BENCH_10C_SEND_MS ?? 10_000);
const GOAL_P95_MS = 200;
/** A device that has not heard of a message this long after its send counts it as lost (Infinity). */
const LOST_AFTER_MS = 5_000;
/** The step-up's accounts per step, as multiples of ACCOUNTS; it stops at a transport's first step over the goal. */
const STEPS_UP = [1.25, 1.5, 2, 2.5, 3, 4].map((f) => Math.round(f * ACCOUNTS));
/** Where a transport is already over the goal with ACCOUNTS: fewer, until its first good step. */
const STEPS_DOWN = [0.75, 0.5, 0.25].map((f) => Math.round(f * ACCOUNTS));
/** Measured time of a main phase and of a step (after WARM_MS of sends that are not counted). */
const PHASE_MS = 20_000;
const STEP_MS = 10_000;
const WARM_MS = 3_000;
/** The row starts no new step up (sign-ins) past this, so it stays bounded on a slow machine. */
const BUDGET_MS = 240_000;

/** R18's triggers (migrations 20261130100000, 20261130130000: deferred, one realtime.send per transaction and topic). */
const BROADCAST_TRIGGERS = [
  ['conversations', 't95_broadcast_insert'],
  ['conversations', 't95_broadcast_update'],
  ['messages', 't95_broadcast_insert'],
  ['messages', 't95_broadcast_update'],
  ['read_cursors', 't95_broadcast_insert'],
  ['read_cursors', 't95_broadcast_update'],
  ['deleted_rows', 't95_broadcast_insert'],
] as const;

interface Cpu {
  bench: number;
  stackNode: number;
  postgrest: number;
  postgres: number;
}

function cpuNow(stack: ChildStack): Cpu {
  const u = process.cpuUsage();
  return {
    bench: (u.user + u.system) / 1e6,
    stackNode: cpuSeconds(stack.pid),
    postgrest: stack.postgrestPid ? cpuSeconds(stack.postgrestPid) : 0,
    postgres: postgresCpuSeconds(stack.postgresPid ?? -1),
  };
}

interface PhaseResult {
  transport: Transport;
  devices: number;
  sends: number;
  failedSends: number;
  /** The failed sends' statuses, e.g. "503 ×2". */
  failures: string;
  /** send started → the row's number on each other device of the account (ms). */
  deliveries: number[];
  /** send started → the last other device of the account (ms), one per send. */
  perSend: number[];
  cpu: Cpu;
  load: string;
}

const p = (values: number[], q: number) => percentile(values, q);
const lostOf = (r: PhaseResult) => r.deliveries.filter((d) => !Number.isFinite(d)).length;

/**
 * One phase: every account sends on its own schedule (a random offset within the first interval, then
 * every SEND_EVERY_MS) for `ms`; sends started in the first `warmMs` are not counted. CPU is read from
 * the end of the warm-up until every counted send's deliveries are in (or lost).
 */
async function phase(stack: ChildStack, accounts: Account[], transport: Transport, ms: number, warmMs: number): Promise<PhaseResult> {
  const rest = `${stack.url}/rest/v1/rpc/send_message`;
  const start = performance.now();
  const end = start + ms;
  const measureFrom = start + warmMs;
  const deliveries: number[] = [];
  const perSend: number[] = [];
  let sends = 0;
  let failedSends = 0;
  /** Failed sends by HTTP status (0: no answer). */
  const failures = new Map<number, number>();
  let cpuA: Cpu | null = null;
  const warm = setTimeout(() => (cpuA = cpuNow(stack)), warmMs);
  const running: Promise<void>[] = [];
  const sendOnce = async (a: Account, counted: boolean): Promise<void> => {
    const device = a.devices[a.sent++ % a.devices.length]!;
    const t0 = performance.now();
    const r = await fetch(rest, {
      method: 'POST',
      headers: { apikey: stack.keys.anonKey, authorization: `Bearer ${device.token}`, 'content-type': 'application/json', 'x-forwarded-for': a.address },
      body: JSON.stringify({ p_conversation_id: a.conversationId, p_text: `cap ${a.sent}`, p_client_correlation_id: crypto.randomUUID() }),
    }).catch(() => null);
    if (!r?.ok) {
      if (counted) {
        failedSends++;
        failures.set(r?.status ?? 0, (failures.get(r?.status ?? 0) ?? 0) + 1);
      }
      await r?.body?.cancel();
      return;
    }
    const seq = ((await r.json()) as { change_seq: number }).change_seq;
    const others = a.devices.filter((d) => d !== device);
    const arrivals = await Promise.all(others.map((d) => d.arrival(seq, LOST_AFTER_MS)));
    if (!counted) return;
    sends++;
    for (const at of arrivals) deliveries.push(at - t0);
    perSend.push(Math.max(...arrivals) - t0);
  };
  await Promise.all(
    accounts.map(async (a) => {
      let next = start + Math.random() * SEND_EVERY_MS;
      while (next < end) {
        await new Promise((r) => setTimeout(r, Math.max(0, next - performance.now())));
        running.push(sendOnce(a, next >= measureFrom));
        next += SEND_EVERY_MS;
      }
    }),
  );
  await Promise.all(running);
  clearTimeout(warm);
  const b = cpuNow(stack);
  const a0 = cpuA ?? b;
  const cpu = { bench: b.bench - a0.bench, stackNode: b.stackNode - a0.stackNode, postgrest: b.postgrest - a0.postgrest, postgres: b.postgres - a0.postgres };
  const devices = accounts.length * DEVICES;
  return { transport, devices, sends, failedSends, failures: [...failures].map(([k, n]) => `${k || 'no answer'} ×${n}`).join(', '), deliveries, perSend, cpu, load: loadavg()[0]!.toFixed(1) };
}

async function setBroadcastTriggers(db: pg.Client, on: boolean): Promise<void> {
  // A lock that does not come must fail the row, not hang it.
  await db.query(`set lock_timeout = '15s'`);
  for (const [table, trigger] of BROADCAST_TRIGGERS) await db.query(`alter table public.${table} ${on ? 'enable' : 'disable'} trigger ${trigger}`);
}

/** Every device leaves its channel and joins `transport`'s; the database as that transport needs it. */
async function switchTo(db: pg.Client, accounts: Account[], transport: Transport): Promise<void> {
  await setBroadcastTriggers(db, transport === 'broadcast');
  await pool(
    accounts.flatMap((a) => a.devices),
    64,
    (d) => d.join(transport),
  );
}

/** CPU ms per delivery (one message reaching one other device), total and by process. */
function cpuPerDelivery(r: PhaseResult): { total: number; text: string } {
  const n = r.deliveries.length - lostOf(r);
  const ms = (s: number) => (s * 1000) / Math.max(1, n);
  const total = ms(r.cpu.bench + r.cpu.stackNode + r.cpu.postgrest + r.cpu.postgres);
  return {
    total,
    text:
      `${total.toFixed(2)} ms (devices' process ${ms(r.cpu.bench).toFixed(2)}, stack's Node — gateway, auth, realtime — ${ms(r.cpu.stackNode).toFixed(2)}, ` +
      `PostgREST ${ms(r.cpu.postgrest).toFixed(2)}, PostgreSQL ${ms(r.cpu.postgres).toFixed(2)})`,
  };
}

function merge(rs: PhaseResult[]): PhaseResult {
  const r0 = rs[0]!;
  const sum = (k: keyof Cpu) => rs.reduce((s, r) => s + r.cpu[k], 0);
  return {
    ...r0,
    sends: rs.reduce((s, r) => s + r.sends, 0),
    failedSends: rs.reduce((s, r) => s + r.failedSends, 0),
    failures: rs.map((r) => r.failures).filter(Boolean).join('; '),
    deliveries: rs.flatMap((r) => r.deliveries),
    perSend: rs.flatMap((r) => r.perSend),
    cpu: { bench: sum('bench'), stackNode: sum('stackNode'), postgrest: sum('postgrest'), postgres: sum('postgres') },
    load: rs.map((r) => r.load).join('/'),
  };
}

/** Sockets closed and channel faults over all devices so far (none, when the stack held). */
function faults(accounts: Account[]): string {
  const counts = new Map<string, number>();
  let closed = 0;
  for (const a of accounts)
    for (const d of a.devices) {
      if (d.closed) closed++;
      for (const [k, n] of d.faults) counts.set(k, (counts.get(k) ?? 0) + n);
    }
  const list = [...counts].map(([k, n]) => `${k} ×${n}`).join(', ');
  return `${closed} sockets closed${list ? `, ${list}` : ''}`;
}

const describe = (r: PhaseResult) =>
  `${r.devices} devices: ${r.sends} sends (${r.failedSends} failed${r.failures ? `: ${r.failures}` : ''}), ${r.deliveries.length} deliveries, ` +
  `p50 ${p(r.deliveries, 50).toFixed(1)} ms, p95 ${p(r.deliveries, 95).toFixed(1)} ms, all other devices p95 ${p(r.perSend, 95).toFixed(1)} ms, ` +
  `${lostOf(r)} lost, load ${r.load}`;

/** A percentile that is a lost delivery (∞) has no ratio: '–', never 0.0× or ∞×. */
const ratioUnlessLost = (a: PhaseResult, b: PhaseResult, q: number) =>
  Number.isFinite(p(a.deliveries, q)) && Number.isFinite(p(b.deliveries, q)) ? {} : { ratio: NaN };

const good = (r: PhaseResult) => p(r.deliveries, 95) <= GOAL_P95_MS && r.failedSends === 0;

export async function capacityRows(opts: { quick: boolean; log: (line: string) => void; notes: string[] }): Promise<BenchRow[]> {
  const { log, notes } = opts;
  const t0 = performance.now();
  const stack = await startStackProcess({ overrides: {} });
  const db = new pg.Client({ connectionString: stack.databaseUrl });
  db.on('error', (err) => console.warn(`row 10c: database connection: ${err.message}`));
  const address = { url: stack.url, anonKey: stack.keys.anonKey };
  let accounts: Account[] = [];
  try {
    await db.connect();
    log(`row 10c: ${ACCOUNTS} accounts × ${DEVICES} devices signing in and joining…`);
    accounts = await makeAccounts(db, address, 0, ACCOUNTS, DEVICES, 'broadcast');
    log(`row 10c: ${accounts.length * DEVICES} sockets joined in ${((performance.now() - t0) / 1000).toFixed(0)} s (sign-ins ${(setup.signInMs / 1000).toFixed(0)} s, opens and joins ${(setup.joinMs / 1000).toFixed(0)} s)`);
    const runs: Record<Transport, PhaseResult[]> = { broadcast: [], postgres_changes: [] };
    // One phase of each: a switch re-joins every device (tens of seconds on a loaded machine), and the
    // row must stay bounded; the step-up below alternates which transport goes first.
    const order: Transport[] = ['broadcast', 'postgres_changes'];
    let current: Transport = 'broadcast';
    for (const t of order) {
      if (t !== current) await switchTo(db, accounts, (current = t));
      const r = await phase(stack, accounts, t, (opts.quick ? 8_000 : PHASE_MS) + WARM_MS, WARM_MS);
      log(`row 10c ${t}: ${describe(r)}; ${faults(accounts)}`);
      runs[t].push(r);
    }
    const bc = merge(runs.broadcast);
    const pc = merge(runs.postgres_changes);
    const bcCpu = cpuPerDelivery(bc);
    const pcCpu = cpuPerDelivery(pc);

    // Step-up from the main size at the same per-account rate, each transport until its first step over
    // the goal; a transport already over it at the main size steps down instead, to its first good step.
    const lastGood: Record<Transport, PhaseResult | null> = { broadcast: good(bc) ? bc : null, postgres_changes: good(pc) ? pc : null };
    const broke: Record<Transport, PhaseResult | null> = { broadcast: good(bc) ? null : bc, postgres_changes: good(pc) ? null : pc };
    const both: Transport[] = ['broadcast', 'postgres_changes'];
    let stoppedForTime = false;
    const resize = async (n: number) => {
      if (n > accounts.length) accounts.push(...(await makeAccounts(db, address, accounts.length, n - accounts.length, DEVICES, current)));
      else for (const a of accounts.splice(n)) for (const d of a.devices) d.close();
    };
    const stepPhase = async (t: Transport) => {
      if (t !== current) await switchTo(db, accounts, (current = t));
      const r = await phase(stack, accounts, t, (opts.quick ? 6_000 : STEP_MS) + WARM_MS, WARM_MS);
      log(`row 10c step ${t}: ${describe(r)}; ${faults(accounts)}`);
      return r;
    };
    const overBudget = () => (stoppedForTime ||= performance.now() - t0 > BUDGET_MS);
    for (const step of opts.quick ? STEPS_UP.slice(0, 1) : STEPS_UP) {
      const open = both.filter((t) => !broke[t]);
      if (open.length === 0 || overBudget()) break;
      try {
        await resize(step);
      } catch (err) {
        notes.push(`- 10c step-up: ${step * DEVICES} devices could not all sign in and join: ${(err as Error).message}`);
        break;
      }
      // The transport already joined goes first, so a step switches once.
      for (const t of open.sort((x, y) => Number(y === current) - Number(x === current))) {
        const r = await stepPhase(t);
        if (good(r)) lastGood[t] = r;
        else broke[t] = r;
      }
    }
    for (const step of opts.quick ? STEPS_DOWN.slice(0, 1) : STEPS_DOWN) {
      // Not bounded by BUDGET_MS: a step down signs nobody in, and on a machine loaded enough that the
      // main size broke (and set-up took most of the budget) it is the only capacity figure the row has.
      const open = both.filter((t) => !lastGood[t]);
      if (open.length === 0) break;
      await resize(step);
      for (const t of open.sort((x, y) => Number(y === current) - Number(x === current))) {
        const r = await stepPhase(t);
        if (good(r)) lastGood[t] = r;
      }
    }
    const stepLine = (t: Transport) => {
      const ok = lastGood[t];
      const over = broke[t];
      return (
        `${t}: last step under ${GOAL_P95_MS} ms ${ok ? describe(ok) : 'none'}; ` +
        (over ? `over at: ${describe(over)}` : stoppedForTime ? 'not broken before the time bound' : 'not broken within the steps')
      );
    };
    const held = (t: Transport) => lastGood[t]?.devices ?? 0;
    notes.push(
      `Row 10c (issue 41): ${ACCOUNTS} accounts × ${DEVICES} devices, each account sending one message every ${SEND_EVERY_MS / 1000} s ` +
        `through send_message (${((ACCOUNTS * 1000) / SEND_EVERY_MS).toFixed(0)} sends/s), from its devices in turn; a delivery = the message's ` +
        `feed number reaching one other device of the account (send started → frame on that socket). ` +
        `Broadcast from the database: ${describe(bc)}; CPU per delivery ${bcCpu.text}. ` +
        `postgres_changes (without R18's triggers): ${describe(pc)}; CPU per delivery ${pcCpu.text}. ` +
        `Step-up at the same per-account rate (p95 ≤ ${GOAL_P95_MS} ms, no failed send) — ${stepLine('broadcast')}. ${stepLine('postgres_changes')}. ` +
        `Row took ${((performance.now() - t0) / 1000).toFixed(0)} s.`,
    );
    return [
      {
        row: '10c',
        figure: `delivery p95, ${ACCOUNTS} accounts × ${DEVICES} devices, a message per account every ${SEND_EVERY_MS / 1000} s: Broadcast from the database (baseline: postgres_changes)`,
        poradna: p(bc.deliveries, 95),
        baseline: p(pc.deliveries, 95),
        unit: 'ms',
        better: 'lower',
        goal: `≤ ${GOAL_P95_MS} ms`,
        met: p(bc.deliveries, 95) <= GOAL_P95_MS,
        ...ratioUnlessLost(bc, pc, 95),
      },
      {
        row: '10c′',
        figure: '  … delivery p50',
        poradna: p(bc.deliveries, 50),
        baseline: p(pc.deliveries, 50),
        unit: 'ms',
        better: 'lower',
        goal: 'report',
        met: true,
        ...ratioUnlessLost(bc, pc, 50),
      },
      {
        row: '10c″',
        figure: '  … CPU per delivery, devices + stack (all processes)',
        poradna: bcCpu.total,
        baseline: pcCpu.total,
        unit: 'ms',
        better: 'lower',
        goal: 'report',
        met: true,
      },
      {
        row: '10c‴',
        figure: `  … devices held with p95 ≤ ${GOAL_P95_MS} ms (step-up, same per-account rate)`,
        poradna: held('broadcast'),
        baseline: held('postgres_changes'),
        unit: 'devices',
        better: 'higher',
        goal: 'report',
        met: true,
      },
    ];
  } finally {
    for (const a of accounts) for (const d of a.devices) d.close();
    await db.end().catch(() => undefined);
    await stack.destroy();
  }
}
