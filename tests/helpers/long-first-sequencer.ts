// Vitest's order with the longest files first (issue 42, session 34). Vitest sorts by project name
// (db, server, sync, unit: BaseSequencer.sort), and a clean clone has no cache of durations, so
// tests/sync/fuzz.test.ts (~200 s at two files at a time) started ~490 s into the step and ran on
// alone for its last ~30 s while the other worker had nothing left. These files start first, longest
// first, on either worker; every other file keeps Vitest's own order, except that the files one shared
// worker can run one after another are put next to each other (runnerKey below). The list is the files over ~50 s
// in `npm test`'s vitest.json (scripts/test-timings.mjs prints the slowest); a file missing from it
// only runs in its usual place.
import { readFileSync } from 'node:fs';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

// The timing step's own (`--project 'timing*'`, four files at a time) follow: in session 48's green run
// it took 94.5 s, because session.test (70 s) started 7 s and enumeration-timing (66 s) 18 s in, behind
// shorter files; with the four longest first the step is about as long as its longest file.
export const LONG_FIRST = [
  'tests/sync/fuzz.test.ts',
  'tests/sync/fuzz-2.test.ts',
  'tests/db/access-matrix.test.ts',
  'tests/server/push-delivery.test.ts',
  'tests/sync/slow-link.test.ts',
  'tests/sync/session.test.ts',
  'tests/server/enumeration-timing.test.ts',
  'tests/sync/fuzz-hostile.test.ts',
  'tests/server/chatwoot-slow.test.ts',
];

const rankIn = (long: string[], f: { moduleId: string }) => long.findIndex((p) => f.moduleId === p || f.moduleId.endsWith(`/${p}`));

/** The files of `LONG_FIRST` first (in its order), then the rest in `order`'s order. */
export function longFirst<T extends { moduleId: string }>(order: T[], long: string[] = LONG_FIRST): T[] {
  const rank = (f: T) => rankIn(long, f);
  const first = order.filter((f) => rank(f) >= 0).sort((a, b) => rank(a) - rank(b));
  return [...first, ...order.filter((f) => rank(f) < 0)];
}

/**
 * `order` with the files of one key next to each other: each key's files keep their order, and the
 * keys come in the order of their first file.
 */
export function together<T>(order: T[], key: (f: T) => string): T[] {
  const groups = new Map<string, T[]>();
  for (const f of order) {
    const k = key(f);
    const group = groups.get(k);
    if (group) group.push(f);
    else groups.set(k, [f]);
  }
  return [...groups.values()].flat();
}

/**
 * The environment Vitest runs a file in: its docblock's `@vitest-environment`, else its project's (the
 * same reading as vitest's getSpecificationsOptions / detectCodeBlock, dist/chunks/cli-api).
 */
export function environmentOf(code: string, projectEnvironment: string | undefined): string {
  return /@(?:vitest|jest)-environment\s+([\w-]+)\b/.exec(code)?.[1] ?? (projectEnvironment || 'node');
}

/**
 * A worker shared between files (`isolate: false`) is kept only while the next file in Vitest's one
 * queue belongs to the same project and environment; otherwise it is stopped and the next file pays
 * a fresh process, its imports and its environment again (vitest's pool: the runner is kept only if
 * `isEqualRunner(runner, this.queue[0].task)`, dist/chunks/cli-api). Vitest's order keeps a project's
 * files together but mixes environments by file size, so the unit project's 26 jsdom and 100 node files
 * restarted their worker at most switches (issue 42, session 45: measured in docs/TESTING.md). After the
 * long files, the files of one project and environment therefore run one after another.
 */
export function runnerKey(f: TestSpecification): string {
  let code = '';
  try {
    code = readFileSync(f.moduleId, 'utf8');
  } catch {
    // unreadable here: Vitest reports it when it runs the file
  }
  return `${f.project.name}\u0000${environmentOf(code, f.project.config.environment)}`;
}

/** The run's order: the long files first (longFirst), then the rest with each key's files together. */
export function sequence<T extends { moduleId: string }>(order: T[], key: (f: T) => string, long: string[] = LONG_FIRST): T[] {
  const ordered = longFirst(order, long);
  const first = ordered.filter((f) => rankIn(long, f) >= 0).length;
  return [...ordered.slice(0, first), ...together(ordered.slice(first), key)];
}

export default class LongFirstSequencer extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    return sequence(await super.sort(files), runnerKey);
  }
}
