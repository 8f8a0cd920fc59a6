// A port freePort picked can be taken before the child binds it (the probe closes first, and a client
// socket anywhere on the machine may be given that ephemeral port): the start picks again rather than
// failing the stack. Seen in a clean-clone run (lifecycle.test, 2026-11-30); here the race is made
// certain by handing the first attempt a port a listener holds.
import { createServer, type Server } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { onFreePort, PortTakenError } from '../../supabase/local/free-port.ts';
import { startEmbeddedPostgres } from '../../supabase/local/postgres.ts';
import { startPostgrest } from '../../supabase/local/postgrest.ts';
import { StartError } from '../../supabase/local/errors.ts';
import { tempDirs } from '../helpers/temp-dirs.ts';

const tempDir = tempDirs('poradna-port-');
const blockers: Server[] = [];
afterEach(() => {
  for (const b of blockers.splice(0)) b.close();
});

async function takenPort(): Promise<number> {
  const blocker = createServer();
  blockers.push(blocker);
  await new Promise<void>((r) => blocker.listen(0, '127.0.0.1', () => r()));
  return (blocker.address() as { port: number }).port;
}

describe('a picked port taken before the child binds it', () => {
  it('PostgreSQL on a taken port says so (PortTakenError), and onFreePort starts it on another', async () => {
    const dir = await tempDir();
    const taken = await takenPort();
    const tried: number[] = [];
    const pg = await onFreePort((port) => {
      const use = tried.length === 0 ? taken : port;
      tried.push(use);
      return startEmbeddedPostgres(dir, use, () => undefined);
    });
    try {
      expect(tried[0]).toBe(taken);
      expect(tried).toHaveLength(2);
      expect(pg.port).toBe(tried[1]);
      expect(pg.port).not.toBe(taken);
    } finally {
      await pg.stop();
    }
  });

  it('PostgREST on a port a silent listener holds says so (PortTakenError) instead of waiting on it', async () => {
    // The listener accepts and never answers: the readiness probe must not wait on it (undici's 300 s).
    const taken = await takenPort();
    await expect(
      startPostgrest({ dbUri: 'postgres://authenticator:x@127.0.0.1:1/postgres', jwtSecret: 'x'.repeat(40), port: taken, log: () => undefined }),
    ).rejects.toBeInstanceOf(PortTakenError);
  }, 30_000); // an unbounded probe waited here until this bound ended it

  it('gives up after its tries with the last error, and never retries any other start error', async () => {
    let calls = 0;
    await expect(
      onFreePort(() => {
        calls++;
        return Promise.reject(new PortTakenError('taken'));
      }, 3),
    ).rejects.toThrow('taken');
    expect(calls).toBe(3);
    calls = 0;
    await expect(
      onFreePort(() => {
        calls++;
        return Promise.reject(new StartError('PostgreSQL did not start'));
      }),
    ).rejects.toThrow('did not start');
    expect(calls).toBe(1);
  });
});
