// R8.1: taking the lead is two tasks (issue 40: one was 14–25 ms of thread time on /app/chats, four
// times that on Lighthouse's phone): the machine first, then the relay, the writers, the uploads and
// the first pull and flush. A stop between the two ends it: nothing of the second part starts for an
// engine that no longer runs.
import { IDBFactory, IDBKeyRange } from 'fake-indexeddb';
import { afterEach, describe, expect, it } from 'vitest';
import { createSyncEngine, type SyncEngine } from '../../../sync/engine.ts';
import { manualNetwork } from '../../../sync/session/network.ts';
import type { Relay } from '../../../sync/transports/relay.ts';
import { channelHub } from './helpers/fake-locks.ts';
import { FakeServer } from './helpers/fake-server.ts';
import { FAST_TIMINGS, waitFor } from './helpers/wait.ts';

const engines: SyncEngine[] = [];
afterEach(async () => {
  for (const e of engines.splice(0)) await e.stop();
});

/** An engine without Web Locks (it leads at once, R8.1) whose relays are counted as they are opened. */
function leadingEngine() {
  const opened = { relays: 0 };
  const relay = (): Relay => {
    opened.relays++;
    return { subscribe: () => undefined, publish: () => true, withdraw: () => true, close: async () => undefined };
  };
  const engine = createSyncEngine({
    userId: 'user-1',
    server: new FakeServer().api(),
    idb: { indexedDB: new IDBFactory(), IDBKeyRange },
    network: manualNetwork(true),
    timings: { ...FAST_TIMINGS, tickMs: 600_000 },
    transports: { realtime: null, relay },
    locks: null,
    channels: channelHub(),
  });
  engines.push(engine);
  return { engine, opened };
}

/** One turn of the event loop's timers: the second part of taking the lead has had its task. */
const nextTask = () => new Promise<void>((resolve) => setTimeout(resolve, 0));

describe('R8.1 taking the lead', () => {
  it('R8.1 the engine leads after start: the relay opens, the status says leader, the first pull lands', async () => {
    const { engine, opened } = leadingEngine();
    await engine.start();
    await waitFor(() => engine.status().leader && engine.status().loaded, 'leading and loaded');
    expect(opened.relays).toBe(1);
  });

  it('R8.1 a stop between the two tasks of taking the lead opens no relay and does not say leader', async () => {
    const { engine, opened } = leadingEngine();
    await engine.start(); // without Web Locks the machine has started in a microtask of start()
    await engine.stop();
    await nextTask();
    await nextTask();
    expect(opened.relays).toBe(0);
    expect(engine.status().leader).toBe(false);
  });
});
