// The session gate as the engine asks it (R9.1, R9.2, R9.13, R9.16, R1.12): before every pull and
// push, "may this device talk to the server now?" Its answer is remembered (`ok`) for the sender's
// fast path until something that can change it happens: going offline, or the session changing.
import { ServerError } from '../server/api.ts';
import { within, type Clock } from '../model/clock.ts';
import type { AuthGate } from './auth.ts';

export interface SessionGateOptions {
  auth: AuthGate | null;
  clock: Pick<Clock, 'setTimeout' | 'clearTimeout'>;
  requestTimeoutMs: number;
  online: () => boolean;
  /** R9.13: the engine's stop() has begun. */
  stopped: () => boolean;
  /** R9.2: the gate found the user signed out (true) or signed in (false). */
  setNeedsSignIn: (needed: boolean) => void;
}

export interface SessionGate {
  /** R1.12: the gate's last answer was ok and nothing since went offline or changed the session. */
  ok(): boolean;
  /** R1.12: offline, or the session changed: the next pull or push asks the gate again. */
  forget(): void;
  /** R9.13: ends every wait for the gate's answer (stop()): those pulls and pushes send nothing. */
  endWaits(): void;
  /**
   * R9.1/R9.2: asked before every pull and push. `false`: signed out (or stopping), send and pull
   * nothing (the outbox stays). An unreachable auth server is a transient failure like any network error.
   */
  authorized(): Promise<boolean>;
}

export function createSessionGate(o: SessionGateOptions): SessionGate {
  const { auth } = o;
  let ok = !auth;
  /**
   * R9.13: the waits for the gate's answer, each ended by endWaits(): nothing of them is on the wire,
   * so stop() has nothing to wait for. One entry per wait, gone when it ends (one promise for the
   * engine's life would keep a reaction of every pull and push ever made).
   */
  const waits = new Set<() => void>();
  return {
    ok: () => ok,
    forget: () => {
      ok = false;
    },
    endWaits: () => {
      for (const end of waits) end();
    },
    async authorized() {
      if (!auth) return true;
      // R9.16: offline, auth is not asked at all. A refresh auth-js began offline fails for lack of
      // network and retries with back-off for up to 30 s, and every getSession after the reconnect waits
      // for its next try (the queued sends left 6–10 s late). The flush fails as any request would.
      if (!o.online()) throw new ServerError('transient', 'offline');
      if (o.stopped()) return false; // R9.13: nothing is sent once stop() has begun
      // R9.13: the gate's answer within the request timeout; a hung auth call is an unreachable server.
      let end: () => void = () => undefined;
      const ended = new Promise<'stopped'>((resolve) => (end = () => resolve('stopped')));
      waits.add(end);
      const state = await within(o.clock, Promise.race([auth.ensure(), ended]), o.requestTimeoutMs, 'unreachable' as const).finally(() => waits.delete(end));
      if (state === 'stopped' || o.stopped()) return false;
      ok = state === 'ok';
      if (state === 'unreachable') throw new ServerError('transient', 'auth server unreachable');
      o.setNeedsSignIn(state === 'signed-out');
      return state === 'ok';
    },
  };
}
