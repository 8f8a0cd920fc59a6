// `npm run chaos`: browsers of several accounts send messages through a fault-injecting proxy while
// tabs go offline, reload, and the stack is killed with kill -9 (Node, then PostgreSQL); after
// healing every message must be stored exactly once and every browser must equal its account's
// server state with no row of another account. Exit 1 otherwise. See scripts/chaos/README.md.
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { spawnSync } from 'node:child_process';
import { chromium } from 'playwright-core';
import { CHROMIUM_ARGS, CHROMIUM_EXECUTABLE } from '../../e2e/playwright.config.ts';
import { freePort } from '../../supabase/local/free-port.ts';
import { createPeople, readServerState } from './accounts.ts';
import { ChaosContext } from './browser.ts';
import { DEFAULT_FAULTS } from './faults.ts';
import { parseOptions } from './options.ts';
import { contextPlan, killPoints, type KillKind } from './plan.ts';
import { intBetween, substream } from './prng.ts';
import { startFaultProxy } from './proxy.ts';
import { StackProcess } from './stack-process.ts';
import { formatReport, judge, type ChaosReport } from './verdict.ts';

const t0 = Date.now();
const secs = (from = t0) => ((Date.now() - from) / 1000).toFixed(1);
const log = (line: string) => console.log(`[${secs().padStart(6)}s] ${line}`);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

function webDirFor(option: string | undefined): string {
  if (option) return resolve(option);
  if (process.env.CHAOS_WEB_DIR) return resolve(process.env.CHAOS_WEB_DIR);
  if (existsSync('dist/index.html')) return resolve('dist');
  const out = join(tmpdir(), 'chaos-dist');
  log(`no build found: building the PWA into ${out}`);
  const r = spawnSync('npx', ['vite', 'build', '--outDir', out, '--emptyOutDir', '--logLevel', 'warn'], { stdio: 'inherit' });
  if (r.status !== 0) throw new Error('vite build failed');
  return out;
}

async function main(): Promise<number> {
  const opts = parseOptions(process.argv.slice(2), Number(process.env.CHAOS_SEED ?? Date.now() % 100_000));
  const webDir = webDirFor(opts.webDir);
  log(`chaos run: ${opts.contexts} contexts × ${opts.accounts} accounts × ${opts.messages} messages, seed ${opts.seed}, kills ${opts.kills ? 'on' : 'off'}${opts.hangRate ? `, black hole ${opts.hangRate * 100} %` : ''}, web ${webDir}`);

  const work = await mkdtemp(join(tmpdir(), 'poradna-chaos-'));
  const dataDir = join(work, 'data');
  await mkdir(dataDir);
  const stackPort = await freePort();
  const proxy = await startFaultProxy({ upstreamPort: stackPort, seed: opts.seed, faults: { ...DEFAULT_FAULTS, hangRate: opts.hangRate } });
  const stack = new StackProcess({ dataDir, port: stackPort, webDir, publicUrl: proxy.url, log });
  const browser = await chromium.launch({ executablePath: CHROMIUM_EXECUTABLE, args: CHROMIUM_ARGS });
  const contexts: ChaosContext[] = [];
  let report: ChaosReport | undefined;
  const cleanup = async () => {
    await Promise.all(contexts.map((c) => c.close()));
    await browser.close().catch(() => undefined);
    await proxy.close().catch(() => undefined);
    await stack.stop().catch(() => undefined);
  };
  process.once('SIGINT', () => void cleanup().then(() => process.exit(130)));
  try {
    await stack.start();
    log(`stack up on :${stackPort} behind the fault proxy ${proxy.url}`);
    const people = await createPeople(await stack.databaseUrl(), opts.accounts, String(opts.seed));
    const accountOf = new Map(people.accounts.map((a) => [a.id, a]));
    for (let i = 0; i < opts.contexts; i++) {
      const user = people.users[i % people.users.length]!;
      const c = new ChaosContext(i, user, accountOf.get(user.accountId)!, log);
      await c.open(browser, proxy.url);
      await c.signIn();
      contexts.push(c);
    }
    log(`${contexts.length} contexts signed in (${people.users.length} users in ${people.accounts.length} accounts); faults on`);

    // ---- chaos
    proxy.setFaults(true);
    const chaosStart = Date.now();
    const kills = killPoints(opts.contexts * opts.messages, opts.kills);
    const killLog: string[] = [];
    let accepted = 0;
    let killChain = Promise.resolve();
    const doKill = async (kind: KillKind) => {
      const started = Date.now();
      if (kind === 'node') {
        log(`kill -9 of the Node stack (pid ${stack.pid})`);
        await stack.kill9();
        await stack.start();
        killLog.push(`Node stack kill -9: restarted, healthy after ${secs(started)} s`);
      } else {
        const pid = await stack.killPostgres9();
        log(`kill -9 of PostgreSQL (postmaster pid ${pid})`);
        const how = await stack.recover(20_000);
        killLog.push(`PostgreSQL kill -9: ${how}, healthy after ${secs(started)} s`);
      }
      log(killLog.at(-1)!);
    };
    const onAccepted = () => {
      accepted++;
      while (kills.length && accepted >= kills[0]!.atSent) {
        const k = kills.shift()!;
        killChain = killChain.then(() => doKill(k.kind)).catch((err: unknown) => log(`kill step failed: ${(err as Error).message}`));
      }
    };
    await Promise.all(
      contexts.map((c) => {
        const rng = substream(opts.seed, `ctx-${c.index}`);
        const plan = contextPlan(rng, opts.messages, c.account.conversations.length);
        return c.play(plan, onAccepted, () => intBetween(rng, 100, 800));
      }),
    );
    await killChain;
    const chaosSecs = secs(chaosStart);
    log(`all plans played in ${chaosSecs} s; faults off, everyone online, healing`);

    // ---- healing
    proxy.setFaults(false);
    await Promise.all(contexts.map((c) => c.setOffline(false)));
    const healStart = Date.now();
    const sent = contexts.flatMap((c) => c.stats.accepted.map((text) => ({ context: c.index, accountId: c.account.id, text })));
    const accountIds = people.accounts.map((a) => a.id);
    let state;
    for (;;) {
      state = await readServerState(await stack.databaseUrl(), accountIds);
      const snaps = [];
      for (const c of contexts) {
        try {
          snaps.push(await c.snapshot());
        } catch (err) {
          log(`ctx ${c.index}: snapshot failed (${(err as Error).message.split('\n')[0]})`);
          snaps.push({ context: c.index, accountId: c.account.id, outbox: -1, messages: [], conversations: [] });
        }
      }
      report = judge(sent, state.messages, snaps, state.conversations);
      if (report.ok || Date.now() - healStart > opts.healTimeoutMs) break;
      await sleep(2000);
    }
    const healSecs = secs(healStart);

    // ---- report
    const label = (id: string) => accountOf.get(id)?.label ?? id.slice(0, 8);
    const s = proxy.stats;
    const unconfirmed = contexts.flatMap((c) => c.stats.unconfirmed);
    const storedTexts = new Set(state.messages.map((m) => m.text));
    const unconfirmedStored = unconfirmed.filter((t) => storedTexts.has(t)).length;
    console.log('\n' + formatReport(report, label));
    console.log(
      [
        `run: ${opts.contexts} contexts, ${opts.accounts} accounts, ${opts.messages} messages each, seed ${opts.seed}`,
        `time: chaos ${chaosSecs} s, healing ${healSecs} s${report.ok ? '' : ' (timed out)'}, total ${secs()} s`,
        `typed but not confirmed by the composer in 10 s (not counted as sent): ${unconfirmed.length}, of which stored ${unconfirmedStored}`,
        `tab reloads ${contexts.reduce((n, c) => n + c.stats.reloads, 0)}, offline spells ${contexts.reduce((n, c) => n + c.stats.offlineSpells, 0)}, step errors ${contexts.reduce((n, c) => n + c.stats.stepErrors, 0)}`,
        `proxy: ${s.requests} requests (${s.exempt} static exempt), dropped before ${s.faults['drop-before']}, 503 ${s.faults['reject-503']}, ` +
          `dropped after the server answered ${s.faults['drop-after']}, black-holed ${s.faults.hang}, upstream errors ${s.upstreamDown}; websockets opened ${s.wsOpened}, cut ${s.wsCut}`,
        ...killLog,
        ...(s.held.length ? [`black-holed: ${s.held.join(', ')}`] : []),
      ].join('\n'),
    );
    for (const c of contexts) {
      const v = report.clients.find((x) => x.context === c.index);
      if (v?.divergent && c.outboxHead) console.log(`ctx ${c.index}: first outbox entry ${JSON.stringify(c.outboxHead)}`);
    }
    if (!report.ok) console.log(`\nkept for inspection: ${work} (stack.log, data)`);
    return report.ok ? 0 : 1;
  } finally {
    await cleanup();
    if (report?.ok) await rm(work, { recursive: true, force: true }).catch(() => undefined);
  }
}

main().then(
  (code) => process.exit(code),
  (err: unknown) => {
    console.error('chaos run failed:', err);
    process.exit(2);
  },
);
