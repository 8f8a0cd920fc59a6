// The loop both background workers of the local stack run (the AI reply worker in workers.ts, the
// push worker in push-worker.ts): it wakes on NOTIFY <channel> and polls once a second as a safety
// net, then drains the queue by calling `step` (claim one unit of work and run it) until the queue is
// idle, a cap of steps is reached (the next poll or kick goes on) or a step throws (logged once per
// distinct message, retried at the next wake). The queue's own rows carry retry and back-off; this
// loop only decides when to look.
import pg from 'pg';

export interface DrainWorker {
  /** Drains now (NOTIFY and tests use it). */
  kick(): void;
  /** PostgreSQL is back: LISTEN again now rather than at the next retry. */
  reconnectNow(): void;
  /** No new drain starts; resolves when the running one has finished and the connection is closed. */
  stop(): Promise<void>;
}

export async function startDrainWorker(opts: {
  /** Named in log lines ("<name>: <error>") and in pg_stat_activity (`poradna-<name>`, spaces as dashes). */
  name: string;
  databaseUrl: string;
  /** The NOTIFY channel the queue's trigger signals. */
  channel: string;
  /** Steps per drain at most, so one wake never holds the loop for long. */
  maxSteps: number;
  /** Claims and runs one unit; 'idle' when nothing is due. */
  step: () => Promise<unknown>;
  log: (line: string) => void;
}): Promise<DrainWorker> {
  let stopped = false;
  let running: Promise<void> | undefined;
  let again = false;
  let lastError = '';

  const drain = async () => {
    for (let i = 0; i < opts.maxSteps && !stopped; i++) {
      try {
        const outcome = await opts.step();
        lastError = '';
        if (outcome === 'idle') return;
      } catch (err) {
        // A persistent problem (database down) would repeat every second: say it once until it changes.
        const msg = (err as Error).message;
        if (msg !== lastError) opts.log(`${opts.name}: ${msg}`);
        lastError = msg;
        return;
      }
    }
  };
  // Invariant: one drain at a time; a kick during a drain runs one more after it.
  const kick = () => {
    if (stopped) return;
    if (running) {
      again = true;
      return;
    }
    running = drain().finally(() => {
      running = undefined;
      if (again) {
        again = false;
        kick();
      }
    });
  };

  // LISTEN on a dedicated connection; reconnect if PostgreSQL restarts (every 1 s while it is down;
  // the 1 s poll below keeps work moving meanwhile). Invariant: at most one connection or retry timer.
  let listener: pg.Client | undefined;
  let retry: NodeJS.Timeout | undefined;
  const scheduleListen = (ms: number) => {
    if (stopped || retry) return;
    retry = setTimeout(() => {
      retry = undefined;
      void listen();
    }, ms);
  };
  const listen = async (): Promise<void> => {
    if (stopped) return;
    const c = new pg.Client({ connectionString: opts.databaseUrl, application_name: `poradna-${opts.name.replace(/ /g, '-')}` });
    let lost = false;
    const onLost = () => {
      if (lost) return;
      lost = true;
      if (listener === c) listener = undefined;
      void c.end().catch(() => undefined);
      scheduleListen(1000);
    };
    c.on('error', onLost); // an unhandled 'error' on a pg client would crash the stack
    c.on('end', onLost);
    c.on('notification', () => kick());
    try {
      await c.connect();
      await c.query(`listen ${pg.escapeIdentifier(opts.channel)}`);
      if (lost || stopped) return void c.end().catch(() => undefined);
      listener = c;
      kick(); // work queued while the connection was down
    } catch {
      onLost();
    }
  };
  await listen();
  const poll = setInterval(kick, 1000);
  kick();

  return {
    kick,
    reconnectNow: () => {
      if (listener || !retry) return;
      clearTimeout(retry);
      retry = undefined;
      void listen();
    },
    stop: async () => {
      stopped = true;
      clearInterval(poll);
      clearTimeout(retry);
      await listener?.end().catch(() => undefined);
      await running;
    },
  };
}
