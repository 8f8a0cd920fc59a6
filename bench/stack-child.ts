// The bench's stacks run in processes of their own (stack-process.ts), as the services they stand for
// do: in the bench's process their realtime server shared one event loop with Playwright's control of
// five browsers and the floors' probes, and row 4's hop "NOTIFY received → frame sent" read that
// contention (19.5 ms p50 in the bench against ~4 ms with no browsers attached). This is the child:
// it starts one test stack, reports its address and keys, forwards each realtime delivery's timings
// (as epoch milliseconds: performance.now() has another origin in each process) and stops on request.
import { startTestStack } from '../tests/helpers/stack.ts';
import type { DeliveryTiming } from '../supabase/local/realtime/deps.ts';
import type { ChildRequest, ChildMessage } from './stack-process.ts';

const send = (m: ChildMessage) => process.send?.(m);
const req = JSON.parse(process.argv[2] ?? '{}') as ChildRequest;
const epoch = (t: number) => performance.timeOrigin + t;
const stack = await startTestStack(req.overrides, {
  ...(req.dataDir ? { dataDir: req.dataDir } : {}),
  onRealtimeDelivery: (d: DeliveryTiming) => send({ delivery: { ...d, notifiedAt: epoch(d.notifiedAt), preparedAt: epoch(d.preparedAt), sentAt: epoch(d.sentAt) } }),
});
process.on('message', (m: unknown) => {
  if (m !== 'stop') return;
  void (req.dataDir ? stack.stop() : stack.destroy()).finally(() => process.exit(0));
});
// The bench died without stopping this stack: stop it rather than leave PostgreSQL running.
process.on('disconnect', () => void stack.destroy().finally(() => process.exit(0)));
send({ ready: { url: stack.url, port: stack.port, keys: stack.keys, databaseUrl: stack.databaseUrl, dataDir: stack.dataDir, postgresPid: stack.postgresPid, postgrestPid: stack.postgrestPid } });
