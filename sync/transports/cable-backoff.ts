// R6.2: Chatwoot socket reconnect delays: 1000 ms × 1.5^attempt, capped at 15 s, plus 0–30 % jitter;
// at most 10 attempts.
import { CABLE_RECONNECT } from '../model/constants.ts';

/** `attempt` counts from 0; `random` is in [0, 1). */
export function cableReconnectDelay(attempt: number, random: () => number): number {
  const base = Math.min(CABLE_RECONNECT.baseMs * CABLE_RECONNECT.factor ** attempt, CABLE_RECONNECT.capMs);
  return Math.round(base * (1 + CABLE_RECONNECT.jitter * random()));
}

export function mayReconnect(attemptsMade: number): boolean {
  return attemptsMade < CABLE_RECONNECT.maxAttempts;
}
