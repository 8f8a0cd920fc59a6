// sync/background/worker-db.ts keeps one connection per context. When the browser closes it under
// the context (storage cleared, evicted, the backing store lost) without a `versionchange`, the next
// use finds a closed connection: `transaction()` throws InvalidStateError, and worker-db must open a
// new one and answer rather than fail every later read of the session and the list snapshot.
import { IDBFactory } from 'fake-indexeddb';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { readMirroredSession, writeMirroredSession, type MirroredSession } from '../../../sync/background/session-store.ts';
import { readKvMany, runKv } from '../../../sync/background/worker-db.ts';

const session: MirroredSession = { url: 'http://x', anonKey: 'k', userId: 'u1', accessToken: 't', expiresAt: 2e9 };

/** The kept connection, taken from the one open request worker-db made. */
function keptConnection(opens: { mock: { results: { value: unknown }[] } }): IDBDatabase {
  expect(opens.mock.results).toHaveLength(1);
  return (opens.mock.results[0]!.value as IDBOpenDBRequest).result;
}

describe('worker-db: a kept connection the browser closed', () => {
  let factory: IDBFactory;
  beforeEach(() => {
    factory = new IDBFactory();
    vi.stubGlobal('indexedDB', factory);
  });
  afterEach(() => vi.unstubAllGlobals());

  it('the next read opens a new connection and answers', async () => {
    const opens = vi.spyOn(factory, 'open');
    await writeMirroredSession(session);
    const kept = keptConnection(opens);
    // Closed without a `close` event reaching worker-db (db.close() fires none): only the failing
    // transaction tells it. Its `transaction()` now throws InvalidStateError.
    kept.close();
    expect(() => kept.transaction('kv', 'readonly')).toThrow(expect.objectContaining({ name: 'InvalidStateError' }) as Error);
    expect(await readMirroredSession()).toEqual(session);
    expect(opens).toHaveBeenCalledTimes(2);
    // And the new connection is kept: no open per read again.
    expect(await readKvMany(['session'])).toEqual([session]);
    expect(opens).toHaveBeenCalledTimes(2);
  });

  it('a write after the close is stored through the new connection', async () => {
    const opens = vi.spyOn(factory, 'open');
    await writeMirroredSession(session);
    keptConnection(opens).close();
    await runKv('readwrite', (store) => store.put('v', 'other'));
    expect(await readKvMany(['other', 'session'])).toEqual(['v', session]);
    expect(opens).toHaveBeenCalledTimes(2);
  });
});
