// Vitest's order with the longest files first (issue 42, session 34). Vitest sorts by project name
// (db, server, sync, unit: BaseSequencer.sort), and a clean clone has no cache of durations, so
// tests/sync/fuzz.test.ts (~200 s at two files at a time) started ~490 s into the step and ran on
// alone for its last ~30 s while the other worker had nothing left. These files start first, longest
// first, on either worker; every other file keeps Vitest's own order. The list is the files over ~50 s
// in `npm test`'s vitest.json (scripts/test-timings.mjs prints the slowest); a file missing from it
// only runs in its usual place.
import { BaseSequencer, type TestSpecification } from 'vitest/node';

export const LONG_FIRST = ['tests/sync/fuzz.test.ts', 'tests/db/access-matrix.test.ts', 'tests/server/push-delivery.test.ts', 'tests/sync/slow-link.test.ts'];

/** The files of `LONG_FIRST` first (in its order), then the rest in `order`'s order. */
export function longFirst<T extends { moduleId: string }>(order: T[], long: string[] = LONG_FIRST): T[] {
  const rank = (f: T) => long.findIndex((p) => f.moduleId === p || f.moduleId.endsWith(`/${p}`));
  const first = order.filter((f) => rank(f) >= 0).sort((a, b) => rank(a) - rank(b));
  return [...first, ...order.filter((f) => rank(f) < 0)];
}

export default class LongFirstSequencer extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    return longFirst(await super.sort(files));
  }
}
