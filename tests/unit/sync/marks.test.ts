// @vitest-environment jsdom
// The bench's marks (sync/marks.ts) must not pile up in a page left open for days.
import { describe, expect, it } from 'vitest';
import { MARKS_KEPT, syncMark } from '../../../sync/marks.ts';

describe('performance marks', () => {
  it('keeps at most MARKS_KEPT marks of a name: past that, the older ones are cleared', () => {
    const count = () => performance.getEntriesByName('poradna:recv:event').length;
    for (let i = 0; i < MARKS_KEPT; i++) syncMark('poradna:recv:event', { id: `m${i}` });
    expect(count()).toBe(MARKS_KEPT);
    for (let i = 0; i < 5; i++) syncMark('poradna:recv:event', { id: `n${i}` });
    expect(count()).toBe(5);
    const last = performance.getEntriesByName('poradna:recv:event').at(-1) as PerformanceMark;
    expect(last.detail).toEqual({ id: 'n4' });
    // Other names keep theirs.
    syncMark('poradna:recv:stored', { id: 'x' });
    expect(performance.getEntriesByName('poradna:recv:stored')).toHaveLength(1);
  });
});
