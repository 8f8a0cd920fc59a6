import { describe, expect, it, vi } from 'vitest';
import { ACCOUNT_WAIT, accountWaitDelays, waitForAccount } from '../../../src/auth/account-wait.ts';

describe('callback account wait (user-area.md section 9)', () => {
  it('tries first after 100 ms, then retries up to 5 times from 500 ms growing x1.2', () => {
    const delays = accountWaitDelays(() => 0);
    expect(delays).toHaveLength(1 + ACCOUNT_WAIT.retries);
    expect(delays[0]).toBe(100);
    expect(delays.slice(1).map((d) => Math.round(d * 1000) / 1000)).toEqual([500, 600, 720, 864, 1036.8]);
  });
  it('adds at most 100 ms of jitter per step and never waits more than 2 s', () => {
    const max = accountWaitDelays(() => 0.999999);
    expect(max[1]).toBe(500);
    expect(max[2]).toBeCloseTo(700, 0);
    for (const d of max) expect(d).toBeLessThanOrEqual(2000);
    for (let i = 0; i < 200; i++) {
      const delays = accountWaitDelays();
      for (let k = 2; k < delays.length; k++) {
        const prev = delays[k - 1]!;
        expect(delays[k]).toBeGreaterThanOrEqual(Math.min(2000, prev * 1.2));
        expect(delays[k]).toBeLessThanOrEqual(Math.min(2000, prev * 1.2 + 100));
      }
    }
  });
  it('returns the account as soon as it exists', async () => {
    vi.spyOn(console, 'warn').mockImplementation(() => {});
    const sleep = vi.fn(async (_ms: number) => {});
    const lookup = vi.fn<() => Promise<string | null>>().mockResolvedValueOnce(null).mockRejectedValueOnce(new Error('503')).mockResolvedValue('acc-1');
    await expect(waitForAccount(lookup, { sleep, random: () => 0 })).resolves.toBe('acc-1');
    expect(lookup).toHaveBeenCalledTimes(3);
    expect(sleep.mock.calls.map((c) => c[0])).toEqual([100, 500, 600]);
  });
  it('gives up with null after the first attempt and 5 retries', async () => {
    const lookup = vi.fn(async () => null);
    await expect(waitForAccount(lookup, { sleep: async () => {} })).resolves.toBeNull();
    expect(lookup).toHaveBeenCalledTimes(6);
  });
  it('stops when cancelled', async () => {
    const lookup = vi.fn(async () => null);
    await expect(waitForAccount(lookup, { sleep: async () => {}, isCancelled: () => true })).resolves.toBeNull();
    expect(lookup).not.toHaveBeenCalled();
  });
});
