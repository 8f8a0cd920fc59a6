// R6.2: Chatwoot's RoomChannel through @rails/actioncable. Subscribes with pubsub_token, account_id
// and user_id, sends update_presence every 30 s, maps the six events (chatwoot-events.ts) and
// reconnects by the spec's policy (cable-backoff.ts) rather than ActionCable's own; after 10 failed
// attempts it reports 'error' and the engine carries on with the other transports.
import type { Consumer, Subscription } from '@rails/actioncable';
import type { Clock, TimerId } from '../model/clock.ts';
import { PRESENCE_PING_MS, REALTIME_SOCKET_TIMEOUT_MS } from '../model/constants.ts';
import { cableReconnectDelay, mayReconnect } from './cable-backoff.ts';
import { chatwootEvents } from './chatwoot-events.ts';
import { statusCell, type Transport } from './transport.ts';

export interface CableCredentials {
  pubsubToken: string;
  accountId: number | string;
  /** Absent for a contact's token (Chatwoot's RoomChannel then expects no user_id). */
  userId?: number | string | null;
}

export interface ChatwootCableOptions {
  /** wss://HOST/cable */
  url: string;
  /** The chatwoot-pubsub-token function's answer. */
  credentials: () => Promise<CableCredentials>;
  clock: Clock;
  random?: () => number;
  createConsumer?: (url: string) => Consumer | Promise<Consumer>;
  presenceMs?: number;
}

async function actionCableConsumer(url: string): Promise<Consumer> {
  const ac = await import('@rails/actioncable');
  return ac.createConsumer(url);
}

export function createChatwootCableTransport(opts: ChatwootCableOptions): Transport {
  const cell = statusCell();
  const random = opts.random ?? Math.random;
  const create = opts.createConsumer ?? actionCableConsumer;
  let attempts = 0;
  let consumer: Consumer | null = null;
  let subscription: Subscription | null = null;
  const timers = new Set<TimerId>();
  let presence: TimerId | null = null;

  const later = (fn: () => void, ms: number): TimerId => {
    const id = opts.clock.setTimeout(() => {
      timers.delete(id);
      fn();
    }, ms);
    timers.add(id);
    return id;
  };
  const teardown = () => {
    for (const t of timers) opts.clock.clearTimeout(t);
    timers.clear();
    presence = null;
    const s = subscription;
    const c = consumer;
    subscription = null;
    consumer = null;
    try {
      s?.unsubscribe();
    } catch {
      // the socket may already be gone
    }
    c?.disconnect();
  };
  const ping = () => {
    subscription?.perform('update_presence');
    presence = later(ping, opts.presenceMs ?? PRESENCE_PING_MS);
  };
  const failed = (why: string) => {
    teardown();
    if (cell.get() === 'closed') return;
    if (!mayReconnect(attempts)) {
      cell.set('error', `gave up after ${attempts} attempts: ${why}`);
      return;
    }
    cell.set('disconnected', why);
    later(() => void connect(), cableReconnectDelay(attempts++, random));
  };
  async function connect(): Promise<void> {
    cell.set('connecting');
    let creds: CableCredentials;
    let c: Consumer;
    try {
      creds = await opts.credentials();
      c = await create(opts.url);
    } catch (err) {
      failed(err instanceof Error ? err.message : String(err));
      return;
    }
    if (cell.get() === 'closed') {
      c.disconnect();
      return;
    }
    consumer = c;
    let confirmed = false;
    // A bad token is never confirmed (and never rejected): give up on the attempt after a while.
    const timeout = later(() => failed('subscription not confirmed'), REALTIME_SOCKET_TIMEOUT_MS);
    const params: Record<string, unknown> = { channel: 'RoomChannel', pubsub_token: creds.pubsubToken, account_id: creds.accountId };
    if (creds.userId !== undefined && creds.userId !== null) params.user_id = creds.userId;
    subscription = c.subscriptions.create(
      params,
      {
        connected: () => {
          confirmed = true;
          opts.clock.clearTimeout(timeout);
          timers.delete(timeout);
          attempts = 0;
          cell.set('connected');
          if (presence === null) ping();
        },
        disconnected: () => failed(confirmed ? 'disconnected' : 'could not connect'),
        rejected: () => failed('rejected'),
        received: (data) => {
          for (const e of chatwootEvents(data)) cell.emit(e);
        },
      },
    );
  }
  return {
    name: 'chatwoot-cable',
    status: cell.get,
    subscribe(handlers) {
      cell.attach(handlers);
      void connect();
    },
    async close() {
      cell.close();
      teardown();
    },
  };
}
