// The Vitest groups' shared stacks, started together (issue 42). Vitest runs the projects' globalSetup
// one project after another (vitest 4.1 cli-api `initializeGlobalSetup`: `for (const project of
// projects) await project._initializeGlobalSetup()`), so five groups' stacks came up in a row and the
// first test file ran 58–61 s after the start (session 34). Now the first group's setup starts the
// stack of every group this run has files for, at once; each group's setup takes its own when Vitest
// gets to it. Which groups: the projects of this run (already narrowed by --project) that have a stack
// setup and a file of the run (Vitest records the run's files before any setup: TestRun.start).
// Invariants: a stack is started at most once per group and run; its group's setup provides it and
// returns its teardown; a start that failed fails its own group's setup, never another's; a stack
// started but never taken (not expected) is stopped when Vitest closes.
import { randomBytes } from 'node:crypto';
import { basename } from 'node:path';
import type { TestProject } from 'vitest/node';
import { startAiProviderDouble } from '../doubles/ai-provider.ts';
import { startChatwootDouble } from '../doubles/chatwoot/server.ts';
import { saveChatwootConfig, type ProvidedConfigured } from './configured.ts';
import { provideStack } from './provide-stack.ts';
import { startStackProcess } from './stack-process.ts';

type Teardown = () => Promise<void>;
/** Starts a group's stack, provides it to the project, and resolves to its teardown. */
type GroupStart = (project: TestProject) => Promise<Teardown>;

/** A group with default settings: global-stack.ts. */
const shared: GroupStart = async (project) => {
  const stack = await startStackProcess({ overrides: {} });
  provideStack(project, stack);
  return () => stack.destroy();
};

/**
 * The `server-configured` group: its stack started with Chatwoot (the Chatwoot double, its token,
 * webhook secret and the saved connection) and an AI provider (the provider double) configured, as
 * issue 36 asks every attack row to hold there too (global-stack-configured.ts).
 */
const configured: GroupStart = async (project) => {
  const provider = await startAiProviderDouble();
  const chatwoot = await startChatwootDouble();
  const c: ProvidedConfigured = {
    ai: { baseUrl: provider.url, apiKey: 'sk-test', model: 'fake-model' },
    // The doubles listen on loopback: the explicit opt-in for a Chatwoot on a private network.
    chatwoot: { apiToken: chatwoot.apiToken, webhookSecret: randomBytes(24).toString('hex'), allowPrivateUrls: true },
    chatwootUrl: chatwoot.url,
    chatwootAccountId: chatwoot.accountId,
  };
  const stack = await startStackProcess({ overrides: { ai: c.ai, chatwoot: c.chatwoot } });
  await saveChatwootConfig(stack.databaseUrl, c);
  chatwoot.addWebhook(
    `${stack.url}/functions/v1/chatwoot-webhook?secret=${c.chatwoot.webhookSecret}`,
    ['message_created', 'message_updated', 'conversation_status_changed', 'conversation_updated'],
    c.chatwoot.webhookSecret,
  );
  project.provide('configured', c);
  provideStack(project, stack);
  return async () => {
    await stack.destroy();
    await chatwoot.stop();
    await provider.stop();
  };
};

/** Each stack setup file (by name) and how its group's stack starts. */
const STARTS: Record<string, GroupStart> = { 'global-stack.ts': shared, 'global-stack-configured.ts': configured };

interface Started {
  teardown: Promise<Teardown>;
  taken: boolean;
}

/** The run's starts, by project name: in the one Vitest process every project's setup runs in. */
const RUN = Symbol.for('poradna.group-stacks');
type Holder = { [RUN]?: Map<string, Started> };

function startOf(p: TestProject): GroupStart | undefined {
  for (const file of p.config.globalSetup ?? []) {
    const start = STARTS[basename(file)];
    if (start) return start;
  }
  return undefined;
}

function startAll(project: TestProject): Map<string, Started> {
  const runFiles = project.vitest.state.getPaths();
  const started = new Map<string, Started>();
  for (const p of project.vitest.projects) {
    const start = startOf(p);
    if (!start || (p !== project && !runFiles.some((f) => p.matchesTestGlob(f)))) continue;
    const teardown = start(p);
    // Judged by the group that takes it; until then a failure must not be an unhandled rejection.
    teardown.catch(() => undefined);
    started.set(p.name, { teardown, taken: false });
  }
  project.vitest.onClose(async () => {
    for (const s of started.values()) if (!s.taken) await (await s.teardown.catch(() => null))?.();
  });
  return started;
}

/** A stack group's globalSetup: its stack (started with every other group's on the first call). */
export async function groupSetup(project: TestProject): Promise<Teardown> {
  const holder = globalThis as Holder;
  const run = (holder[RUN] ??= startAll(project));
  let mine = run.get(project.name);
  if (!mine || mine.taken) {
    // Not foreseen (or a second run in watch mode): started now, alone.
    const start = startOf(project);
    if (!start) throw new Error(`no stack setup for project ${project.name}`);
    mine = { teardown: start(project), taken: false };
    run.set(project.name, mine);
  }
  mine.taken = true;
  return mine.teardown;
}
