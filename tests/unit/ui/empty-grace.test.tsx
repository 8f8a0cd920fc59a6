// @vitest-environment jsdom
// Empty-state grace (user-area.md section 4): a first empty result is empty at once; an empty result
// after a non-empty one waits 1500 ms; a non-empty result in between cancels it.
import { act, cleanup, renderHook } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { EMPTY_STATE_GRACE_MS, useEmptyGrace } from '../../../src/lib/use-empty-grace.ts';

beforeEach(() => vi.useFakeTimers());
afterEach(() => {
  cleanup();
  vi.useRealTimers();
});

const tick = (ms: number) => {
  act(() => {
    vi.advanceTimersByTime(ms);
  });
};

const setup = (initial: number | undefined) => renderHook(({ count }: { count: number | undefined }) => useEmptyGrace(count), { initialProps: { count: initial } });

describe('useEmptyGrace', () => {
  it('is 1500 ms', () => expect(EMPTY_STATE_GRACE_MS).toBe(1500));

  it('shows nothing while loading', () => {
    expect(setup(undefined).result.current).toBe(false);
  });

  it('shows the first empty result at once', () => {
    expect(setup(0).result.current).toBe(true);
  });

  it('waits 1500 ms before a later empty result shows', () => {
    const h = setup(3);
    expect(h.result.current).toBe(false);
    h.rerender({ count: 0 });
    expect(h.result.current).toBe(false);
    tick(1499);
    expect(h.result.current).toBe(false);
    tick(1);
    expect(h.result.current).toBe(true);
  });

  it('a non-empty result during the grace cancels it', () => {
    const h = setup(2);
    h.rerender({ count: 0 });
    tick(1000);
    h.rerender({ count: 1 });
    tick(2000);
    expect(h.result.current).toBe(false);
    h.rerender({ count: 0 });
    tick(1000);
    expect(h.result.current).toBe(false);
    tick(500);
    expect(h.result.current).toBe(true);
  });
});
