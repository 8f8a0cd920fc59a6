// A test stack in a child process (stack-child.ts says why). The handle carries what the bench's rows
// and the Vitest groups use of a stack — its address, keys and database — and, for the bench, the
// realtime deliveries' timings, turned back into this process's performance.now() basis so
// bench/hops.ts reads them as before.
import { fork } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import type { DeliveryTiming } from '../../supabase/local/realtime/deps.ts';
import type { StackConfig } from '../../supabase/local/config.ts';
import type { RunningStack } from '../../supabase/local/stack.ts';

export interface ChildRequest {
  overrides: Partial<StackConfig>;
  /** A DATA_DIR the bench made (kept on stop); else the child makes one and deletes it. */
  dataDir?: string;
  /** Forward every realtime delivery's timings (startStackProcess sets it when given onDelivery). */
  deliveries?: boolean;
}

type Ready = Pick<RunningStack, 'url' | 'port' | 'keys' | 'databaseUrl' | 'postgresPid' | 'postgrestPid'> & { dataDir: string };
export type ChildMessage = { ready: Ready } | { delivery: DeliveryTiming };

export interface ChildStack extends Ready {
  /** The child's pid: the stack's node process (gateway, auth, realtime, functions host). */
  pid: number;
  destroy(): Promise<void>;
}

const CHILD = fileURLToPath(new URL('./stack-child.ts', import.meta.url));

export async function startStackProcess(req: ChildRequest, onDelivery?: (d: DeliveryTiming) => void): Promise<ChildStack> {
  const child = fork(CHILD, [JSON.stringify({ ...req, deliveries: !!onDelivery })], { execArgv: ['--import', 'tsx'], stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  const local = (t: number) => t - performance.timeOrigin;
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const ready = await new Promise<Ready>((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`stack process exited (${code}) before it was ready`)));
    child.on('message', (m: ChildMessage) => {
      if ('ready' in m) resolve(m.ready);
      else onDelivery?.({ ...m.delivery, notifiedAt: local(m.delivery.notifiedAt), preparedAt: local(m.delivery.preparedAt), sentAt: local(m.delivery.sentAt) });
    });
  });
  // A stack that dies by itself (an unhandled error in it: Node printed it above) leaves every test
  // after it failing on a refused connection; say which process it was, where those failures begin.
  let stopping = false;
  child.once('exit', (code, signal) => {
    if (!stopping) console.error(`\n✖ the stack process ${child.pid ?? '?'} (${ready.url}) exited by itself (${code ?? signal}); its error is above\n`);
  });
  return {
    ...ready,
    pid: child.pid ?? -1,
    destroy: async () => {
      stopping = true;
      if (child.exitCode === null && child.connected) child.send('stop');
      const timer = setTimeout(() => child.kill('SIGKILL'), 30_000);
      await exited;
      clearTimeout(timer);
    },
  };
}
