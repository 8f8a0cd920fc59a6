import { createServer } from 'node:net';
import { StartError } from './errors.ts';

/** Asks the kernel for a free TCP port on loopback. */
export function freePort(): Promise<number> {
  return new Promise((resolvePort, reject) => {
    const srv = createServer();
    srv.unref();
    srv.on('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const addr = srv.address();
      const port = typeof addr === 'object' && addr ? addr.port : 0;
      srv.close(() => resolvePort(port));
    });
  });
}

/** A child found the port freePort picked for it taken by the time it bound. */
export class PortTakenError extends StartError {}

/**
 * Starts a child on a port freePort picks, picking again when it was taken meanwhile. The probe
 * closes before the child binds, and the port comes from the kernel's ephemeral range, where any
 * client socket on the machine may be given it in between: with many stacks and test clients side by
 * side this happened (lifecycle.test, clean-clone run of 2026-11-30: 'PostgreSQL could not listen
 * on port 45919'). A port named by the operator is never replaced; only a picked one is.
 */
export async function onFreePort<T>(start: (port: number) => Promise<T>, tries = 5): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await start(await freePort());
    } catch (err) {
      if (!(err instanceof PortTakenError) || attempt >= tries) throw err;
    }
  }
}
