// The scheduler (R7). It decides when to pull, push and (re)subscribe; the work itself is done by the
// injected deps (pull.ts, push.ts, transports). Timings are user-area.md section 9's (constants.ts).
//
//  ┌ network ───────────────┐  ┌ link (realtime) ──────────────────────────────────────────────┐
//  │ online ◀──ONLINE──┐    │  │            ┌──────────── live (invokes the transport) ───────┐ │
//  │   │           offline  │  │  paused ──▶│ connecting ──LINK_UP──▶ connected ⇄ degraded    │ │
//  │   └──OFFLINE──▶  ▲     │  │    ▲       └───────────────LINK_DOWN──────┬─────────────────┘ │
//  └──────────────────┘     │  │    │ OFFLINE (from any)                   ▼                   │
//                           │  │    └───────────────────────  waiting ── after resubscribe ──▶ live
//  ┌ poller ──────────────┐ │  │  (resubscribe 1500 ms, ×2, max 30 s; back to 1500 on LINK_UP;  │
//  │ off ◀─LINK_UP/OFFLINE │ │  │   LINK_UP also asks for a pull: R5.4)        none: no realtime │
//  │  │ ─LINK_DOWN/DEGRADED─▶ on (polling: idle > 5 s, 2000 ms ×1.5 up to 15 s)  (R6.9: degraded │
//  │                      │ │  │   = joined, the server lost PostgreSQL; LINK_UP when it is back) │
//  └──────────────────────┘ └────────────────────────────────────────────────────────────────────┘
//  ┌ fetch ──────────────────────────────────────────────────────────────────────────────────────┐
//  │ idle ──REQUEST_PULL (gap ≥ 1200 ms since last start)──▶ fetching ──done──▶ idle            │
//  │   └──REQUEST_PULL (gap not yet)──▶ gap ──after rest of gap──▶ fetching                      │
//  │ fetching ──REQUEST_PULL──▶ (queued) ──done──▶ queued ──after max(100 ms, rest of gap)──▶ fetching │
//  └─────────────────────────────────────────────────────────────────────────────────────────────┘
//  ┌ push ─────────────────────────────────────────────────────────────────┐  ┌ ticker ─────────┐
//  │ idle ──FLUSH──▶ flushing ──done, more due later──▶ backoff ──due──▶ flushing │ every 3 s: health│
//  │        ◀──done, nothing due──┘  FLUSH while flushing: once more       │  │ pull (30 s idle,│
//  └───────────────────────────────────────────────────────────────────────┘  │ connected), stale│
//  aux: invokes auxiliary transports (Chatwoot) for the machine's lifetime     │ typing (120 s),  │
//                                                                              │ FLUSH, onTick    │
//                                                                              └─────────────────┘
import { assign, enqueueActions, fromCallback, fromPromise, setup, type AnyActorRef } from 'xstate';
import { monotonicNow, type Clock } from './model/clock.ts';
import type { Timings } from './model/constants.ts';
import type { EventOutcome } from './receive/events.ts';
import type { Activity } from './transports/polling.ts';
import { statusCell, type Transport, type TransportEvent } from './transports/transport.ts';

export interface MachineDeps {
  clock: Clock;
  timings: Timings;
  activity: Activity;
  pull(): Promise<{ changed: boolean }>;
  /** nextDueAt: on the clock's monotonic time (R9.6). */
  flush(): Promise<{ nextDueAt: number | null }>;
  /** A fresh realtime transport for each subscription attempt; null when there is none. */
  createLink: (() => Transport) | null;
  createPolling(): Transport;
  auxTransports(): Transport[];
  onEvent(e: TransportEvent): Promise<EventOutcome>;
  onTick(now: number): void;
}

export type PullReason = 'start' | 'reconnect' | 'other';

export type SyncEvent =
  | { type: 'ONLINE' }
  | { type: 'OFFLINE' }
  | { type: 'REQUEST_PULL'; reason?: PullReason }
  /** R5.10: the pull in flight stored a page: the failure of the one before no longer holds. */
  | { type: 'PULL_PROGRESS' }
  | { type: 'FLUSH' }
  | { type: 'LINK_UP' }
  | { type: 'LINK_DOWN'; reason?: string }
  /** R6.9: the joined channel's server lost PostgreSQL (its own word); the channel stays, the link is down. */
  | { type: 'LINK_DEGRADED'; reason?: string }
  | { type: 'TRANSPORT_EVENT'; event: TransportEvent }
  | { type: 'TYPING_STARTED'; conversationId: string; at: number }
  | { type: 'TYPING_CLEARED'; conversationId: string };

export interface SyncContext {
  deps: MachineDeps;
  online: boolean;
  hasLink: boolean;
  linkUp: boolean;
  everConnected: boolean;
  linkFailures: number;
  resubscribeDelay: number;
  linkWaitMs: number;
  lastFetchStartedAt: number;
  fetchQueued: boolean;
  pullReason: PullReason;
  queuedReason: PullReason;
  pullFailed: boolean;
  pulledOnce: boolean;
  flushAgain: boolean;
  nextDueAt: number | null;
  typing: Record<string, number>;
}

export interface SyncInput {
  deps: MachineDeps;
  online: boolean;
}

type Self = AnyActorRef;

function sendLater(self: Self, e: SyncEvent): void {
  if ((self.getSnapshot() as { status: string }).status === 'active') self.send(e);
}

function strongerReason(a: PullReason, b: PullReason | undefined): PullReason {
  return a === 'reconnect' || b === 'reconnect' ? 'reconnect' : b === 'start' || a === 'start' ? 'start' : 'other';
}

/** Stands in where no realtime is configured: reports itself down at once. */
function unavailableLink(): Transport {
  const cell = statusCell();
  return {
    name: 'none',
    status: cell.get,
    subscribe(h) {
      cell.attach(h);
      queueMicrotask(() => cell.set('error', 'no realtime transport'));
    },
    close: async () => cell.close(),
  };
}

const linkActor = fromCallback<SyncEvent, { create: () => Transport }>(({ sendBack, input }) => {
  const t = input.create();
  t.subscribe({
    onEvent: (event) => sendBack({ type: 'TRANSPORT_EVENT', event }),
    onStatus: (s, detail) => {
      if (s === 'connected') sendBack({ type: 'LINK_UP' });
      else if (s === 'degraded') sendBack(detail === undefined ? { type: 'LINK_DEGRADED' } : { type: 'LINK_DEGRADED', reason: detail });
      else if (s === 'error' || s === 'closed' || s === 'disconnected') sendBack(detail === undefined ? { type: 'LINK_DOWN' } : { type: 'LINK_DOWN', reason: detail });
    },
  });
  return () => void t.close();
});

const eventsActor = fromCallback<SyncEvent, { transports: () => Transport[] }>(({ sendBack, input }) => {
  const list = input.transports();
  for (const t of list) t.subscribe({ onEvent: (event) => sendBack({ type: 'TRANSPORT_EVENT', event }), onStatus: () => undefined });
  return () => {
    for (const t of list) void t.close();
  };
});

export const syncMachine = setup({
  types: { context: {} as SyncContext, events: {} as SyncEvent, input: {} as SyncInput },
  actors: {
    link: linkActor,
    events: eventsActor,
    pull: fromPromise<{ changed: boolean }, { deps: MachineDeps }>(({ input }) => input.deps.pull()),
    flush: fromPromise<{ nextDueAt: number | null }, { deps: MachineDeps }>(({ input }) => input.deps.flush()),
  },
  delays: {
    tick: ({ context }) => context.deps.timings.tickMs,
    resubscribe: ({ context }) => context.linkWaitMs,
    degradedLimit: ({ context }) => context.deps.timings.resubscribeMaxMs,
    restOfGap: ({ context }) => Math.max(0, context.lastFetchStartedAt + context.deps.timings.fetchGapMs - monotonicNow(context.deps.clock)),
    queuedRefetch: ({ context }) =>
      Math.max(context.deps.timings.queuedRefetchMs, context.lastFetchStartedAt + context.deps.timings.fetchGapMs - monotonicNow(context.deps.clock)),
    untilDue: ({ context }) => Math.max(0, (context.nextDueAt ?? monotonicNow(context.deps.clock)) - monotonicNow(context.deps.clock)),
  },
  guards: {
    online: ({ context }) => context.online,
    hasLink: ({ context }) => context.hasLink,
    gapElapsed: ({ context }) => monotonicNow(context.deps.clock) - context.lastFetchStartedAt >= context.deps.timings.fetchGapMs,
    fetchQueued: ({ context }) => context.fetchQueued,
    flushAgain: ({ context }) => context.flushAgain,
    moreDue: (_, output: { nextDueAt: number | null }) => output.nextDueAt !== null,
  },
  actions: {
    markActivity: ({ context }) => {
      context.deps.activity.lastActivityAt = monotonicNow(context.deps.clock);
    },
    onTransportEvent: ({ context, event, self }) => {
      if (event.type !== 'TRANSPORT_EVENT') return;
      const deps = context.deps;
      if (event.event.kind !== 'poll') deps.activity.lastActivityAt = monotonicNow(deps.clock);
      void deps.onEvent(event.event).then(
        (o) => {
          if (o.changed) deps.activity.lastActivityAt = monotonicNow(deps.clock);
          for (const id of o.specialistReplies) sendLater(self, { type: 'TYPING_CLEARED', conversationId: id });
          if (o.needPull) sendLater(self, { type: 'REQUEST_PULL', reason: 'other' });
        },
        () => sendLater(self, { type: 'REQUEST_PULL', reason: 'other' }),
      );
    },
    tick: enqueueActions(({ context, enqueue }) => {
      const { clock, timings, activity } = context.deps;
      // Wall time for what is stored with wall times (typing starts, confirmations); monotonic time
      // for the machine's own waits (R9.6: a clock set back never stalls a fetch or a flush).
      const now = clock.now();
      context.deps.onTick(now);
      if (!context.online) return;
      const quietSince = Math.max(activity.lastActivityAt, context.lastFetchStartedAt);
      if (context.linkUp && monotonicNow(clock) - quietSince >= timings.healthIdleMs) enqueue.raise({ type: 'REQUEST_PULL', reason: 'other' });
      const stale = Object.entries(context.typing).filter(([, at]) => now - at >= timings.typingStaleMs);
      if (stale.length) {
        const typing = { ...context.typing };
        for (const [id] of stale) delete typing[id];
        enqueue.assign({ typing });
        enqueue.raise({ type: 'REQUEST_PULL', reason: 'other' });
      }
      enqueue.raise({ type: 'FLUSH' });
    }),
  },
}).createMachine({
  id: 'sync',
  type: 'parallel',
  context: ({ input }) => ({
    deps: input.deps,
    online: input.online,
    hasLink: input.deps.createLink !== null,
    linkUp: false,
    everConnected: false,
    linkFailures: 0,
    resubscribeDelay: input.deps.timings.resubscribeStartMs,
    linkWaitMs: input.deps.timings.resubscribeStartMs,
    lastFetchStartedAt: -Infinity,
    fetchQueued: false,
    pullReason: 'start',
    queuedReason: 'other',
    pullFailed: false,
    pulledOnce: false,
    flushAgain: false,
    nextDueAt: null,
    typing: {},
  }),
  on: {
    TRANSPORT_EVENT: { actions: 'onTransportEvent' },
    TYPING_STARTED: { actions: assign({ typing: ({ context, event }) => ({ ...context.typing, [event.conversationId]: event.at }) }) },
    TYPING_CLEARED: {
      actions: assign({
        typing: ({ context, event }) => Object.fromEntries(Object.entries(context.typing).filter(([id]) => id !== event.conversationId)),
      }),
    },
  },
  states: {
    network: {
      initial: 'decide',
      states: {
        decide: { always: [{ guard: 'online', target: 'online' }, { target: 'offline' }] },
        online: {
          on: { OFFLINE: { target: 'offline', actions: assign({ online: false, linkUp: false }) } },
        },
        offline: {
          on: {
            ONLINE: {
              target: 'online',
              // R7.6: back online clears the error and reloads.
              actions: [
                assign({ online: true, pullFailed: false }),
                enqueueActions(({ enqueue }) => {
                  enqueue.raise({ type: 'REQUEST_PULL', reason: 'reconnect' });
                  enqueue.raise({ type: 'FLUSH' });
                }),
              ],
            },
          },
        },
      },
    },
    link: {
      initial: 'decide',
      states: {
        decide: { always: [{ guard: 'hasLink', target: 'live' }, { target: 'none' }] },
        none: {},
        live: {
          invoke: { src: 'link', input: ({ context }) => ({ create: context.deps.createLink ?? unavailableLink }) },
          initial: 'connecting',
          states: {
            connecting: {
              on: {
                LINK_UP: {
                  target: 'connected',
                  actions: [
                    assign({ linkUp: true, everConnected: true, linkFailures: 0, resubscribeDelay: ({ context }) => context.deps.timings.resubscribeStartMs }),
                    enqueueActions(({ enqueue }) => enqueue.raise({ type: 'REQUEST_PULL', reason: 'reconnect' })),
                  ],
                },
                // R6.9: joined while the server is without PostgreSQL: joined (no resubscription), yet down.
                LINK_DEGRADED: {
                  target: 'degraded',
                  actions: assign({ linkUp: false, everConnected: true, linkFailures: 0, resubscribeDelay: ({ context }) => context.deps.timings.resubscribeStartMs }),
                },
              },
            },
            // R6.9: the server said it lost PostgreSQL; the channel is kept (the server says when it is
            // back, and a resubscription could not be served sooner), polling stands in meanwhile.
            connected: { on: { LINK_DEGRADED: { target: 'degraded', actions: assign({ linkUp: false }) } } },
            degraded: {
              // No 'ok' within R7.4's longest wait: the channel is left and joined anew as after a
              // failure, so a lost 'ok' can never hold the status at fallback while pulls succeed.
              after: { degradedLimit: { actions: enqueueActions(({ enqueue }) => enqueue.raise({ type: 'LINK_DOWN', reason: 'no word from the server' })) } },
              on: {
                LINK_UP: {
                  target: 'connected',
                  actions: [assign({ linkUp: true }), enqueueActions(({ enqueue }) => enqueue.raise({ type: 'REQUEST_PULL', reason: 'reconnect' }))],
                },
              },
            },
          },
          on: {
            LINK_DOWN: {
              target: 'waiting',
              actions: assign({
                linkUp: false,
                linkFailures: ({ context }) => context.linkFailures + 1,
                linkWaitMs: ({ context }) => context.resubscribeDelay,
                resubscribeDelay: ({ context }) =>
                  Math.min(context.resubscribeDelay * context.deps.timings.resubscribeFactor, context.deps.timings.resubscribeMaxMs),
              }),
            },
            OFFLINE: { target: 'paused' },
          },
        },
        waiting: {
          after: { resubscribe: { target: 'live' } },
          on: { OFFLINE: { target: 'paused' } },
        },
        paused: {
          // R7.6: back online resubscribes at once, with a fresh back-off.
          on: { ONLINE: { target: 'live', actions: assign({ resubscribeDelay: ({ context }) => context.deps.timings.resubscribeStartMs }) } },
        },
      },
    },
    poller: {
      initial: 'decide',
      states: {
        decide: { always: [{ guard: 'online', target: 'on' }, { target: 'off' }] },
        off: { on: { LINK_DOWN: { guard: 'online', target: 'on' }, LINK_DEGRADED: { guard: 'online', target: 'on' }, ONLINE: { target: 'on' } } },
        on: {
          invoke: { src: 'events', input: ({ context }) => ({ transports: () => [context.deps.createPolling()] }) },
          on: { LINK_UP: { target: 'off' }, OFFLINE: { target: 'off' } },
        },
      },
    },
    fetch: {
      initial: 'idle',
      states: {
        idle: {
          on: {
            REQUEST_PULL: [
              { guard: ({ context }) => !context.online },
              { guard: 'gapElapsed', target: 'fetching', actions: assign({ pullReason: ({ event }) => event.reason ?? 'other' }) },
              { target: 'gap', actions: assign({ pullReason: ({ event }) => event.reason ?? 'other' }) },
            ],
          },
        },
        gap: {
          after: { restOfGap: { target: 'fetching' } },
          on: { REQUEST_PULL: { actions: assign({ pullReason: ({ context, event }) => strongerReason(context.pullReason, event.reason) }) } },
        },
        fetching: {
          entry: assign({ lastFetchStartedAt: ({ context }) => monotonicNow(context.deps.clock), fetchQueued: false, queuedReason: 'other' }),
          invoke: {
            src: 'pull',
            input: ({ context }) => ({ deps: context.deps }),
            onDone: [
              {
                guard: 'fetchQueued',
                target: 'queued',
                actions: [assign({ pullFailed: false, pulledOnce: true }), ({ context, event }) => event.output.changed && (context.deps.activity.lastActivityAt = monotonicNow(context.deps.clock))],
              },
              {
                target: 'idle',
                actions: [assign({ pullFailed: false, pulledOnce: true }), ({ context, event }) => event.output.changed && (context.deps.activity.lastActivityAt = monotonicNow(context.deps.clock))],
              },
            ],
            onError: [
              { guard: 'fetchQueued', target: 'queued', actions: assign({ pullFailed: ({ context }) => context.online }) },
              { target: 'idle', actions: assign({ pullFailed: ({ context }) => context.online }) },
            ],
          },
          on: {
            REQUEST_PULL: { actions: assign({ fetchQueued: true, queuedReason: ({ context, event }) => strongerReason(context.queuedReason, event.reason) }) },
            // R5.10: an error shows only while nothing progresses. A retried pull that stores pages of a
            // backlog clears the last one's failure at its first page, not at its end (minutes later on a
            // slow link, while 'Sťahujem správy…' was what held).
            PULL_PROGRESS: { guard: ({ context }) => context.pullFailed, actions: assign({ pullFailed: false }) },
          },
        },
        queued: {
          entry: assign({ pullReason: ({ context }) => context.queuedReason }),
          after: { queuedRefetch: { target: 'fetching' } },
        },
      },
    },
    push: {
      initial: 'idle',
      states: {
        idle: { on: { FLUSH: { guard: 'online', target: 'flushing' } } },
        flushing: {
          entry: assign({ flushAgain: false }),
          invoke: {
            src: 'flush',
            input: ({ context }) => ({ deps: context.deps }),
            onDone: [
              { guard: 'flushAgain', target: 'flushing', reenter: true },
              { guard: { type: 'moreDue', params: ({ event }) => event.output }, target: 'backoff', actions: assign({ nextDueAt: ({ event }) => event.output.nextDueAt }) },
              { target: 'idle' },
            ],
            onError: { target: 'backoff', actions: assign({ nextDueAt: ({ context }) => monotonicNow(context.deps.clock) + context.deps.timings.retryStartMs }) },
          },
          on: { FLUSH: { actions: assign({ flushAgain: true }) } },
        },
        backoff: {
          after: { untilDue: { target: 'flushing' } },
          on: { FLUSH: { guard: 'online', target: 'flushing' }, OFFLINE: { target: 'idle' } },
        },
      },
    },
    ticker: {
      initial: 'ticking',
      states: { ticking: { after: { tick: { target: 'ticking', reenter: true, actions: 'tick' } } } },
    },
    aux: { invoke: { src: 'events', input: ({ context }) => ({ transports: () => context.deps.auxTransports() }) } },
  },
});

export type SyncMachine = typeof syncMachine;
