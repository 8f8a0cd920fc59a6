// A test stack in a process of its own (stack-process.ts), as the services it stands for run:
// - the bench's stacks: in the bench's process their realtime server shared one event loop with
//   Playwright's control of five browsers and the floors' probes, and row 4's hop "NOTIFY received →
//   frame sent" read that contention (19.5 ms p50 in the bench against ~4 ms with no browsers attached);
// - the Vitest groups' shared stacks (global-stack.ts): in Vitest's main process an unhandled rejection
//   anywhere in a stack ended the whole run without its report (stop 49's CI run), and the stack shared
//   its event loop with Vitest's transforms and reporters.
// This is the child: it starts one test stack, reports its address and keys, forwards each realtime
// delivery's timings when asked (as epoch milliseconds: performance.now() has another origin in each
// process) and stops on request, or when its parent is gone.
import { startTestStack } from './stack.ts';
import type { DeliveryTiming } from '../../supabase/local/realtime/deps.ts';
import type { ChildRequest, ChildMessage } from './stack-process.ts';

const send = (m: ChildMessage) => process.send?.(m);
const req = JSON.parse(process.argv[2] ?? '{}') as ChildRequest;
const epoch = (t: number) => performance.timeOrigin + t;
const stack = await startTestStack(req.overrides, {
  // PostgREST's own error lines (log level 'error': each answer it gave a 5xx, with PostgreSQL's
  // error) go to stderr, so a server error a test sees says its cause in the run's output (a 500
  // for send_message to a missing conversation was seen once under CI load, session 35, unexplained).
  // PostgreSQL's deadlock reports too (both processes and their statements: supabase/local/postgres.ts).
  log: (line: string) => {
    if (line.startsWith('postgrest: ') || line.includes('deadlock detected')) console.error(`[stack ${process.pid}] ${line}`);
  },
  ...(req.dataDir ? { dataDir: req.dataDir } : {}),
  ...(req.deliveries
    ? { onRealtimeDelivery: (d: DeliveryTiming) => send({ delivery: { ...d, notifiedAt: epoch(d.notifiedAt), preparedAt: epoch(d.preparedAt), sentAt: epoch(d.sentAt) } }) }
    : {}),
});
process.on('message', (m: unknown) => {
  if (m !== 'stop') return;
  void (req.dataDir ? stack.stop() : stack.destroy()).finally(() => process.exit(0));
});
// The parent died without stopping this stack: stop it rather than leave PostgreSQL running.
process.on('disconnect', () => void stack.destroy().finally(() => process.exit(0)));
send({ ready: { url: stack.url, port: stack.port, keys: stack.keys, databaseUrl: stack.databaseUrl, dataDir: stack.dataDir, postgresPid: stack.postgresPid, postgrestPid: stack.postgrestPid } });
