// One waitFor for every test: the sync test kit's.
export { waitFor } from '../../../../sync/testing/wait.ts';

/** Spec timings scaled down so engine tests run in real time quickly. */
export const FAST_TIMINGS = {
  tickMs: 30,
  fetchGapMs: 10,
  queuedRefetchMs: 2,
  pollIdleMs: 40,
  pollStartMs: 20,
  pollMaxMs: 100,
  healthIdleMs: 300,
  resubscribeStartMs: 15,
  resubscribeMaxMs: 200,
  statusDebounceMs: 15,
  retryStartMs: 10,
  retryMaxMs: 100,
};
