// fetch with a deadline. A request that the network black-holes (accepted, never answered) fails
// after `ms` like any network error, instead of stalling whoever awaits it: the sync engine sends
// its outbox one entry at a time, so one hung request held back every later message of the tab
// (found by the chaos run, `npm run chaos -- --short --seed 2 --no-kill --hang 10`).
export function timeoutFetch(ms: number, base: typeof fetch = (input, init) => fetch(input, init)): typeof fetch {
  return (input, init) => {
    const deadline = AbortSignal.timeout(ms);
    const signal = init?.signal ? AbortSignal.any([init.signal, deadline]) : deadline;
    return base(input, { ...init, signal });
  };
}
