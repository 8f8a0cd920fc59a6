// Keeps one child process of the stack (PostgreSQL, PostgREST) running: when it exits unasked, it is
// started again with exponential backoff (250 ms doubling to 5 s) until it is up or the stack stops.
// Invariants: at most one start is in flight; a held part stays down until release() (tests use this
// to keep a part down on purpose); after stop() nothing is started again.

export interface ChildRun {
  pid: number | undefined;
  exited: Promise<number | null>;
}

export interface SupervisorOptions {
  name: string;
  log: (line: string) => void;
  /** Starts a new run; throws if it could not start (retried). */
  start: () => Promise<ChildRun>;
  /** After every start done by the supervisor (register the pid, tell dependants). */
  onUp?: (run: ChildRun) => Promise<void> | void;
  /** After every exit of a watched run (unregister the pid). */
  onDown?: (run: ChildRun, code: number | null) => Promise<void> | void;
}

const MIN_DELAY = 250;
const MAX_DELAY = 5_000;

export class Supervisor {
  private held = false;
  private stopped = false;
  private running = false;
  private starting: Promise<void> | undefined;
  private wake: (() => void) | undefined;

  constructor(private readonly o: SupervisorOptions) {}

  /** Watches a run started elsewhere (the first start of the stack). */
  watch(run: ChildRun): void {
    this.running = true;
    void run.exited.then(async (code) => {
      this.running = false;
      // Never a rejection left unhandled: in a test run the stack lives in Vitest's main process, which
      // exits at the first unhandled rejection without writing its report. onDown writes the pid file
      // of DATA_DIR, which a test's teardown may be deleting in this very moment (the exit that
      // stop() waits for is also the one that calls this).
      try {
        await this.o.onDown?.(run, code);
      } catch (err) {
        this.o.log(`${this.o.name}: after its exit: ${(err as Error).message}`);
      }
      if (this.stopped || this.held) return;
      this.o.log(`${this.o.name} exited (${code ?? 'signal'}); restarting.`);
      await this.ensureRunning();
    });
  }

  /** Starts the part if it is down (unless held or stopped); resolves once it is up or given up. */
  ensureRunning(): Promise<void> {
    if (this.running || this.stopped || this.held) return Promise.resolve();
    this.starting ??= this.startLoop().finally(() => (this.starting = undefined));
    return this.starting;
  }

  /** Keeps the part down after its next exit (the caller stops it). */
  hold(): void {
    this.held = true;
    this.wake?.();
  }

  /** Lets the part run again and starts it now. */
  release(): Promise<void> {
    this.held = false;
    return this.ensureRunning();
  }

  /** No start after this; resolves when a start in flight has ended (its run is then stoppable). */
  async stop(): Promise<void> {
    this.stopped = true;
    this.wake?.();
    await this.starting;
  }

  private async startLoop(): Promise<void> {
    for (let delay = MIN_DELAY; !this.stopped && !this.held; delay = Math.min(delay * 2, MAX_DELAY)) {
      try {
        const run = await this.o.start();
        this.watch(run);
        await this.o.onUp?.(run);
        if (this.running) this.o.log(`${this.o.name} is back.`);
        return;
      } catch (err) {
        this.o.log(`${this.o.name} restart failed: ${(err as Error).message}; retrying in ${delay} ms`);
        await new Promise<void>((r) => {
          const t = setTimeout(r, delay);
          this.wake = () => {
            clearTimeout(t);
            r();
          };
        });
        this.wake = undefined;
      }
    }
  }
}
