// Drives the sync machine with fake transports and recorded deps; use with vi.useFakeTimers().
import { createActor } from 'xstate';
import { systemClock } from '../../../../sync/model/clock.ts';
import { SPEC_TIMINGS } from '../../../../sync/model/constants.ts';
import type { EventOutcome } from '../../../../sync/receive/events.ts';
import { syncMachine, type MachineDeps } from '../../../../sync/machine.ts';
import { createPollingTransport } from '../../../../sync/transports/polling.ts';
import { statusCell, type Transport, type TransportEvent, type TransportHandlers } from '../../../../sync/transports/transport.ts';

export interface FakeLink extends Transport {
  createdAt: number;
  closed: boolean;
  up(): void;
  down(): void;
  /** R6.9: the server said it lost PostgreSQL (the channel stays joined). */
  degrade(): void;
  emit(e: TransportEvent): void;
}

export function fakeLink(): FakeLink {
  const cell = statusCell();
  const link: FakeLink = {
    name: 'fake',
    createdAt: Date.now(),
    closed: false,
    status: cell.get,
    subscribe(h: TransportHandlers) {
      cell.attach(h);
      cell.set('connecting');
    },
    close: async () => {
      link.closed = true;
      cell.close();
    },
    up: () => cell.set('connected'),
    down: () => cell.set('error', 'down'),
    degrade: () => cell.set('degraded', 'Lost the connection to PostgreSQL'),
    emit: (e) => cell.emit(e),
  };
  return link;
}

export interface Harness {
  deps: MachineDeps;
  actor: ReturnType<typeof createActor<typeof syncMachine>>;
  pulls: number[];
  flushes: number[];
  ticks: number[];
  links: FakeLink[];
  /** Makes the next pulls take `ms` (fake) milliseconds. */
  pullTakes: { ms: number };
  flushResult: { nextDueAt: number | null };
  eventOutcome: EventOutcome;
  lastLink(): FakeLink;
}

export function startHarness(opts: { online?: boolean; withLink?: boolean; start?: boolean } = {}): Harness {
  const t0 = Date.now();
  const h = {
    pulls: [] as number[],
    flushes: [] as number[],
    ticks: [] as number[],
    links: [] as FakeLink[],
    pullTakes: { ms: 0 },
    flushResult: { nextDueAt: null as number | null },
    eventOutcome: { needPull: false, changed: false, specialistReplies: [] as string[] } as EventOutcome,
  };
  const deps: MachineDeps = {
    // Monotonic time on the faked Date, so vi's fake timers drive the machine's waits too (R9.6).
    clock: { ...systemClock, monotonic: () => Date.now() },
    timings: { ...SPEC_TIMINGS },
    activity: { lastActivityAt: t0 },
    pull: () => {
      h.pulls.push(Date.now() - t0);
      return new Promise((r) => setTimeout(() => r({ changed: false }), h.pullTakes.ms));
    },
    flush: async () => {
      h.flushes.push(Date.now() - t0);
      const r = h.flushResult;
      h.flushResult = { nextDueAt: null };
      return r;
    },
    createLink:
      opts.withLink === false
        ? null
        : () => {
            const l = fakeLink();
            l.createdAt = Date.now() - t0;
            h.links.push(l);
            return l;
          },
    createPolling: () => createPollingTransport(deps.clock, deps.timings, deps.activity),
    auxTransports: () => [],
    // Like events.ts: polls and hints ask for a pull; rows answer what the test set.
    onEvent: async (e) => (e.kind === 'poll' || e.kind === 'changed' ? { needPull: true, changed: false, specialistReplies: [] } : h.eventOutcome),
    onTick: (now) => h.ticks.push(now - t0),
  };
  const actor = createActor(syncMachine, { input: { deps, online: opts.online ?? true } });
  actor.start();
  return Object.assign(h, { deps, actor, lastLink: () => h.links[h.links.length - 1]! });
}
