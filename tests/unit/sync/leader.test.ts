import { describe, expect, it } from 'vitest';
import { electLeader, openTabChannel, type LockManagerLike, type TabMessage } from '../../../sync/session/leader.ts';

/** A Web Locks stand-in: exclusive, queued, aborts leave the queue. */
function fakeLocks(): LockManagerLike {
  const queues = new Map<string, { run: () => void }[]>();
  const held = new Set<string>();
  const next = (name: string) => {
    const q = queues.get(name) ?? [];
    const w = q.shift();
    if (w) w.run();
  };
  return {
    request(name, options, callback) {
      return new Promise((resolve, reject) => {
        const waiter = {
          run: () => {
            held.add(name);
            void callback(null).then((v) => {
              held.delete(name);
              resolve(v);
              next(name);
            });
          },
        };
        options.signal?.addEventListener('abort', () => {
          const q = queues.get(name) ?? [];
          const i = q.indexOf(waiter);
          if (i >= 0) {
            q.splice(i, 1);
            reject(new Error('AbortError'));
          }
        });
        if (held.has(name)) queues.set(name, [...(queues.get(name) ?? []), waiter]);
        else waiter.run();
      });
    },
  };
}

const tick = () => new Promise((r) => setTimeout(r, 0));

describe('R8 tabs', () => {
  it('R8.1 one tab leads; the next in line takes over when it closes; a closed waiter never leads', async () => {
    const locks = fakeLocks();
    const led: string[] = [];
    const a = electLeader('db', locks, () => led.push('a'));
    const b = electLeader('db', locks, () => led.push('b'));
    const c = electLeader('db', locks, () => led.push('c'));
    await tick();
    expect(led).toEqual(['a']);
    expect([a.isLeader(), b.isLeader()]).toEqual([true, false]);
    b.release();
    a.release();
    await tick();
    expect(led).toEqual(['a', 'c']);
    expect(c.isLeader()).toBe(true);
    c.release();
  });

  it('R8.1 without Web Locks every engine leads', async () => {
    const led: number[] = [];
    electLeader('db', null, () => led.push(1));
    const l2 = electLeader('db', null, () => led.push(2));
    l2.release();
    await tick();
    expect(led).toEqual([1]);
  });

  it('R8.1 tabs talk over a BroadcastChannel; without one, posting is a no-op', async () => {
    const a = openTabChannel('poradna-test', (n) => new BroadcastChannel(n));
    const b = openTabChannel('poradna-test', (n) => new BroadcastChannel(n));
    const got: TabMessage[] = [];
    b.subscribe((m) => got.push(m));
    a.post({ type: 'outbox' });
    await new Promise((r) => setTimeout(r, 20));
    expect(got).toEqual([{ type: 'outbox' }]);
    a.close();
    b.close();
    const none = openTabChannel('x', null);
    none.post({ type: 'outbox' });
    none.close();
  });
});
