// Drives the REAL @rails/actioncable browser client from Node 20 (tests only): the ws package as
// its WebSocket adapter and no-op window listeners, which its ConnectionMonitor needs for
// visibilitychange. The package ships no types, so the slice used here is described locally and
// the module is imported through a non-literal specifier (its UMD build gives a default export).
import { WebSocket } from 'ws';

export interface RoomFrame {
  event: string;
  data: Record<string, unknown>;
}

interface Mixin {
  connected?: (info: { reconnected: boolean }) => void;
  disconnected?: (info: { willAttemptReconnect: boolean }) => void;
  rejected?: () => void;
  received?: (message: RoomFrame) => void;
}

export interface CableSubscription {
  identifier: string;
  perform(action: string, data?: Record<string, unknown>): boolean;
  unsubscribe(): unknown;
}

export interface CableConsumer {
  subscriptions: { create(params: Record<string, unknown>, mixin: Mixin): CableSubscription };
  disconnect(): unknown;
}

interface ActionCableModule {
  createConsumer(url: string): CableConsumer;
  adapters: { WebSocket: unknown; logger: unknown };
  logger: { enabled: boolean };
}

let loaded: Promise<ActionCableModule> | undefined;

export function loadActionCable(): Promise<ActionCableModule> {
  loaded ??= (async () => {
    const g = globalThis as { addEventListener?: unknown; removeEventListener?: unknown };
    g.addEventListener ??= () => undefined;
    g.removeEventListener ??= () => undefined;
    const specifier = '@rails/actioncable';
    const mod = (await import(specifier)) as { default?: ActionCableModule } & Partial<ActionCableModule>;
    const cable = (mod.createConsumer ? mod : mod.default) as ActionCableModule;
    cable.adapters.WebSocket = WebSocket;
    cable.adapters.logger = { log: () => undefined };
    return cable;
  })();
  return loaded;
}

/** One RoomChannel subscription with everything it heard, and a way to wait for a frame. */
export class RoomListener {
  readonly frames: RoomFrame[] = [];
  connectedCount = 0;
  rejected = false;
  readonly subscription: CableSubscription;
  private waiters: Array<() => void> = [];

  constructor(
    consumer: CableConsumer,
    params: { pubsub_token: string; account_id?: number; user_id?: number },
  ) {
    this.subscription = consumer.subscriptions.create(
      { channel: 'RoomChannel', ...params },
      {
        connected: () => {
          this.connectedCount += 1;
          this.wake();
        },
        rejected: () => {
          this.rejected = true;
          this.wake();
        },
        received: (message) => {
          this.frames.push(message);
          this.wake();
        },
      },
    );
  }

  private wake(): void {
    const ws = this.waiters;
    this.waiters = [];
    for (const w of ws) w();
  }

  /** Waits until the predicate holds (re-checked on every callback), or fails after timeoutMs. */
  async until(predicate: () => boolean, what: string, timeoutMs = 3000): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while (!predicate()) {
      const left = deadline - Date.now();
      if (left <= 0)
        throw new Error(
          `timed out waiting for ${what}; heard ${JSON.stringify(this.frames.map((f) => f.event))}`,
        );
      await new Promise<void>((resolveWait) => {
        const timer = setTimeout(resolveWait, Math.min(left, 100));
        this.waiters.push(() => {
          clearTimeout(timer);
          resolveWait();
        });
      });
    }
  }

  connected(timeoutMs = 3000): Promise<void> {
    return this.until(() => this.connectedCount > 0, 'confirm_subscription', timeoutMs);
  }

  async frame(predicate: (f: RoomFrame) => boolean, what: string, timeoutMs = 3000): Promise<RoomFrame> {
    await this.until(() => this.frames.some(predicate), what, timeoutMs);
    return this.frames.find(predicate)!;
  }

  events(name: string): RoomFrame[] {
    return this.frames.filter((f) => f.event === name);
  }
}
