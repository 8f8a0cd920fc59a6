// tests/helpers/long-first-sequencer.ts: the longest Vitest files start first (issue 42).
import { describe, expect, it } from 'vitest';
import { longFirst } from '../helpers/long-first-sequencer.ts';

describe('long files first', () => {
  it('moves the listed files to the front in the list order and keeps every other file in place', () => {
    const order = ['/r/tests/db/a.test.ts', '/r/tests/db/access-matrix.test.ts', '/r/tests/server/b.test.ts', '/r/tests/sync/fuzz.test.ts', '/r/tests/unit/c.test.ts'].map((moduleId) => ({ moduleId }));
    expect(longFirst(order).map((f) => f.moduleId)).toEqual([
      '/r/tests/sync/fuzz.test.ts',
      '/r/tests/db/access-matrix.test.ts',
      '/r/tests/db/a.test.ts',
      '/r/tests/server/b.test.ts',
      '/r/tests/unit/c.test.ts',
    ]);
  });

  it('matches a whole path segment, not a file that merely ends alike', () => {
    const order = [{ moduleId: '/r/tests/sync/not-fuzz.test.ts' }, { moduleId: '/r/tests/sync/fuzz.test.ts' }];
    expect(longFirst(order, ['fuzz.test.ts']).map((f) => f.moduleId)).toEqual(['/r/tests/sync/fuzz.test.ts', '/r/tests/sync/not-fuzz.test.ts']);
  });
});
