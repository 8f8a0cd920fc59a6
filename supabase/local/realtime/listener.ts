// The dedicated LISTEN connection for 'local_realtime'. Invariant: while the listener is running, a
// lost connection (PostgreSQL restarted, backend terminated, network) is re-established with
// exponential backoff; `onUp` fires after every successful (re)connection so subscribers can be told
// (changes committed while it was down are not replayed — clients catch up by pulling).
import pg from 'pg';

export const NOTIFY_CHANNEL = 'local_realtime';
export const LISTENER_APP_NAME = 'poradna-realtime-listener';

export interface ListenerOptions {
  databaseUrl: string;
  log: (line: string) => void;
  onNotification: (payload: string) => void;
  onUp: (reconnected: boolean) => void;
  onDown: () => void;
  /** The connection's application_name (default LISTENER_APP_NAME); tests tell their server's apart by it. */
  appName?: string;
}

const MIN_DELAY = 250;
const MAX_DELAY = 10_000;
const HEALTH_INTERVAL = 30_000;

export class Listener {
  private client: pg.Client | undefined;
  private stopped = false;
  private everUp = false;
  private delay = MIN_DELAY;
  private retryTimer: NodeJS.Timeout | undefined;
  private healthTimer: NodeJS.Timeout | undefined;

  constructor(private readonly opts: ListenerOptions) {}

  /** Resolves after the first connection attempt, successful or not (retries continue). */
  async start(): Promise<void> {
    await this.connect();
  }

  private async connect(): Promise<void> {
    if (this.stopped) return;
    const client = new pg.Client({
      connectionString: this.opts.databaseUrl,
      application_name: this.opts.appName ?? LISTENER_APP_NAME,
      keepAlive: true,
    });
    let lost = false;
    const onLost = (err?: Error) => {
      if (lost) return;
      lost = true;
      if (this.client === client) this.client = undefined;
      client.removeAllListeners('notification');
      void client.end().catch(() => undefined);
      if (this.stopped) return;
      this.opts.log(`realtime: LISTEN connection lost${err ? ` (${err.message})` : ''}; reconnecting`);
      this.opts.onDown();
      this.scheduleRetry();
    };
    client.on('error', onLost);
    client.on('end', () => onLost());
    client.on('notification', (msg) => {
      if (msg.channel === NOTIFY_CHANNEL && msg.payload !== undefined) this.opts.onNotification(msg.payload);
    });
    try {
      await client.connect();
      await client.query(`listen ${NOTIFY_CHANNEL}`);
    } catch (err) {
      if (!lost) {
        lost = true;
        void client.end().catch(() => undefined);
        if (!this.stopped) {
          this.opts.log(`realtime: cannot LISTEN (${(err as Error).message}); retrying in ${this.delay} ms`);
          this.scheduleRetry();
        }
      }
      return;
    }
    if (this.stopped) {
      await client.end().catch(() => undefined);
      return;
    }
    this.client = client;
    this.delay = MIN_DELAY;
    const reconnected = this.everUp;
    this.everUp = true;
    if (reconnected) this.opts.log('realtime: LISTEN connection re-established');
    this.opts.onUp(reconnected);
    this.scheduleHealthCheck();
  }

  /** Retries a lost connection now instead of after the backoff (PostgreSQL is known to be back). */
  retryNow(): void {
    if (this.stopped || this.client || !this.retryTimer) return;
    clearTimeout(this.retryTimer);
    this.retryTimer = undefined;
    this.delay = MIN_DELAY;
    void this.connect();
  }

  private scheduleRetry(): void {
    clearTimeout(this.retryTimer);
    const wait = this.delay;
    this.delay = Math.min(this.delay * 2, MAX_DELAY);
    this.retryTimer = setTimeout(() => {
      this.retryTimer = undefined;
      void this.connect();
    }, wait);
  }

  /** A half-open TCP connection emits nothing; a periodic query turns it into an error. */
  private scheduleHealthCheck(): void {
    clearTimeout(this.healthTimer);
    this.healthTimer = setTimeout(() => {
      const c = this.client;
      if (!c || this.stopped) return;
      c.query('select 1').then(
        () => this.scheduleHealthCheck(),
        (err: Error) => c.emit('error', err),
      );
    }, HEALTH_INTERVAL);
    this.healthTimer.unref();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.retryTimer);
    clearTimeout(this.healthTimer);
    const c = this.client;
    this.client = undefined;
    if (c) await c.end().catch(() => undefined);
  }
}
